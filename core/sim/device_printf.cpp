#include "sim/device_printf.h"

#include <bit>
#include <cstdio>
#include <string>
#include <vector>

namespace warpscope::sim {

DevicePrintfResult formatDevicePrintf(std::string_view format,
                                      const std::function<std::optional<std::uint64_t>(std::size_t, std::size_t)>& argument,
                                      const std::function<std::string(std::uint64_t)>& string)
{
    DevicePrintfResult result;
    std::size_t offset = 0; // into the argument buffer
    auto next = [&](std::size_t bytes) -> std::optional<std::uint64_t> {
        offset = (offset + bytes - 1) / bytes * bytes; // each argument aligned to its size
        std::optional<std::uint64_t> value = argument(offset, bytes);
        offset += bytes;
        ++result.arguments;
        return value;
    };
    std::vector<char> buffer(512);
    auto append = [&](const std::string& spec, auto value) {
        int length = std::snprintf(buffer.data(), buffer.size(), spec.c_str(), value);
        if (length >= static_cast<int>(buffer.size())) {
            buffer.resize(static_cast<std::size_t>(length) + 1);
            length = std::snprintf(buffer.data(), buffer.size(), spec.c_str(), value);
        }
        if (length > 0)
            result.text.append(buffer.data(), static_cast<std::size_t>(length));
    };
    for (std::size_t i = 0; i < format.size(); ++i) {
        if (format[i] != '%') {
            result.text += format[i];
            continue;
        }
        if (i + 1 < format.size() && format[i + 1] == '%') {
            result.text += '%';
            ++i;
            continue;
        }
        // %[flags][width][.precision][length]conversion
        const std::size_t start = i;
        std::string spec = "%";
        std::size_t j = i + 1;
        while (j < format.size() && std::string_view("-+ #0").find(format[j]) != std::string_view::npos)
            spec += format[j++];
        auto number = [&] {
            if (j < format.size() && format[j] == '*') {
                const std::optional<std::uint64_t> value = next(4);
                spec += std::to_string(static_cast<std::int32_t>(value.value_or(0)));
                ++j;
                return;
            }
            while (j < format.size() && format[j] >= '0' && format[j] <= '9')
                spec += format[j++];
        };
        number();
        if (j < format.size() && format[j] == '.') {
            spec += format[j++];
            number();
        }
        int longs = 0;
        int shorts = 0;
        while (j < format.size() && std::string_view("hlLqjzt").find(format[j]) != std::string_view::npos) {
            const char c = format[j++];
            if (c == 'h') ++shorts;
            else if (c == 'l' || c == 'q' || c == 'L' || c == 'j' || c == 'z' || c == 't') longs = c == 'l' ? longs + 1 : 2;
        }
        if (j >= format.size()) { // a format that ends inside a conversion: printed as written
            result.text += format.substr(i);
            break;
        }
        const char conversion = format[j];
        i = j;
        const bool wide = longs > 0;
        switch (conversion) {
        case 'd': case 'i': {
            const std::optional<std::uint64_t> raw = next(wide ? 8 : 4);
            if (!raw) { result.text += "<missing>"; break; }
            long long value = wide ? static_cast<long long>(*raw) : static_cast<std::int32_t>(*raw);
            if (shorts == 1) value = static_cast<short>(value);
            if (shorts >= 2) value = static_cast<signed char>(value);
            append(spec + "ll" + conversion, value);
            break;
        }
        case 'u': case 'x': case 'X': case 'o': {
            const std::optional<std::uint64_t> raw = next(wide ? 8 : 4);
            if (!raw) { result.text += "<missing>"; break; }
            unsigned long long value = wide ? *raw : static_cast<std::uint32_t>(*raw);
            if (shorts == 1) value = static_cast<unsigned short>(value);
            if (shorts >= 2) value = static_cast<unsigned char>(value);
            append(spec + "ll" + conversion, value);
            break;
        }
        case 'c': {
            const std::optional<std::uint64_t> raw = next(4);
            if (!raw) { result.text += "<missing>"; break; }
            append(spec + "c", static_cast<int>(static_cast<unsigned char>(*raw)));
            break;
        }
        case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A': {
            const std::optional<std::uint64_t> raw = next(8); // floats are promoted to double
            if (!raw) { result.text += "<missing>"; break; }
            append(spec + conversion, std::bit_cast<double>(*raw));
            break;
        }
        case 's': {
            const std::optional<std::uint64_t> raw = next(8);
            if (!raw) { result.text += "<missing>"; break; }
            const std::string text = *raw == 0 ? std::string("(null)") : string(*raw);
            append(spec + "s", text.c_str());
            break;
        }
        case 'p': {
            const std::optional<std::uint64_t> raw = next(8);
            if (!raw) { result.text += "<missing>"; break; }
            append(std::string("0x%llx"), static_cast<unsigned long long>(*raw));
            break;
        }
        default: // not a conversion printf knows: printed as written
            result.text += format.substr(start, j - start + 1);
            break;
        }
    }
    return result;
}

} // namespace warpscope::sim
