#include "sim/global_memory.h"

#include "util/parse.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <utility>

namespace warpscope::sim {

std::uint64_t GlobalMemory::allocate(std::string name, std::vector<std::uint8_t> bytes)
{
    constexpr std::uint64_t kAlignment = 256;
    const std::uint64_t base = m_next;
    const std::uint64_t size = bytes.size();
    m_next = (base + size + kAlignment + kAlignment - 1) / kAlignment * kAlignment;
    m_buffers.push_back({std::move(name), base, std::move(bytes)});
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

std::string describeOutside(const DeviceBuffer* nearest, std::uint64_t address, std::uint32_t bytes)
{
    if (!nearest)
        return "no allocation holds address 0x" + [&] { char text[32]; std::snprintf(text, sizeof text, "%llx", static_cast<unsigned long long>(address)); return std::string(text); }();
    if (address >= nearest->end())
        return std::to_string(address - nearest->end()) + " bytes past the end of '" + nearest->name + "' (" +
               formatBytes(nearest->size()) + ")";
    if (address < nearest->base)
        return std::to_string(nearest->base - address) + " bytes before the start of '" + nearest->name + "'";
    return "the " + std::to_string(bytes) + "-byte access runs past the end of '" + nearest->name + "' (" +
           formatBytes(nearest->size()) + ")";
}

} // namespace warpscope::sim
