#include "hierarchy.h"

#include "event_timer.h"
#include "memory_ladder_kernels.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace warpscope::probe {

namespace {

constexpr int kLatencyRuns = 5;       // median of these
constexpr int kBandwidthRuns = 3;     // best of these
constexpr std::uint32_t kLinks = 4096; // timed links per chase

class Module {
public:
    Module(const DriverApi& d, const std::string& ptx) : m_d(d) { WS_CU(d.cuModuleLoadDataEx(&m_module, ptx.c_str(), 0, nullptr, nullptr)); }
    ~Module() { m_d.cuModuleUnload(m_module); }
    Module(const Module&) = delete;
    Module& operator=(const Module&) = delete;
    CUfunction function(const char* entry) const
    {
        CUfunction f = nullptr;
        WS_CU(m_d.cuModuleGetFunction(&f, m_module, entry));
        return f;
    }

private:
    const DriverApi& m_d;
    CUmodule m_module = nullptr;
};

class DeviceBuffer {
public:
    DeviceBuffer(const DriverApi& d, std::size_t bytes) : m_d(d) { WS_CU(d.cuMemAlloc(&m_pointer, std::max<std::size_t>(bytes, 16))); }
    ~DeviceBuffer() { m_d.cuMemFree(m_pointer); }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    CUdeviceptr get() const { return m_pointer; }
    CUdeviceptr* address() { return &m_pointer; }

private:
    const DriverApi& m_d;
    CUdeviceptr m_pointer = 0;
};

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    const std::size_t mid = values.size() / 2;
    return values.size() % 2 == 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

// Uploads a chain of 8-byte nodes: the whole footprint when it is small, node by node when the
// nodes are sparse (one per page).
void uploadChain(const DriverApi& d, CUdeviceptr base, std::uint64_t footprint, const std::vector<ChainNode>& chain)
{
    if (chain.size() * 8 * 4 >= footprint || footprint <= (std::uint64_t{256} << 20)) {
        std::vector<std::uint64_t> words(footprint / 8, 0);
        for (const ChainNode& node : chain)
            words[node.offset / 8] = node.next;
        WS_CU(d.cuMemcpyHtoD(base, words.data(), words.size() * 8));
        return;
    }
    for (const ChainNode& node : chain)
        WS_CU(d.cuMemcpyHtoD(base + node.offset, &node.next, 8));
}

struct ChaseResult {
    double cycles = 0, ns = 0;
};

// One thread follows the chain: `warm` links untimed, then kLinks timed; median of kLatencyRuns.
ChaseResult chase(const DriverApi& d, CUfunction function, CUdeviceptr chain, std::uint32_t warm,
                  const std::vector<ChainNode>& nodes, const std::function<void()>& beforeRun)
{
    DeviceBuffer out(d, 3 * sizeof(std::uint64_t));
    std::vector<double> cycles, ns;
    for (int run = 0; run < kLatencyRuns; ++run) {
        if (beforeRun)
            beforeRun();
        CUdeviceptr chainArg = chain, outArg = out.get();
        std::uint32_t warmArg = warm, linksArg = kLinks;
        void* params[] = {&chainArg, &warmArg, &linksArg, &outArg};
        WS_CU(d.cuLaunchKernel(function, 1, 1, 1, 1, 1, 1, 0, nullptr, params, nullptr));
        WS_CU(d.cuCtxSynchronize());
        std::uint64_t result[3] = {};
        WS_CU(d.cuMemcpyDtoH(result, out.get(), sizeof result));
        if (result[2] != walkChain(nodes, static_cast<std::uint64_t>(warm) + kLinks))
            throw DriverError(CUDA_ERROR_UNKNOWN, "the pointer chase ended at an unexpected node (offset " +
                                                      std::to_string(result[2]) + ")");
        cycles.push_back(static_cast<double>(result[0]) / kLinks);
        ns.push_back(static_cast<double>(result[1]) / kLinks);
    }
    return {median(cycles), median(ns)};
}

// Best of kBandwidthRuns, CUDA events around one launch.
double bestSeconds(const DriverApi& d, const std::function<void()>& launch, const std::function<void()>& beforeRun)
{
    return bestMilliseconds(d, kBandwidthRuns, launch, beforeRun) * 1e-3;
}

std::string mib(std::uint64_t bytes)
{
    return bytes >= (std::uint64_t{1} << 20) ? std::to_string(bytes >> 20) + " MiB" : std::to_string(bytes >> 10) + " KiB";
}

} // namespace

