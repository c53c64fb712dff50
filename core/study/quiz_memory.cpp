// Questions on memory and throughput: coalescing, shared-memory banks, the reduction ladder, the
// roofline and Tensor Cores. Sectors and wavefronts come from the simulator's own memory analysis
// (the functions whose counts equal the H200's CUPTI counters), peaks from the GPU presets.
#include "study/quiz_bank.h"

#include "gpu/gpu_preset.h"
#include "numerics/number_format.h"
#include "sim/memory_analysis.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

namespace warpscope::study::bank {
namespace {

using std::to_string;

// A full warp: lane i accesses base + (offset + i * stride) * elementBytes.
std::vector<sim::LaneAccess> warpAccess(std::uint64_t base, std::int64_t offsetElements, std::int64_t strideElements, std::uint32_t elementBytes)
{
    std::vector<sim::LaneAccess> accesses;
    for (std::uint32_t lane = 0; lane < 32; ++lane)
        accesses.push_back({base + static_cast<std::uint64_t>((offsetElements + lane * strideElements) * elementBytes), lane});
    return accesses;
}

// --- coalescing -------------------------------------------------------------------------------

QuizItem strideSectors(QuizRng& rng)
{
    const int stride = rng.pick(std::vector<int>{1, 2, 3, 4, 8, 16, 32, 64});
    const sim::GlobalAccessCost cost = sim::analyzeGlobalAccess(warpAccess(0x10000, 0, stride, 4), 4);
    QuizItem item;
    item.prompt = "Thread i of a full warp loads in[i * " + to_string(stride) + "] (4-byte floats, in[] aligned to 128 bytes). "
                  "Predict how many 32-byte sectors the warp's load touches.";
    setNumber(item, cost.sectors, 0, "sectors");
    item.explanation = "The lanes span " + to_string(31 * stride * 4 + 4) + " bytes; the distinct 32-byte sectors holding their bytes number " +
                       to_string(cost.sectors) + ", so " + to_string(cost.bytesMoved) + " bytes are moved for " + to_string(cost.bytesRequested) +
                       " requested.";
    if (stride == 2)
        item.figureLink = "warpscope:memory?kernel=copy_strided&block=0&warp=0&at=14";
    item.source = "sim::analyzeGlobalAccess (equals l1tex__t_sectors_pipe_lsu_mem_global_op_ld on the H200)";
    return item;
}

QuizItem offsetSectors(QuizRng& rng)
{
    const int offset = rng.uniform(0, 31);
    const sim::GlobalAccessCost cost = sim::analyzeGlobalAccess(warpAccess(0x10000, offset, 1, 4), 4);
    QuizItem item;
    item.prompt = "Thread i of a full warp loads in[i + " + to_string(offset) + "] (4-byte floats, in[] aligned to 128 bytes). "
                  "Predict how many 32-byte sectors the load touches.";
    setNumber(item, cost.sectors, 0, "sectors");
    item.explanation = "128 contiguous bytes starting " + to_string(offset * 4) + " bytes into a sector-aligned block: " +
                       (offset % 8 == 0 ? std::string("aligned to a sector, so 4") : "they straddle one more sector, so 5") + ".";
    if (offset == 1)
        item.figureLink = "warpscope:memory?kernel=copy_offset&block=0&warp=0&at=14";
    item.source = "sim::analyzeGlobalAccess";
    return item;
}

QuizItem loadEfficiency(QuizRng& rng)
{
    const int stride = rng.pick(std::vector<int>{2, 3, 4, 8, 16});
    const sim::GlobalAccessCost cost = sim::analyzeGlobalAccess(warpAccess(0x10000, 0, stride, 4), 4);
    const double share = static_cast<double>(cost.bytesRequested) / static_cast<double>(cost.bytesMoved);
    QuizItem item;
    item.prompt = "A warp loads in[i * " + to_string(stride) + "] (4-byte floats). What share of the bytes moved from memory does it use?";
    setNumber(item, share * 100, 0.05, "%");
    item.explanation = to_string(cost.bytesRequested) + " bytes requested / (" + to_string(cost.sectors) + " sectors x 32 bytes) = " + percent(share) + ".";
    item.source = "sim::analyzeGlobalAccess";
    return item;
}

QuizItem wideLoads(QuizRng& rng)
{
    const std::uint32_t width = static_cast<std::uint32_t>(rng.pick(std::vector<int>{8, 16}));
    const sim::GlobalAccessCost cost = sim::analyzeGlobalAccess(warpAccess(0x10000, 0, 1, width), width);
    QuizItem item;
    item.prompt = std::string("A full warp loads contiguous ") + (width == 16 ? "float4 (16-byte)" : "double (8-byte)") +
                  " elements, one per lane, aligned. How many 32-byte sectors does the instruction touch?";
    setNumber(item, cost.sectors, 0, "sectors");
    item.explanation = "32 lanes x " + to_string(width) + " bytes = " + to_string(32 * width) + " bytes = " + to_string(cost.sectors) +
                       " sectors, all used: wider loads move more bytes per instruction, which helps keep bytes in flight.";
    item.source = "sim::analyzeGlobalAccess";
    return item;
}

QuizItem sectorSize(QuizRng& rng)
{
    QuizItem item;
    item.prompt = "What is the unit in which L1 and L2 move global memory on NVIDIA GPUs since Volta?";
    setChoices(item, rng, "A 32-byte sector (four sectors make a 128-byte cache line)",
               {"A 128-byte line, always whole", "A 4-byte word per lane", "A 4 KB page"});
    item.explanation = "Requests are counted in 32-byte sectors; Nsight Compute's l1tex__t_sectors and lts__t_sectors count them.";
    item.source = "CUDA C++ Best Practices Guide, Coalesced Access to Global Memory; Nsight Compute Kernel Profiling Guide";
    return item;
}

QuizItem copyTime(QuizRng& rng)
{
    const gpu::GpuPreset preset = randomPreset(rng);
    const int mib = rng.pick(std::vector<int>{64, 256, 512, 1024});
    const double bytes = 2.0 * mib * 1048576.0; // read once, write once
    const double micros = bytes / gpu::peakDramBytesPerSecond(preset) * 1e6;
    QuizItem item;
    item.prompt = "A kernel copies " + to_string(mib) + " MiB from one array to another on " + presetLabel(preset) + " (" +
                  formatNumber(preset.timing.dramBandwidthGBps) + " GB/s peak). At best, how many microseconds does it take?";
    setNumber(item, micros, micros * 0.02, "us");
    item.explanation = "It reads and writes " + to_string(mib) + " MiB each: " + formatNumber(bytes, 4) + " bytes / " +
                       formatNumber(preset.timing.dramBandwidthGBps) + "e9 B/s = " + formatNumber(micros, 4) +
                       " us. Real copies reach about 90 % of the peak.";
    item.source = "gpu::peakDramBytesPerSecond (datasheet bandwidth)";
    return item;
}

// --- shared memory ----------------------------------------------------------------------------

QuizItem bankOf(QuizRng& rng)
{
    const std::uint64_t address = static_cast<std::uint64_t>(rng.uniform(0, 4095)) * 4;
    QuizItem item;
    item.prompt = "Which of the 32 shared-memory banks holds the 4-byte word at byte offset " + to_string(address) + "?";
    setNumber(item, static_cast<double>((address / 4) % 32), 0, "");
    item.explanation = "Bank = (byte offset / 4) mod 32 = " + to_string(address / 4) + " mod 32 = " + to_string((address / 4) % 32) + ".";
    item.source = "CUDA C++ Programming Guide, Shared Memory (compute capability 5.x and later)";
    return item;
}

QuizItem strideWavefronts(QuizRng& rng)
{
    const int stride = rng.uniform(1, 33);
    const sim::SharedAccessCost cost = sim::analyzeSharedAccess(warpAccess(0, 0, stride, 4), 4);
    QuizItem item;
    item.prompt = "Lane i of a full warp reads the 4-byte word s[i * " + to_string(stride) + "] of a __shared__ float array. "
                  "Predict the wavefronts (passes) the access needs.";
    setNumber(item, cost.wavefronts, 0, "wavefronts");
    item.explanation = "Word i x " + to_string(stride) + " is in bank (i x " + to_string(stride) + ") mod 32. gcd(" + to_string(stride) +
                       ", 32) = " + to_string(std::gcd(stride, 32)) + " lanes share each bank used, so " + to_string(cost.wavefronts) +
                       " wavefronts (" + to_string(cost.bankConflicts) + " bank conflicts).";
    if (stride == 32)
        item.figureLink = "warpscope:memory?kernel=transpose_tiled&block=0&warp=0&at=65";
    item.source = "sim::analyzeSharedAccess (equals the H200's l1tex__data_pipe_lsu_wavefronts_mem_shared)";
    return item;
}

QuizItem paddedColumn(QuizRng& rng)
{
    const int width = rng.pick(std::vector<int>{32, 33, 34, 36, 40, 48, 64});
    const sim::SharedAccessCost cost = sim::analyzeSharedAccess(warpAccess(0, 0, width, 4), 4);
    QuizItem item;
    item.prompt = "A tile is declared __shared__ float tile[32][" + to_string(width) + "]. Lane i reads tile[i][0] (a column). "
                  "How many wavefronts does the read need?";
    setNumber(item, cost.wavefronts, 0, "wavefronts");
    item.explanation = "Rows are " + to_string(width) + " words apart, so lane i hits bank (i x " + to_string(width) + ") mod 32: " +
                       to_string(cost.wavefronts) + (width == 33 ? " (the padding column shifts each row by one bank)." : ".");
    item.figureLink = width == 33 ? "warpscope:memory?kernel=transpose_padded&block=0&warp=0&at=63"
                                  : width == 32 ? "warpscope:memory?kernel=transpose_tiled&block=0&warp=0&at=65" : "";
    item.source = "sim::analyzeSharedAccess";
    return item;
}

QuizItem broadcast(QuizRng& rng)
{
    const int distinct = rng.pick(std::vector<int>{1, 2, 4});
    std::vector<sim::LaneAccess> accesses;
    for (std::uint32_t lane = 0; lane < 32; ++lane) // `distinct` words, all in bank 0
        accesses.push_back({static_cast<std::uint64_t>(lane % static_cast<std::uint32_t>(distinct)) * 128, lane});
    const sim::SharedAccessCost cost = sim::analyzeSharedAccess(accesses, 4);
    QuizItem item;
    item.prompt = "All 32 lanes read shared-memory words in bank 0, but only " + to_string(distinct) + " distinct word" +
                  (distinct == 1 ? "" : "s") + " (lane i reads word (i mod " + to_string(distinct) + ") x 32). How many wavefronts?";
    setNumber(item, cost.wavefronts, 0, "wavefronts");
    item.explanation = "Lanes reading the same word share it (a broadcast); only distinct words in one bank serialise: " +
                       to_string(cost.wavefronts) + ".";
    item.source = "sim::analyzeSharedAccess";
    return item;
}

QuizItem doubleStride(QuizRng& rng)
{
    const int stride = rng.pick(std::vector<int>{1, 2, 4, 16});
    const sim::SharedAccessCost cost = sim::analyzeSharedAccess(warpAccess(0, 0, stride, 8), 8);
    QuizItem item;
    item.prompt = "Lane i of a full warp reads the double s[i * " + to_string(stride) + "] from shared memory. How many wavefronts?";
    setNumber(item, cost.wavefronts, 0, "wavefronts");
    item.explanation = "8-byte accesses are served a half-warp at a time (" + to_string(cost.phases) + " phases); within each, the most "
                       "distinct words in one bank sets the passes: " + to_string(cost.wavefronts) + " in all.";
    item.source = "sim::analyzeSharedAccess";
    return item;
}

QuizItem paddingWhy(QuizRng& rng)
{
    QuizItem item;
    item.prompt = "Why does a tiled transpose declare its tile [32][33] instead of [32][32]?";
    setChoices(item, rng, "So that a column's 32 words fall in 32 different banks: the read takes 1 wavefront instead of 32",
               {"To align each row to 128 bytes", "To leave room for the block's index variables", "Because 33 threads make a warp on Hopper"});
    item.explanation = "With 32 words per row every element of a column is in the same bank; one extra word per row shifts each row by a bank.";
    item.figureLink = "warpscope:memory?kernel=transpose_padded&block=0&warp=0&at=63";
    item.source = "sim::analyzeSharedAccess on transpose_tiled and transpose_padded";
    return item;
}

// --- reduction --------------------------------------------------------------------------------

QuizItem treeSteps(QuizRng& rng)
{
    const int threads = rng.pick(std::vector<int>{64, 128, 256, 512, 1024});
    QuizItem item;
    item.prompt = "A block of " + to_string(threads) + " threads sums " + to_string(threads) +
                  " values in shared memory by halving the active threads each step. How many steps (and barriers) until one value is left?";
    setNumber(item, std::bit_width(static_cast<unsigned>(threads)) - 1, 0, "steps");
    item.explanation = "log2(" + to_string(threads) + ") = " + to_string(std::bit_width(static_cast<unsigned>(threads)) - 1) + " halvings.";
    item.figureLink = "warpscope:step?kernel=reduce_interleaved_bank_conflicts&block=0&warp=0&at=0";
    item.source = "the tree reduction";
    return item;
}

QuizItem interleavedWavefronts(QuizRng& rng)
{
    const int s = rng.pick(std::vector<int>{1, 2, 4, 8, 16});
    const sim::SharedAccessCost cost = sim::analyzeSharedAccess(warpAccess(0, 0, 2 * s, 4), 4);
    QuizItem item;
    item.prompt = "The interleaved reduction has thread t read sdata[2 * s * t] at step s. With s = " + to_string(s) +
                  ", how many wavefronts does warp 0's read need?";
    setNumber(item, cost.wavefronts, 0, "wavefronts");
    item.explanation = "Lanes are " + to_string(2 * s) + " words apart: " + to_string(std::min(32, 2 * s)) + " lanes per bank used, so " +
                       to_string(cost.wavefronts) + " wavefronts. Sequential addressing (sdata[t + s]) keeps them at 1.";
    item.figureLink = "warpscope:step?kernel=reduce_interleaved_bank_conflicts&block=0&warp=0&at=0";
    item.source = "sim::analyzeSharedAccess";
    return item;
}

QuizItem activeWarps(QuizRng& rng)
{
    const int threads = rng.pick(std::vector<int>{256, 512, 1024});
    const int s = threads >> rng.uniform(1, 6);
    QuizItem item;
    item.prompt = "In a sequential-addressing reduction over " + to_string(threads) + " threads, threads t < s add sdata[t + s]. "
                  "At s = " + to_string(s) + ", how many warps still have an active lane?";
    const int warps = (s + 31) / 32;
    setNumber(item, warps, 0, "warps");
    item.explanation = "Threads 0.." + to_string(s - 1) + " are active: ceil(" + to_string(s) + " / 32) = " + to_string(warps) +
                       " warps. Whole warps retire, so there is no divergence until s < 32.";
    item.source = "the tree reduction with sequential addressing";
    return item;
}

QuizItem shuffleSteps(QuizRng& rng)
{
    const int width = rng.pick(std::vector<int>{32, 16, 8});
    QuizItem item;
    item.prompt = "A warp sums one value per lane over groups of " + to_string(width) +
                  " lanes with __shfl_down_sync, halving the offset each time. How many shuffles does each lane do?";
    setNumber(item, std::bit_width(static_cast<unsigned>(width)) - 1, 0, "shuffles");
    item.explanation = "Offsets " + to_string(width / 2) + ", ..., 1: log2(" + to_string(width) + ") shuffles, no shared memory and no barrier.";
    item.source = "CUDA C++ Programming Guide, Warp Shuffle Functions";
    return item;
}

QuizItem firstAdd(QuizRng& rng)
{
    QuizItem item;
    item.prompt = "Why does a fast reduction have each thread add several elements while loading, before the shared-memory tree?";
    setChoices(item, rng, "Half the threads would otherwise idle in the first step; adding during the load does more work per thread and "
               "keeps more loads in flight",
               {"Shared memory cannot hold one element per thread", "It removes every bank conflict", "The GPU forbids more than 256 blocks"});
    item.explanation = "It cuts the blocks and the tree steps, and independent loads per thread hide DRAM latency.";
    item.figureLink = "warpscope:step?kernel=reduce_interleaved_bank_conflicts&block=0&warp=0&at=0";
    item.source = "Harris, Optimizing Parallel Reduction in CUDA (NVIDIA)";
    return item;
}

// --- roofline ---------------------------------------------------------------------------------

QuizItem ridgePoint(QuizRng& rng)
{
    const gpu::GpuPreset preset = randomPreset(rng);
    const double ridge = gpu::peakFp32FlopsPerSecond(preset) / gpu::peakDramBytesPerSecond(preset);
    QuizItem item;
    item.prompt = presetLabel(preset) + " peaks at " + formatNumber(gpu::peakFp32FlopsPerSecond(preset) / 1e12, 4) + " FP32 TFLOP/s and " +
                  formatNumber(preset.timing.dramBandwidthGBps) + " GB/s. At what arithmetic intensity (FLOP per DRAM byte) is the ridge point?";
    setNumber(item, ridge, ridge * 0.02, "FLOP/byte");
    item.explanation = "Peak FLOP/s / peak bytes/s = " + formatNumber(ridge, 4) +
                       ". Kernels below it are memory-bound, above it compute-bound.";
    item.source = "gpu::peakFp32FlopsPerSecond (SMs x FP32 lanes x 2 x boost clock) and the datasheet bandwidth";
    return item;
}

QuizItem elementwiseIntensity(QuizRng& rng)
{
    const int form = rng.uniform(0, 2);
    const char* names[] = {"c[i] = a[i] + b[i]", "y[i] = alpha * x[i] + y[i]", "y[i] = alpha * x[i] + beta * y[i]"};
    const double flops[] = {1, 2, 3};
    const double bytes = 12;
    QuizItem item;
    item.prompt = std::string("An FP32 kernel computes ") + names[form] + ", every array read or written once from DRAM. What is its arithmetic intensity in FLOP/byte?";
    setNumber(item, flops[form] / bytes, flops[form] / bytes * 0.02, "FLOP/byte");
    item.explanation = formatNumber(flops[form]) + " FLOP per element over 12 bytes (two 4-byte reads and one 4-byte write) = " +
                       formatNumber(flops[form] / bytes, 3) + ": far left of every ridge point, so memory-bound.";
    item.source = "arithmetic intensity = FLOPs / DRAM bytes (Williams, Waterman and Patterson, Roofline, CACM 2009)";
    return item;
}

QuizItem attainable(QuizRng& rng)
{
    const gpu::GpuPreset preset = randomPreset(rng);
    const double intensity = rng.pick(std::vector<double>{0.25, 0.5, 1, 2, 4, 8, 16, 32, 64, 128});
    const double peak = gpu::peakFp32FlopsPerSecond(preset);
    const double roof = std::min(peak, intensity * gpu::peakDramBytesPerSecond(preset));
    QuizItem item;
    item.prompt = "On " + presetLabel(preset) + " (" + formatNumber(peak / 1e12, 4) + " FP32 TFLOP/s, " + formatNumber(preset.timing.dramBandwidthGBps) +
                  " GB/s), predict the roofline's bound for a kernel of " + formatNumber(intensity) + " FLOP/byte, in GFLOP/s.";
    setNumber(item, roof / 1e9, roof / 1e9 * 0.02, "GFLOP/s");
    item.explanation = "min(peak, intensity x bandwidth) = min(" + formatNumber(peak / 1e9, 5) + ", " + formatNumber(intensity) + " x " +
                       formatNumber(preset.timing.dramBandwidthGBps) + ") = " + formatNumber(roof / 1e9, 5) + " GFLOP/s.";
    item.source = "the roofline model with gpu::peakFp32FlopsPerSecond";
    return item;
}

QuizItem boundKind(QuizRng& rng)
{
    const gpu::GpuPreset preset = randomPreset(rng);
    const double intensity = rng.pick(std::vector<double>{0.1, 1, 4, 30, 80, 200});
    const double ridge = gpu::peakFp32FlopsPerSecond(preset) / gpu::peakDramBytesPerSecond(preset);
    QuizItem item;
    item.prompt = "A kernel does " + formatNumber(intensity) + " FP32 FLOP per DRAM byte on " + presetLabel(preset) + ". What bounds it on the roofline?";
    const std::string memory = "DRAM bandwidth (memory-bound)", compute = "FP32 throughput (compute-bound)";
    setChoices(item, rng, intensity < ridge ? memory : compute, {intensity < ridge ? compute : memory, "The launch overhead", "Occupancy"});
    item.explanation = "The ridge point is " + formatNumber(ridge, 3) + " FLOP/byte; " + formatNumber(intensity) + " is " +
                       (intensity < ridge ? "left of it." : "right of it.");
    item.source = "gpu::peakFp32FlopsPerSecond / gpu::peakDramBytesPerSecond";
    return item;
}

QuizItem matmulIntensity(QuizRng& rng)
{
    const int n = rng.pick(std::vector<int>{256, 512, 1024, 2048, 4096});
    const double flops = 2.0 * n * n * n, bytes = 3.0 * 4 * n * n;
    QuizItem item;
    item.prompt = "C = A x B with " + to_string(n) + " x " + to_string(n) + " FP32 matrices. If each matrix crossed DRAM only once, what would the arithmetic intensity be?";
    setNumber(item, flops / bytes, flops / bytes * 0.01, "FLOP/byte");
    item.explanation = "2n^3 FLOPs / (3 x 4n^2 bytes) = n / 6 = " + formatNumber(flops / bytes, 4) +
                       ": the algorithm allows compute-bound speed; tiling is what gets close to moving each byte once.";
    item.source = "FLOP count of GEMM (2 m n k)";
    return item;
}

// --- tensor cores -----------------------------------------------------------------------------

QuizItem attentionTraffic(QuizRng& rng)
{
    const int n = rng.pick(std::vector<int>{1024, 2048, 4096, 8192});
    const int heads = rng.pick(std::vector<int>{1, 8, 16, 32});
    // S written, S read, P written, P read: four trips of n^2 FP32 values per head.
    const double bytes = 4.0 * 4.0 * n * static_cast<double>(n) * heads;
    QuizItem item;
    item.prompt = "Unfused attention over " + std::to_string(heads) + " head" + (heads > 1 ? "s" : "") + " of " + std::to_string(n) +
                  " tokens writes the FP32 score matrix S to global memory, reads it back for softmax, writes P and reads P back "
                  "for P V. How many MB (10^6 bytes) of that n x n traffic does a fused kernel such as FlashAttention avoid?";
    setNumber(item, bytes / 1e6, bytes / 1e6 * 0.01, "MB");
    item.explanation = "Each matrix is n^2 x 4 bytes per head, and it crosses DRAM four times: 16 x " + std::to_string(n) + "^2 x " +
                       std::to_string(heads) + " = " + formatNumber(bytes / 1e6, 5) +
                       " MB. The fused kernel keeps each tile of scores in registers and writes only O.";
    item.source = "the attention demo kernels (kernels/attention); Dao et al., FlashAttention, NeurIPS 2022";
    item.lessonLink = "warpscope:lesson?id=flash-attention";
    item.figureLink = "warpscope:memory?kernel=attention_softmax&block=0&warp=0&at=155";
    return item;
}

QuizItem onlineRescale(QuizRng& rng)
{
    // A running maximum that rises by a whole number of units, so the factor is exact: 2^-rise.
    const int oldMax = rng.uniform(0, 4);
    const int rise = rng.uniform(1, 4);
    const double factor = std::exp2(-static_cast<double>(rise));
    QuizItem item;
    item.prompt = "An online softmax in base 2 has seen scores up to m = " + std::to_string(oldMax) + " so far. The next tile's largest score is " +
                  std::to_string(oldMax + rise) + ". By what factor must the running sum l be multiplied before the tile's terms are added?";
    setNumber(item, factor, 0, "");
    item.explanation = "Every earlier term 2^(s - m) must become 2^(s - m'), so l is multiplied by 2^(m - m') = 2^-" + std::to_string(rise) +
                       " = " + formatNumber(factor) + "; the outputs o are rescaled by the same factor.";
    item.source = "Milakov and Gimelshein, Online normalizer calculation for softmax, 2018; kernels/attention/attention.cu (attention_fused)";
    item.lessonLink = "warpscope:lesson?id=flash-attention";
    item.figureLink = "warpscope:step?kernel=attention_fused&block=0&warp=0&at=4290";
    return item;
}

QuizItem mixedPrecisionSpeedup(QuizRng& rng)
{
    // Amdahl's law: matrix multiplies 8x faster (V100: 125 FP16 Tensor against 15.7 FP32 TFLOP/s,
    // rounded), the memory-bound rest 2x (half the bytes).
    const int matmulPercent = 10 * rng.uniform(2, 8);
    const double f = matmulPercent / 100.0;
    const double speedup = 1.0 / (f / 8.0 + (1.0 - f) / 2.0);
    QuizItem item;
    item.prompt = "In FP32, " + std::to_string(matmulPercent) + " % of a training step's time is matrix multiplies and the rest is "
                  "memory-bound layers. Mixed precision makes the multiplies 8 times faster (Tensor Cores) and the rest 2 times faster "
                  "(half the bytes). How many times faster is the whole step?";
    setNumber(item, speedup, speedup * 0.01, "");
    item.explanation = "Amdahl's law: 1 / (" + formatNumber(f) + " / 8 + " + formatNumber(1.0 - f) + " / 2) = " + formatNumber(speedup, 3) +
                       ". The memory-bound share caps the gain, which is why quoted speedups are 2 to 3 times, not 8.";
    item.source = "Amdahl's law; NVIDIA V100 datasheet (15.7 FP32, 125 Tensor TFLOP/s)";
    item.lessonLink = "warpscope:lesson?id=tensor-cores";
    return item;
}

QuizItem sparsitySpeedup(QuizRng& rng)
{
    const int matmulPercent = 10 * rng.uniform(3, 9);
    const double f = matmulPercent / 100.0;
    const double speedup = 1.0 / (f / 2.0 + (1.0 - f));
    QuizItem item;
    item.prompt = std::to_string(matmulPercent) + " % of a network's inference time is matrix multiplies with 2:4-sparse weights. Sparse "
                  "Tensor Cores double those multiplies and nothing else. How many times faster is the whole network?";
    setNumber(item, speedup, speedup * 0.01, "");
    item.explanation = "1 / (" + formatNumber(f) + " / 2 + " + formatNumber(1.0 - f) + ") = " + formatNumber(speedup, 3) +
                       ": the datasheets' 2x applies to the multiply only.";
    item.source = "Amdahl's law; Mishra et al., Accelerating Sparse Deep Neural Networks, 2021";
    item.lessonLink = "warpscope:lesson?id=tensor-cores";
    item.figureLink = "warpscope:sparsity?layer=1";
    return item;
}

QuizItem wmmaFmas(QuizRng& rng)
{
    struct Shape { int m, n, k; const char* type; };
    const Shape shape = rng.pick(std::vector<Shape>{{16, 16, 16, "f16"}, {32, 8, 16, "f16"}, {8, 32, 16, "f16"}, {16, 16, 8, "tf32"}, {8, 8, 4, "f64"}});
    QuizItem item;
    item.prompt = std::string("One warp-wide wmma::mma_sync of shape m") + to_string(shape.m) + "n" + to_string(shape.n) + "k" + to_string(shape.k) +
                  " (" + shape.type + " inputs): how many multiply-adds does it perform?";
    const double fmas = static_cast<double>(shape.m) * shape.n * shape.k;
    setNumber(item, fmas, 0, "FMAs");
    item.explanation = "m x n x k = " + formatNumber(fmas) + ": each of the m x n outputs adds k products, " + formatNumber(2 * fmas) +
                       " FLOPs for one instruction of the warp.";
    item.source = "CUDA C++ Programming Guide, Warp Matrix Functions (element types and matrix sizes)";
    return item;
}

QuizItem tensorFormats(QuizRng& rng)
{
    QuizItem item;
    item.prompt = "Which input formats do H100's Tensor Cores multiply?";
    setChoices(item, rng, "FP64, TF32, FP16, BF16, FP8 (E4M3 and E5M2) and INT8",
               {"Only FP16", "FP32 and FP64 only", "FP16 and INT4 only"});
    item.explanation = "Narrower inputs mean more multiply-adds per cycle and fewer bytes per operand, which is why training "
                       "feeds them FP16, BF16, TF32 or FP8 and accumulates in wider formats.";
    item.source = "NVIDIA H100 Tensor Core GPU Architecture whitepaper";
    return item;
}

QuizItem tf32Bits(QuizRng& rng)
{
    const numerics::Format format = rng.pick(std::vector<numerics::Format>{numerics::Format::TF32, numerics::Format::BF16, numerics::Format::FP16});
    const numerics::FormatInfo& info = numerics::formatInfo(format);
    QuizItem item;
    item.prompt = "How many explicit mantissa (fraction) bits does " + std::string(info.name) + " have?";
    setNumber(item, info.mantissaBits, 0, "bits");
    item.explanation = std::string(info.name) + ": 1 sign, " + to_string(info.exponentBits) + " exponent and " + to_string(info.mantissaBits) +
                       " mantissa bits" + (format == numerics::Format::TF32 ? "; Tensor Cores read the top 10 of an FP32's 23." : ".");
    item.figureLink = "warpscope:formats?format=" + std::string(info.key) + "&value=1";
    item.source = "numerics::formatInfo (" + std::string(info.source) + ")";
    return item;
}

QuizItem fragmentConflicts(QuizRng& rng)
{
    // The simulator splits a fragment load into one shared request per register (core/sim/exec_tensor.cpp).
    const int registers = rng.pick(std::vector<int>{2, 4, 8});
    const int wavefronts = rng.uniform(1, 4);
    QuizItem item;
    item.prompt = "A warp's fragment load reads " + to_string(registers) + " registers per lane from shared memory, one request per register, "
                  "and each request takes " + to_string(wavefronts) + " wavefront" + (wavefronts > 1 ? "s" : "") +
                  ". How many bank conflicts does the simulator count for the whole instruction?";
    setNumber(item, registers * (wavefronts - 1.0), 0, "conflicts");
    item.explanation = "Conflicts are wavefronts - 1 per request: " + to_string(registers) + " x (" + to_string(wavefronts) + " - 1) = " +
                       to_string(registers * (wavefronts - 1)) + ", in " + to_string(registers * wavefronts) +
                       " wavefronts: not the instruction's wavefronts - 1.";
    item.source = "the simulator's shared-memory analysis per request (core/sim/memory_analysis.h); matmul_wmma's wmma.load.a: 16 wavefronts, 8 conflicts";
    item.lessonLink = "warpscope:lesson?id=tensor-cores";
    item.figureLink = "warpscope:step?kernel=matmul_wmma&block=0&warp=0&at=197";
    return item;
}

} // namespace

void addMemoryQuestions(std::vector<Question>& bank)
{
    using K = QuestionKind;
    const std::vector<Question> questions = {
        {"coalescing.stride-sectors", "coalescing", K::Predict, "Sectors of a strided warp load", true, strideSectors},
        {"coalescing.offset-sectors", "coalescing", K::Predict, "Sectors of a misaligned warp load", true, offsetSectors},
        {"coalescing.efficiency", "coalescing", K::Numeric, "Bytes used of bytes moved", true, loadEfficiency},
        {"coalescing.wide-loads", "coalescing", K::Numeric, "Sectors of a vector load", true, wideLoads},
        {"coalescing.sector", "coalescing", K::Choice, "The unit of memory traffic", false, sectorSize},
        {"coalescing.copy-time", "coalescing", K::Numeric, "The fastest possible copy", true, copyTime},
        {"shared-memory.bank", "shared-memory", K::Numeric, "The bank of an address", true, bankOf},
        {"shared-memory.stride", "shared-memory", K::Predict, "Wavefronts of a strided shared read", true, strideWavefronts},
        {"shared-memory.padding", "shared-memory", K::Numeric, "Reading a column of a padded tile", true, paddedColumn},
        {"shared-memory.broadcast", "shared-memory", K::Numeric, "Broadcast within a bank", true, broadcast},
        {"shared-memory.doubles", "shared-memory", K::Numeric, "Wavefronts of 8-byte shared reads", true, doubleStride},
        {"shared-memory.why-pad", "shared-memory", K::Choice, "Why tiles are padded", false, paddingWhy},
        {"reduction.steps", "reduction", K::Numeric, "Steps of a tree reduction", true, treeSteps},
        {"reduction.interleaved", "reduction", K::Predict, "Bank conflicts of interleaved addressing", true, interleavedWavefronts},
        {"reduction.active-warps", "reduction", K::Numeric, "Active warps in sequential addressing", true, activeWarps},
        {"reduction.shuffles", "reduction", K::Numeric, "Shuffles of a warp reduction", true, shuffleSteps},
        {"reduction.first-add", "reduction", K::Choice, "Adding during the load", false, firstAdd},
        {"roofline.ridge", "roofline", K::Numeric, "The ridge point of a GPU", true, ridgePoint},
        {"roofline.elementwise", "roofline", K::Numeric, "Intensity of an element-wise kernel", true, elementwiseIntensity},
        {"roofline.attainable", "roofline", K::Predict, "The roofline's bound", true, attainable},
        {"roofline.bound", "roofline", K::Choice, "Memory- or compute-bound", true, boundKind},
        {"roofline.matmul", "roofline", K::Numeric, "Intensity of matrix multiply", true, matmulIntensity},
        {"fusion.attention-traffic", "fusion", K::Numeric, "The n x n traffic fusion removes", true, attentionTraffic},
        {"fusion.online-softmax", "fusion", K::Numeric, "The online softmax's rescale", true, onlineRescale},
        {"tensor-cores.wmma-fmas", "tensor-cores", K::Numeric, "Multiply-adds of one mma", true, wmmaFmas},
        {"tensor-cores.formats", "tensor-cores", K::Choice, "What Tensor Cores multiply", false, tensorFormats},
        {"tensor-cores.mantissa", "tensor-cores", K::Numeric, "Mantissa bits of the Tensor Core formats", true, tf32Bits},
        {"tensor-cores.mixed-speedup", "tensor-cores", K::Numeric, "Where 2 to 3 times comes from", true, mixedPrecisionSpeedup},
        {"tensor-cores.sparsity-speedup", "tensor-cores", K::Numeric, "What 2:4 sparsity gives a network", true, sparsitySpeedup},
        {"tensor-cores.fragment-conflicts", "tensor-cores", K::Numeric, "Bank conflicts of a fragment load", true, fragmentConflicts},
    };
    bank.insert(bank.end(), questions.begin(), questions.end());
}

} // namespace warpscope::study::bank
