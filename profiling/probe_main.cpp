// warpscope-probe: runs kernels on a real GPU under CUPTI and streams a warpscope session (JSON
// Lines) to stdout. A separate process so that a faulting kernel or a driver problem never takes
// the app down. Exit codes: profiling/README.md (and ProbeExit).
#include "kernel_target.h"
#include "probe_run.h"
#include "util/input_error.h"

#include <cuda.h>

#include <csignal>
#include <exception>
#include <iostream>

using namespace warpscope;

namespace {

extern "C" void requestCancel(int)
{
    probe::g_cancelRequested.store(true);
}

} // namespace

int main(int argc, char** argv)
{
    std::signal(SIGTERM, requestCancel);
    std::signal(SIGINT, requestCancel);
    try {
        const probe::ProbeOptions options = probe::parseProbeOptions(argc, argv);
        if (options.help) {
            std::cout << probe::probeUsage();
            return 0;
        }
        if (options.version) {
            std::cout << "warpscope-probe " << WARPSCOPE_VERSION << " (CUDA " << CUDA_VERSION / 1000 << "."
                      << CUDA_VERSION % 1000 / 10 << ")\n";
            return 0;
        }
        if (options.listDevices)
            return probe::listDevices(options, std::cout, std::cerr);
        return probe::runProbe(options, std::cerr);
    } catch (const InputError& error) {
        std::cerr << "warpscope-probe: " << error.what() << "\n";
        return static_cast<int>(probe::ProbeExit::BadInput);
    } catch (const kernels::CompileFailed& error) {
        std::cerr << error.what() << "\n";
        return static_cast<int>(probe::ProbeExit::BadInput);
    } catch (const std::exception& error) {
        std::cerr << "warpscope-probe: " << error.what() << "\n";
        return static_cast<int>(probe::ProbeExit::Failure);
    }
}