session::HierarchyRecord measureHierarchy(const DriverApi& d, const session::DeviceRecord& device,
                                          const std::function<void()>& flushL2)
{
    session::HierarchyRecord record;
    const Module module(d, memoryLadderPtx());
    const std::uint64_t l2 = std::max<std::uint64_t>(device.l2Bytes, 1 << 20);
    const std::string chaseMethod = "one thread, " + std::to_string(kLinks) +
                                    " dependent loads timed with %clock64 and %globaltimer, median of " +
                                    std::to_string(kLatencyRuns) + " runs";

    // Shared memory: 64 nodes 64 bytes apart in 4 KiB, copied to shared memory, one lap warm.
    {
        const std::uint64_t footprint = 4096;
        const std::vector<ChainNode> nodes = pointerChain(footprint, 64, 11);
        std::vector<std::uint32_t> words(footprint / 4, 0);
        for (const ChainNode& node : nodes)
            words[node.offset / 4] = static_cast<std::uint32_t>(node.next);
        DeviceBuffer chain(d, footprint), out(d, 3 * sizeof(std::uint64_t));
        WS_CU(d.cuMemcpyHtoD(chain.get(), words.data(), footprint));
        const CUfunction f = module.function(kChaseSharedEntry);
        std::vector<double> cycles, ns;
        for (int run = 0; run < kLatencyRuns; ++run) {
            CUdeviceptr chainArg = chain.get(), outArg = out.get();
            std::uint32_t count = static_cast<std::uint32_t>(words.size()), warm = static_cast<std::uint32_t>(nodes.size()),
                          links = kLinks;
            void* params[] = {&chainArg, &count, &warm, &links, &outArg};
            WS_CU(d.cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, nullptr, params, nullptr));
            WS_CU(d.cuCtxSynchronize());
            std::uint64_t result[3] = {};
            WS_CU(d.cuMemcpyDtoH(result, out.get(), sizeof result));
            cycles.push_back(static_cast<double>(result[0]) / kLinks);
            ns.push_back(static_cast<double>(result[1]) / kLinks);
        }
        record.levels.push_back({"shared", median(cycles), median(ns), 0, footprint,
                                 chaseMethod + "; 64 nodes 64 bytes apart in shared memory"});
    }
    // L1 hit: 16 KiB of 128-byte lines through ld.global.ca, one lap warm.
    {
        const std::uint64_t footprint = 16 << 10;
        const std::vector<ChainNode> nodes = pointerChain(footprint, 128, 12);
        DeviceBuffer chain(d, footprint);
        uploadChain(d, chain.get(), footprint, nodes);
        const ChaseResult r = chase(d, module.function(kChaseCaEntry), chain.get(),
                                    static_cast<std::uint32_t>(nodes.size()), nodes, {});
        record.levels.push_back({"l1", r.cycles, r.ns, 0, footprint,
                                 chaseMethod + "; ld.global.ca over " + mib(footprint) + " of 128-byte lines, one lap warm"});
    }
    // L2 hit: 4 MiB (past any L1, inside L2) through ld.global.cg, which does not allocate in L1.
    {
        const std::uint64_t footprint = std::min<std::uint64_t>(4 << 20, l2 / 4);
        const std::vector<ChainNode> nodes = pointerChain(footprint, 128, 13);
        DeviceBuffer chain(d, footprint);
        uploadChain(d, chain.get(), footprint, nodes);
        const ChaseResult r = chase(d, module.function(kChaseCgEntry), chain.get(),
                                    static_cast<std::uint32_t>(nodes.size()), nodes, {});
        record.levels.push_back({"l2", r.cycles, r.ns, 0, footprint,
                                 chaseMethod + "; ld.global.cg over " + mib(footprint) + " of 128-byte lines, one lap warm"});
    }
    // DRAM: 4x L2, L2 flushed, no warm-up; pages visited in order (translations reused), lines at
    // random within each page, each line at most once.
    const std::uint64_t page = 2 << 20;
    {
        const std::uint64_t footprint = (4 * l2 + page - 1) / page * page;
        const std::vector<ChainNode> nodes = pointerChain(footprint, 128, 14, page);
        DeviceBuffer chain(d, footprint);
        uploadChain(d, chain.get(), footprint, nodes);
        const ChaseResult r = chase(d, module.function(kChaseCgEntry), chain.get(), 0, nodes, flushL2);
        record.levels.push_back({"dram", r.cycles, r.ns, 0, footprint,
                                 chaseMethod + "; ld.global.cg over " + mib(footprint) +
                                     " (4x L2), L2 flushed, random 128-byte lines page by page, no line twice"});
    }
    // TLB miss: one line per 2 MiB page, pages in random order over up to 16 GiB (an eighth of
    // memory at most), L2 flushed, no warm-up: each load needs a translation not cached nearby.
    {
        const std::uint64_t footprint =
            std::max<std::uint64_t>(std::min<std::uint64_t>(std::uint64_t{16} << 30, device.totalMemoryBytes / 8) / page, 2) * page;
        const std::vector<ChainNode> nodes = pointerChain(footprint, page, 15);
        DeviceBuffer chain(d, footprint);
        uploadChain(d, chain.get(), footprint, nodes);
        const ChaseResult r = chase(d, module.function(kChaseCgEntry), chain.get(), 0, nodes, flushL2);
        record.levels.push_back({"tlb_miss", r.cycles, r.ns, 0, footprint,
                                 chaseMethod + "; ld.global.cg, one line in each 2 MiB page of " + mib(footprint) +
                                     ", pages in random order, L2 flushed"});
    }
    if (const session::HierarchyLevel& l1 = record.levels[1]; l1.latencyNs > 0)
        record.smClockMHz = l1.latencyCycles / l1.latencyNs * 1000.0;

    // Bandwidth: every SM full (blocks of 256 threads, as many as fit), 16-byte loads.
    const unsigned threads = 256;
    const unsigned blocks = static_cast<unsigned>(device.smCount) *
                            static_cast<unsigned>(std::max(1, device.maxThreadsPerSm / static_cast<int>(threads)));
    DeviceBuffer sums(d, static_cast<std::size_t>(blocks) * threads * sizeof(float));
    const auto readGlobal = [&](CUfunction f, std::uint64_t bytes, std::uint32_t repeats, const std::function<void()>& before) {
        DeviceBuffer data(d, bytes);
        WS_CU(d.cuMemsetD8(data.get(), 0, bytes));
        CUdeviceptr dataArg = data.get(), outArg = sums.get();
        std::uint64_t vectors = bytes / 16;
        std::uint32_t repeatArg = repeats;
        void* params[] = {&dataArg, &vectors, &repeatArg, &outArg};
        const double seconds = bestSeconds(d, [&] {
            WS_CU(d.cuLaunchKernel(f, blocks, 1, 1, threads, 1, 1, 0, nullptr, params, nullptr));
        }, before);
        return static_cast<double>(bytes) * repeats / seconds / 1e9;
    };
    const std::string grid = std::to_string(blocks) + " blocks of " + std::to_string(threads) + " threads, 16-byte loads, best of " +
                             std::to_string(kBandwidthRuns) + " runs timed with CUDA events";
    {
        const std::uint64_t bytes = std::min<std::uint64_t>(std::max<std::uint64_t>(16 * l2, std::uint64_t{1} << 30),
                                                            device.totalMemoryBytes / 8) & ~std::uint64_t{0xFFFF};
        const double gbps = readGlobal(module.function(kReadCgEntry), bytes, 1, flushL2);
        for (session::HierarchyLevel& level : record.levels)
            if (level.level == "dram") {
                level.bandwidthGBps = gbps;
                level.method += "; bandwidth: ld.global.cg reading " + mib(bytes) + " once, L2 flushed, " + grid;
            }
    }
    {
        const std::uint64_t bytes = (l2 / 2) & ~std::uint64_t{0xFFFF};
        const std::uint32_t repeats = 20;
        const double gbps = readGlobal(module.function(kReadCgEntry), bytes, repeats, {});
        for (session::HierarchyLevel& level : record.levels)
            if (level.level == "l2") {
                level.bandwidthGBps = gbps;
                level.method += "; bandwidth: ld.global.cg reading " + mib(bytes) + " (half of L2) " + std::to_string(repeats) +
                                " times, " + grid;
            }
    }
    {
        const std::uint32_t vectors = 1024, repeats = 2000; // 16 KiB per block, read by every block
        DeviceBuffer data(d, vectors * 16);
        WS_CU(d.cuMemsetD8(data.get(), 0, vectors * 16));
        CUdeviceptr dataArg = data.get(), outArg = sums.get();
        std::uint32_t vectorArg = vectors, repeatArg = repeats;
        void* params[] = {&dataArg, &vectorArg, &repeatArg, &outArg};
        const CUfunction f = module.function(kReadL1Entry);
        const double seconds = bestSeconds(d, [&] {
            WS_CU(d.cuLaunchKernel(f, blocks, 1, 1, threads, 1, 1, 0, nullptr, params, nullptr));
        }, {});
        const double gbps = static_cast<double>(blocks) * vectors * 16 * repeats / seconds / 1e9;
        for (session::HierarchyLevel& level : record.levels)
            if (level.level == "l1") {
                level.bandwidthGBps = gbps;
                level.method += "; bandwidth: every block reads the same 16 KiB with ld.global.ca " +
                                std::to_string(repeats) + " times, " + grid;
            }
    }
    {
        const std::uint32_t repeats = 2000;
        CUdeviceptr outArg = sums.get();
        std::uint32_t repeatArg = repeats;
        void* params[] = {&repeatArg, &outArg};
        const CUfunction f = module.function(kReadSharedEntry);
        const double seconds = bestSeconds(d, [&] {
            WS_CU(d.cuLaunchKernel(f, blocks, 1, 1, threads, 1, 1, 0, nullptr, params, nullptr));
        }, {});
        const double gbps = static_cast<double>(blocks) * kSharedReadBytes * repeats / seconds / 1e9;
        for (session::HierarchyLevel& level : record.levels)
            if (level.level == "shared") {
                level.bandwidthGBps = gbps;
                level.method += "; bandwidth: every block reads its 16 KiB of shared memory " + std::to_string(repeats) +
                                " times with ld.shared.v4, " + grid;
            }
    }
    return record;
}

} // namespace warpscope::probe
