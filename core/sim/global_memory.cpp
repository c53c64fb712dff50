#include "sim/global_memory.h"

#include "util/parse.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>

namespace warpscope::sim {

std::uint64_t GlobalMemory::allocate(std::string name, std::vector<std::uint8_t> bytes, ptx::Type elementType)
{
    constexpr std::uint64_t kAlignment = 256;
    const std::uint64_t base = m_next;
    const std::uint64_t size = bytes.size();
    m_next = (base + size + kAlignment + kAlignment - 1) / kAlignment * kAlignment;
    m_buffers.push_back({std::move(name), base, std::move(bytes), elementType});
    return base;
}

DeviceBuffer* GlobalMemory::find(std::uint64_t address, std::uint64_t bytes)
{
    auto after = std::upper_bound(m_buffers.begin(), m_buffers.end(), address,
                                  [](std::uint64_t a, const DeviceBuffer& buffer) { return a < buffer.base; });
    if (after == m_buffers.begin())
        return nullptr;
    DeviceBuffer& buffer = *(after - 1);
    if (address + bytes < address || address + bytes > buffer.end())
        return nullptr;
    return &buffer;
}

const DeviceBuffer* GlobalMemory::nearest(std::uint64_t address) const
{
    const DeviceBuffer* best = nullptr;
    std::uint64_t bestDistance = ~std::uint64_t{0};
    for (const DeviceBuffer& buffer : m_buffers) {
        const std::uint64_t distance = address < buffer.base ? buffer.base - address
                                     : address >= buffer.end() ? address - buffer.end() + 1 : 0;
        if (distance < bestDistance) {
            bestDistance = distance;
            best = &buffer;
        }
    }
    return best;
}

namespace {

std::string hexAddress(std::uint64_t address)
{
    char text[32];
    std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(address));
    return text;
}

} // namespace

std::string elementNoun(ptx::Type type, bool plural)
{
    using ptx::Type;
    const char* one = nullptr;
    const char* many = nullptr;
    switch (type) {
    case Type::F32: case Type::TF32: one = "float"; many = "floats"; break;
    case Type::F64: one = "double"; many = "doubles"; break;
    case Type::F16: one = "half"; many = "halves"; break;
    case Type::BF16: one = "bfloat16"; many = "bfloat16s"; break;
    case Type::F16x2: one = "half2"; many = "half2s"; break;
    case Type::BF16x2: one = "bfloat162"; many = "bfloat162s"; break;
    // Compilers load and store a C int as .u32 as often as .s32: integers say only their width
    // (a 32-bit one is an int, signed or not).
    case Type::S8: case Type::U8: one = "8-bit int"; many = "8-bit ints"; break;
    case Type::S16: case Type::U16: one = "16-bit int"; many = "16-bit ints"; break;
    case Type::S32: case Type::U32: one = "int"; many = "ints"; break;
    case Type::S64: case Type::U64: one = "64-bit int"; many = "64-bit ints"; break;
    case Type::B8: one = "byte"; many = "bytes"; break;
    default: break; // .b16, .b32, .b64 say only their size
    }
    if (one)
        return plural ? many : one;
    return std::to_string(ptx::typeBits(type) / 8) + "-byte element" + (plural ? "s" : "");
}

std::string describeOutOfBounds(const DeviceBuffer* nearest, std::uint64_t address, std::uint32_t accessBytes,
                                ptx::Type accessType)
{
    if (!nearest)
        return "address " + hexAddress(address) + ", in no allocation";
    const std::uint64_t distance = address < nearest->base ? nearest->base - address
                                 : address >= nearest->end() ? address - nearest->end() : 0;
    // Indices a billion elements off (a null or garbage pointer) would say nothing useful.
    constexpr std::uint64_t kFar = 1ull << 30;
    if (distance > kFar)
        return "address " + hexAddress(address) + ", far from every allocation (the nearest is '" + nearest->name + "')";
    // Within kFar of the buffer, so the difference fits a signed offset (negative before the start).
    const auto offset = static_cast<std::int64_t>(address - nearest->base);
    const auto size = static_cast<std::int64_t>(nearest->size());
    // The declared type first (x[i] = 2.0f stores the float's bits with st.u32), then the access's.
    const auto tiles = [&](ptx::Type type) {
        const std::int64_t bytes = ptx::typeBits(type) / 8;
        return bytes > 0 && accessBytes > 0 && size % bytes == 0 && offset % bytes == 0 && accessBytes % bytes == 0;
    };
    const bool typed = nearest->elementType != ptx::Type::None && nearest->elementType != ptx::Type::B8 &&
                       nearest->elementType != ptx::Type::B16 && nearest->elementType != ptx::Type::B32 &&
                       nearest->elementType != ptx::Type::B64;
    const ptx::Type elementType = typed && tiles(nearest->elementType) ? nearest->elementType : accessType;
    const bool inElements = tiles(elementType);
    const std::int64_t elementBytes = ptx::typeBits(elementType) / 8;
    const std::int64_t unit = inElements ? elementBytes : 1;
    const std::int64_t first = offset / unit;
    const std::int64_t count = size / unit;
    const std::int64_t width = std::max<std::int64_t>(1, static_cast<std::int64_t>(accessBytes) / unit);
    const std::int64_t last = first + width - 1;

    std::string what;
    if (inElements)
        what = nearest->name + "[" + std::to_string(first) + (width > 1 ? ".." + std::to_string(last) : "") + "]";
    else
        what = (width > 1 ? "bytes " + withThousands(first) + " to " + withThousands(last) : "byte " + withThousands(first)) +
               " of '" + nearest->name + "'";
    const char* unitWord = inElements ? " element" : " byte";
    const auto units = [&](std::int64_t n) { return withThousands(n) + unitWord + (n == 1 ? "" : "s"); };
    const std::string starting = width > 1 ? "starting " : "";
    std::string where;
    if (first >= count)
        where = starting + units(first - count + 1) + " past the end";
    else if (last < 0)
        where = starting + units(-first) + " before the start";
    else if (last >= count)
        where = "its last " + units(last - count + 1) + " past the end";
    else if (first < 0)
        where = "its first " + units(-first) + " before the start";
    else
        where = "inside it"; // not reached: GlobalMemory::find holds such an access
    const std::string sized = withThousands(count) + " " +
                              (inElements ? elementNoun(elementType, count != 1) : std::string(count == 1 ? "byte" : "bytes"));
    return what + ", " + where + " (" + sized + ")";
}

} // namespace warpscope::sim
