// The interface between a demo kernel's CPU gold reference and whoever runs it (the simulator's
// tests, `warpscope sim`, later the GPU probe). A gold reference reads the launch, the scalar
// arguments and the buffers as they were initialised before the launch, and writes the contents
// it expects every checked buffer to have afterwards. It never sees the simulator.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace warpscope::kernels {

struct GoldDims {
    std::uint32_t x = 1, y = 1, z = 1;
};

struct GoldLaunch {
    GoldDims grid;
    GoldDims block;
    std::uint64_t dynamicSharedBytes = 0;
};

// Element types of buffer arguments, as the argument-spec language names them.
enum class GoldElement { I8, U8, I16, U16, I32, U32, I64, U64, F32, F64 };

template <class T> constexpr GoldElement goldElementOf()
{
    if constexpr (std::is_same_v<T, std::int8_t>) return GoldElement::I8;
    else if constexpr (std::is_same_v<T, std::uint8_t>) return GoldElement::U8;
    else if constexpr (std::is_same_v<T, std::int16_t>) return GoldElement::I16;
    else if constexpr (std::is_same_v<T, std::uint16_t>) return GoldElement::U16;
    else if constexpr (std::is_same_v<T, std::int32_t>) return GoldElement::I32;
    else if constexpr (std::is_same_v<T, std::uint32_t>) return GoldElement::U32;
    else if constexpr (std::is_same_v<T, std::int64_t>) return GoldElement::I64;
    else if constexpr (std::is_same_v<T, std::uint64_t>) return GoldElement::U64;
    else if constexpr (std::is_same_v<T, float>) return GoldElement::F32;
    else if constexpr (std::is_same_v<T, double>) return GoldElement::F64;
    else static_assert(sizeof(T) == 0, "unsupported gold element type");
}

struct GoldBuffer {
    GoldElement element = GoldElement::U8;
    std::vector<std::uint8_t> bytes; // as sim::ResolvedArg holds them, so a launch's can be moved in
};

class GoldContext {
public:
    GoldContext(GoldLaunch launch, std::map<std::string, std::int64_t, std::less<>> integers,
                std::map<std::string, double, std::less<>> reals,
                std::map<std::string, GoldBuffer, std::less<>> inputs)
        : launch_(launch), integers_(std::move(integers)), reals_(std::move(reals)),
          inputs_(std::move(inputs))
    {
    }

    const GoldLaunch& launch() const { return launch_; }

    // An integer scalar argument (i8..u64); throws std::out_of_range naming it when absent.
    std::int64_t integer(std::string_view name) const { return lookup(integers_, name, "integer scalar"); }
    // A floating-point scalar argument (f32/f64).
    double real(std::string_view name) const { return lookup(reals_, name, "floating-point scalar"); }

    // A buffer's contents before the launch.
    template <class T> std::span<const T> input(std::string_view name) const
    {
        const GoldBuffer& buffer = typed<T>(inputs_, name);
        return {reinterpret_cast<const T*>(buffer.bytes.data()), buffer.bytes.size() / sizeof(T)};
    }

    // The contents the gold reference expects after the launch; starts as a copy of the input, made
    // when the reference first asks for it (a launch's inputs are not copied: they may be GBs).
    template <class T> std::span<T> expected(std::string_view name)
    {
        if (expected_.find(name) == expected_.end())
            expected_.emplace(std::string(name), typed<T>(inputs_, name));
        GoldBuffer& buffer = const_cast<GoldBuffer&>(typed<T>(expected_, name));
        return {reinterpret_cast<T*>(buffer.bytes.data()), buffer.bytes.size() / sizeof(T)};
    }

    // After the reference ran: what it expects in buffer `name` (its input where the reference never
    // asked for it: the launch leaves it as it was); null for a name that is no buffer.
    // The inputs, given back once the reference has run.
    std::map<std::string, GoldBuffer, std::less<>> takeInputs() { return std::move(inputs_); }

    const GoldBuffer* expectedBuffer(std::string_view name) const
    {
        if (const auto found = expected_.find(name); found != expected_.end())
            return &found->second;
        const auto input = inputs_.find(name);
        return input == inputs_.end() ? nullptr : &input->second;
    }

private:
    template <class Map>
    static typename Map::mapped_type lookup(const Map& map, std::string_view name, const char* what)
    {
        auto found = map.find(name);
        if (found == map.end())
            throw std::out_of_range("gold reference needs " + std::string(what) + " '" + std::string(name) + "'");
        return found->second;
    }
    template <class T>
    static const GoldBuffer& typed(const std::map<std::string, GoldBuffer, std::less<>>& map, std::string_view name)
    {
        auto found = map.find(name);
        if (found == map.end())
            throw std::out_of_range("gold reference needs buffer '" + std::string(name) + "'");
        if (found->second.element != goldElementOf<T>())
            throw std::out_of_range("gold reference reads buffer '" + std::string(name) + "' with the wrong element type");
        return found->second;
    }

    GoldLaunch launch_;
    std::map<std::string, std::int64_t, std::less<>> integers_;
    std::map<std::string, double, std::less<>> reals_;
    std::map<std::string, GoldBuffer, std::less<>> inputs_;
    std::map<std::string, GoldBuffer, std::less<>> expected_;
};

using GoldFunction = void (*)(GoldContext&);

// The gold reference registered under a manifest's "gold" name; nullptr when there is none.
GoldFunction findGold(std::string_view name);

} // namespace warpscope::kernels
