#include "probe_options.h"

#include "kernel_target.h"
#include "util/input_error.h"
#include "util/parse.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <string>
#include <string_view>

namespace warpscope::probe {

std::string probeUsage()
{
    return "usage: warpscope-probe --devices [--json]\n"
           "       warpscope-probe [options] TARGET...\n"
           "Runs kernels on an NVIDIA GPU under CUPTI and writes a warpscope session (JSON Lines) to stdout.\n"
           "TARGET: a demo kernel id, ladder:NAME (every rung of a demo ladder), FILE.cu or FILE.ptx\n"
           "options:\n"
           "  --device N          GPU ordinal (default 0)\n"
           "  --metrics SET       headline (default), full, or metric names separated by commas\n"
           "  --runs N            timed runs per kernel, 1..1000 (default 5)\n"
           "  --out FILE          write the session to FILE instead of stdout\n"
           "  --no-ceilings       skip measuring copy bandwidth and FMA throughput\n"
           "  --no-counters       Activity timings only (no hardware counters)\n"
           "  --no-hierarchy      skip the memory ladder (pointer-chase latency and bandwidth per level)\n"
           "  --size gpu|sim      a demo kernel's launch: sized to fill a GPU (default) or the simulator's size\n"
           "  --cache-control all|none\n"
           "                      all (default): flush L2 before every timed run and replay pass, as ncu does;\n"
           "                      none: keep what the upload left in the caches (warm)\n"
           "  --sample-blocks N   blocks the prediction simulates, counts scaled to the grid (N >= 2);\n"
           "                      0 (default): every block up to 256, else a sample of 16 to 256\n"
           "                      blocks, as many as simulate in about 20 s on this machine\n"
           "  --cooperative       launch with cuLaunchCooperativeKernel (kernels that call cooperative groups'\n"
           "                      grid.sync()): every block resident at once; the prediction simulates every block\n"
           "  --kernel NAME       the kernel in FILE.cu / FILE.ptx\n"
           "  --compute compute_XX\n"
           "                      FILE.cu: the virtual architecture NVRTC compiles for, compute_75 (default) ..\n"
           "                      compute_90; the device must be at least as new\n"
           "  --grid X[,Y[,Z]]  --block X[,Y[,Z]]  --smem BYTES  --arg SPEC (repeatable): as in 'warpscope sim'\n"
           "exit codes: 0 ok, 1 a kernel failed or mismatched its reference, 2 bad input, 3 no usable GPU, 4 cancelled\n";
}

ProbeOptions parseProbeOptions(int argc, char** argv)
{
    ProbeOptions options;
    auto value = [&](int& i, std::string_view flag) -> std::string {
        if (i + 1 >= argc)
            throw InputError(std::string(flag) + " needs a value (see warpscope-probe --help)");
        return argv[++i];
    };
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg(argv[i]);
        if (arg == "--help" || arg == "-h") options.help = true;
        else if (arg == "--version") options.version = true;
        else if (arg == "--devices") options.listDevices = true;
        else if (arg == "--json") options.json = true;
        else if (arg == "--device") options.device = static_cast<int>(parseInteger(value(i, arg), "--device", 0, 255));
        else if (arg == "--metrics") options.metrics = value(i, arg);
        else if (arg == "--runs") options.runs = static_cast<int>(parseInteger(value(i, arg), "--runs", 1, 1000));
        else if (arg == "--out") options.out = value(i, arg);
        else if (arg == "--no-ceilings") options.ceilings = false;
        else if (arg == "--no-counters") options.counters = false;
        else if (arg == "--no-hierarchy") options.hierarchy = false;
        else if (arg == "--size") {
            options.size = value(i, arg);
            if (options.size != "gpu" && options.size != "sim")
                throw InputError("--size '" + options.size + "': allowed are gpu (a launch that fills the GPU) and sim "
                                 "(the simulator's smaller launch)");
        } else if (arg == "--cache-control") {
            options.cacheControl = value(i, arg);
            if (options.cacheControl != "all" && options.cacheControl != "none")
                throw InputError("--cache-control '" + options.cacheControl +
                                 "': allowed are all (flush L2 before every run, as ncu does) and none (warm caches)");
        } else if (arg == "--sample-blocks") {
            options.sampleBlocks = static_cast<std::uint64_t>(parseInteger(value(i, arg), "--sample-blocks", 0, INT64_MAX));
            if (options.sampleBlocks == 1)
                throw InputError("--sample-blocks 1: a sample needs at least 2 blocks (the first and the last), or 0 for "
                                 "the automatic choice");
        }
        else if (arg == "--compute") options.compute = value(i, arg);
        else if (arg == "--cooperative") options.cooperative = true;
        else if (arg == "--kernel") options.kernel = value(i, arg);
        else if (arg == "--grid") options.grid = value(i, arg);
        else if (arg == "--block") options.block = value(i, arg);
        else if (arg == "--smem") options.smem = value(i, arg);
        else if (arg == "--arg") options.args.push_back(value(i, arg));
        else if (arg.starts_with("-"))
            throw InputError("unknown option '" + std::string(arg) + "' (see warpscope-probe --help)");
        else options.targets.emplace_back(arg);
    }
    if (!options.help && !options.version && !options.listDevices && options.targets.empty())
        throw InputError("name at least one kernel: a demo kernel id, ladder:NAME, FILE.cu or FILE.ptx (or --devices)");
    if (options.json && !options.listDevices)
        throw InputError("--json is for --devices; the session stream is already JSON Lines");
    if (options.cooperative && options.sampleBlocks > 0)
        throw InputError("--sample-blocks cannot be combined with --cooperative: a cooperative launch's prediction "
                         "simulates every block (a sample cannot pass its grid barriers)");
    if (!options.help && !options.version && !options.listDevices)
        kernels::requireComputeOption(options.compute, options.targets);
    return options;
}

std::uint64_t autoSampleBlocks(std::uint64_t blocks, double secondsForAll)
{
    if (blocks <= kAutoSampleBlocks)
        return 0;
    if (!(secondsForAll > 0))
        return kAutoSampleBlocks;
    const double fit = kAutoSampleSeconds * static_cast<double>(blocks) / secondsForAll;
    if (fit >= static_cast<double>(kAutoSampleBlocks))
        return kAutoSampleBlocks;
    return std::max(kMinAutoSampleBlocks, static_cast<std::uint64_t>(fit));
}

std::string computeTooNewForDevice(const std::string& compute, int device, const std::string& deviceName, int major, int minor)
{
    if (compute.empty())
        return {};
    const int needed = kernels::architectureNumber(compute);
    if (needed <= major * 10 + minor)
        return {};
    return "--compute " + compute + " needs a GPU of compute capability " + std::to_string(needed / 10) + "." +
           std::to_string(needed % 10) + " or newer; device " + std::to_string(device) + " (" + deviceName +
           ") has compute capability " + std::to_string(major) + "." + std::to_string(minor) +
           ": choose an older --compute or another --device";
}

} // namespace warpscope::probe
