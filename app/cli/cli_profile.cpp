#include "cli/cli_profile.h"

#include "cli/cli_session.h"
#include "cli/exit_codes.h"
#include "cli/probe_process.h"
#include "kernel_target.h"
#include "session/metric_catalog.h"
#include "session/probe_exit.h"
#include "session/session_io.h"
#include "util/atomic_file.h"
#include "util/input_error.h"
#include "util/parse.h"
#include "util/remote_command.h"

#include <sys/wait.h>
#include <unistd.h>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace warpscope::cli {

namespace {

constexpr int kTerminateGraceMs = 3000; // after SIGTERM, before SIGKILL (as the Profile dock)

} // namespace

CLI::App* addProfileCommand(CLI::App& app, ProfileOptions& options)
{
    CLI::App* command = app.add_subcommand(
        "profile", "Run kernels on an NVIDIA GPU under CUPTI (through warpscope-probe) and print the measured "
                   "counters beside the simulator's prediction. Exit 3 when there is no usable GPU.");
    command->add_option("target", options.targets, "demo kernel ids, ladder:NAME, FILE.cu or FILE.ptx")->required();
    command->add_option("--kernel", options.kernel, "the kernel (.entry) in FILE.cu or FILE.ptx");
    command->add_option("--grid", options.grid, "grid size X[,Y[,Z]] (expressions over integer args)");
    command->add_option("--block", options.block, "block size X[,Y[,Z]]");
    command->add_option("--smem", options.smem, "dynamic shared memory, bytes");
    command->add_option("--arg", options.args,
                        "argument spec, e.g. n=i32:4096 or a=f32[n]:random(1); TYPE is one of i8 u8 i16 u16 i32 u32 "
                        "i64 u64 f16 bf16 f32 f64 (repeatable)")
        ->allow_extra_args(false);
    command->add_option("--metrics", options.metrics, "headline, full, or metric names separated by commas")
        ->capture_default_str();
    command->add_option("--runs", options.runs, "timed runs per kernel (1..1000)")->capture_default_str();
    command->add_option("--device", options.device, "GPU ordinal")->capture_default_str();
    command->add_option("--out", options.out, "also save the session stream to this .wsprof file");
    command->add_flag("--json", options.json, "print the session stream (JSON Lines) instead of a summary");
    command->add_flag("--no-ceilings", options.noCeilings, "skip measuring copy bandwidth and FMA throughput");
    command->add_flag("--no-hierarchy", options.noHierarchy,
                      "skip the memory ladder (pointer-chase latency and bandwidth per level)");
    command->add_option("--size", options.size, "a demo kernel's launch: gpu (fills the GPU) or sim (the simulator's size)")
        ->capture_default_str();
    command->add_option("--cache-control", options.cacheControl,
                        "all: flush L2 before every timed run and replay pass (as ncu); none: warm caches")
        ->capture_default_str();
    command->add_option("--sample-blocks", options.sampleBlocks,
                        "blocks the prediction simulates, counts scaled to the grid; 0: every block up to 256, else 256")
        ->capture_default_str();
    command->add_option("--compute", options.compute,
                        "FILE.cu: the virtual architecture NVRTC compiles for, compute_75 (the default) .. compute_90; "
                        "the GPU must be at least as new");
    command->add_option("--remote", options.remote,
                        "[USER@]HOST: run the probe on that machine through ssh (keys or an agent; no password prompt)");
    command->add_option("--probe", options.probe,
                        "the warpscope-probe to run (with --remote: its path on that machine; default: warpscope-probe "
                        "on its PATH)");
    command->add_option("--hang-timeout", options.hangTimeout,
                        "seconds without any output from the probe before it is stopped (1..86400)")
        ->capture_default_str();
    return command;
}

std::string probePath()
{
    if (const char* fromEnvironment = std::getenv("WARPSCOPE_PROBE"); fromEnvironment && *fromEnvironment)
        return fromEnvironment;
    std::error_code error;
    const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
    return (error ? std::filesystem::path(".") : self.parent_path()) / "warpscope-probe";
}

