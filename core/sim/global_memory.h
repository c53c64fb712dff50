// Device memory as the simulator sees it: named allocations with exact bounds at addresses that
// look like a GPU's, plus the generic-address windows for shared and local memory.
#pragma once

#include "ptx/ptx_ir.h"

#include <cstdint>
#include <string>
#include <vector>

namespace warpscope::sim {

// Generic addresses: global allocations start at kGlobalBase; a block's shared memory appears at
// kSharedWindow + shared address, a thread's local memory at kLocalWindow + local address.
// (cvta.shared / cvta.to.shared and friends convert between the windows and the spaces.)
inline constexpr std::uint64_t kGlobalBase = 0x0000'7f00'0000'0000ull;
inline constexpr std::uint64_t kSharedWindow = 0x0001'0000'0000'0000ull;
inline constexpr std::uint64_t kLocalWindow = 0x0002'0000'0000'0000ull;
inline constexpr std::uint64_t kWindowSize = 0x0000'0001'0000'0000ull;

struct DeviceBuffer {
    std::string name;        // the argument or variable name
    std::uint64_t base = 0;  // device address
    std::vector<std::uint8_t> bytes;
    // What the kernel argument or variable declares it holds (None when unknown or untyped): an
    // out-of-bounds report counts its elements.
    ptx::Type elementType = ptx::Type::None;
    std::uint64_t size() const { return bytes.size(); }
    std::uint64_t end() const { return base + bytes.size(); }
};

class GlobalMemory {
public:
    // Allocations are 256-byte aligned, as cudaMalloc's are, with at least 256 unmapped bytes after
    // each, so an access just past the end belongs to no buffer.
    std::uint64_t allocate(std::string name, std::vector<std::uint8_t> bytes, ptx::Type elementType = ptx::Type::None);

    // The buffer holding all of [address, address + bytes), or nullptr.
    // Safe to call from several threads; callers keep their own last-hit cache.
    DeviceBuffer* find(std::uint64_t address, std::uint64_t bytes);
    // The buffer whose range is nearest to address (for messages), or nullptr when there is none.
    const DeviceBuffer* nearest(std::uint64_t address) const;

    std::vector<DeviceBuffer>& buffers() { return m_buffers; }
    const std::vector<DeviceBuffer>& buffers() const { return m_buffers; }

private:
    std::vector<DeviceBuffer> m_buffers; // ascending base
    std::uint64_t m_next = kGlobalBase;
};

// What an access outside every allocation touched, against `nearest` (the buffer
// GlobalMemory::nearest found, or null): the first element and how far it lies outside, and the
// buffer's size. Elements are the buffer's declared type where it tiles the buffer and the access,
// else the access's PTX type (`accessType`), else bytes:
// "a[1000], 1 element past the end (1,000 floats)", "d[-256..-253], starting 256 elements before
// the start (256 floats)", "bytes 4,001 to 4,004 of 'a', starting 2 bytes past the end (4,000 bytes)".
std::string describeOutOfBounds(const DeviceBuffer* nearest, std::uint64_t address, std::uint32_t accessBytes,
                                ptx::Type accessType);
// The access type's elements in a sentence: "float" / "floats", "ints", "64-bit ints", "4-byte elements".
std::string elementNoun(ptx::Type type, bool plural);

} // namespace warpscope::sim