int runProfile(const ProfileOptions& options, std::ostream& out, std::ostream& err)
{
    // The probe validates everything again; checking here keeps the messages in warpscope's voice.
    session::resolveMetricSet(options.metrics);
    parseInteger(options.runs, "--runs", 1, 1000);
    parseInteger(options.device, "--device", 0, 255);
    if (options.size != "gpu" && options.size != "sim")
        throw InputError("--size '" + options.size + "': allowed are gpu (a launch that fills the GPU) and sim "
                         "(the simulator's smaller launch)");
    if (options.cacheControl != "all" && options.cacheControl != "none")
        throw InputError("--cache-control '" + options.cacheControl +
                         "': allowed are all (flush L2 before every run, as ncu does) and none (warm caches)");
    if (parseInteger(options.sampleBlocks, "--sample-blocks", 0, INT64_MAX) == 1)
        throw InputError("--sample-blocks 1: a sample needs at least 2 blocks (the first and the last), or 0 for the "
                         "automatic choice");
    kernels::requireComputeOption(options.compute, options.targets);
    // --out is written beside its target and renamed over it at the end, so an earlier file there is
    // replaced only by a stream that was read (never emptied by a probe that refused its input).
    std::optional<AtomicFileWriter> saved;
    if (!options.out.empty()) {
        saved.emplace(options.out);
        if (!saved->open())
            throw InputError("--out: cannot write '" + options.out + "': " + saved->error());
    }
    const int hangTimeoutSeconds = static_cast<int>(parseInteger(options.hangTimeout, "--hang-timeout", 1, 86400));
    const bool remote = options.remote.has_value();
    const std::string host = options.remote.value_or("");
    if (remote)
        checkRemoteHost(host, "--remote");
    const std::string probe = !options.probe.empty() ? options.probe : remote ? std::string("warpscope-probe") : probePath();
    if (!remote && access(probe.c_str(), X_OK) != 0) {
        err << "warpscope profile: " << probe
            << (options.probe.empty() ? " is missing: warpscope-probe is built only when the CUDA toolkit with CUPTI was "
                                        "found (set WARPSCOPE_PROBE or --probe to use another)\n"
                                      : " is not an executable file (--probe)\n");
        return toInt(ExitCode::Failure);
    }

    std::vector<std::string> arguments = {probe, "--metrics", options.metrics, "--runs", options.runs, "--device", options.device};
    if (options.noCeilings) arguments.push_back("--no-ceilings");
    if (options.noHierarchy) arguments.push_back("--no-hierarchy");
    arguments.insert(arguments.end(), {"--size", options.size, "--cache-control", options.cacheControl,
                                       "--sample-blocks", options.sampleBlocks});
    if (!options.compute.empty()) arguments.insert(arguments.end(), {"--compute", options.compute});
    if (!options.kernel.empty()) arguments.insert(arguments.end(), {"--kernel", options.kernel});
    if (!options.grid.empty()) arguments.insert(arguments.end(), {"--grid", options.grid});
    if (!options.block.empty()) arguments.insert(arguments.end(), {"--block", options.block});
    if (!options.smem.empty()) arguments.insert(arguments.end(), {"--smem", options.smem});
    for (const std::string& arg : options.args) arguments.insert(arguments.end(), {"--arg", arg});
    for (const std::string& target : options.targets) arguments.push_back(target);
    if (remote)
        arguments = sshCommand(host, arguments);

    // The probe's stderr (its log lines; ssh's messages) goes straight to ours; its stdout is the session.
    session::SessionStreamReader reader;
    const ProbeProcessResult run = runProbeProcess(arguments, hangTimeoutSeconds * 1000, kTerminateGraceMs, [&](std::string_view text) {
        if (saved) saved->stream() << text << '\n';
        if (options.json) out << text << '\n' << std::flush;
        reader.feedLine(text);
    });
    if (!run.started) {
        err << "warpscope profile: cannot start " << arguments.front() << ": " << run.startError << "\n";
        return toInt(ExitCode::Failure);
    }
    reader.finish();
    bool savedOk = true;
    if (saved && !reader.headerSeen()) {
        saved->discard();
    } else if (saved && !saved->commit()) {
        err << "warpscope profile: --out: cannot write '" << options.out << "': " << saved->error()
            << " (the earlier file, if any, is unchanged)\n";
        savedOk = false;
    }
    if (!options.json && reader.headerSeen())
        printSessionSummary(reader.session(), out);
    // Without a header the probe refused its input and already said why on stderr.
    if (reader.headerSeen())
        for (const std::string& problem : reader.problems())
            err << "warpscope profile: session stream: " << problem << "\n";
    const std::string kept = !reader.headerSeen() ? std::string("it had written no session yet")
                             : saved && savedOk   ? "what it wrote before is kept in " + options.out
                                                  : std::string("what it wrote before is shown above");
    const std::string who = remote ? "warpscope-probe on " + host : std::string("warpscope-probe");
    if (run.hung) {
        err << "warpscope profile: " << who << " wrote nothing for " << hangTimeoutSeconds
            << " s and was stopped (--hang-timeout " << hangTimeoutSeconds << "); " << kept << "\n";
        return toInt(ExitCode::Failure);
    }
    if (run.passedOnSignal != 0 && (WIFSIGNALED(run.waitStatus) || remote)) {
        err << "warpscope profile: cancelled; " << kept << "\n";
        return static_cast<int>(session::ProbeExit::Cancelled);
    }
    if (WIFSIGNALED(run.waitStatus)) {
        err << "warpscope profile: " << who << " was killed by signal " << WTERMSIG(run.waitStatus) << "; " << kept << "\n";
        return toInt(ExitCode::Failure);
    }
    const int probeExit = WIFEXITED(run.waitStatus) ? WEXITSTATUS(run.waitStatus) : toInt(ExitCode::Failure);
    if (remote && probeExit == kSshConnectionFailed) {
        err << "warpscope profile: ssh to " << host
            << " failed or the connection was lost (ssh exit 255; its message is above); " << kept << "\n";
        return toInt(ExitCode::Failure);
    }
    if (remote && probeExit == 127 && !reader.headerSeen()) {
        err << "warpscope profile: " << probe << " was not found on " << host
            << " (exit 127 from its shell): build it there (CMake preset headless) and give its path with --probe\n";
        return toInt(ExitCode::Failure);
    }
    return probeExit == toInt(ExitCode::Ok) && !savedOk ? toInt(ExitCode::Failure) : probeExit;
}

} // namespace warpscope::cli
