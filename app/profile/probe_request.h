// What the window asks warpscope-probe to profile, as its command line; where the probe is; and the
// probe's exit codes, each with the message a user sees. The probe is a separate process (the
// window never loads CUDA or CUPTI); its contract is in profiling/README.md.
#pragma once

#include "session/probe_exit.h"

#include <QString>
#include <QStringList>

#include <optional>

namespace warpscope::app {

enum class ProbeTargetKind { DemoKernel, Ladder, File };

struct ProbeRequest {
    ProbeTargetKind kind = ProbeTargetKind::DemoKernel;
    QString target;             // demo kernel id, ladder name, or a .cu/.ptx path
    QString entry;              // --kernel NAME: the entry to run from a file (empty: the probe's choice)
    QString grid, block, smem;  // launch overrides, "X[,Y[,Z]]" and bytes; empty: the manifest's
    QStringList args;           // --arg specs, each replacing the manifest's argument of that name
    QString metrics = QStringLiteral("headline"); // headline, full, or NAME,NAME,...
    int runs = 0;               // timed runs; 0: the probe's default
    int device = 0;
    QString compute;            // --compute compute_XX: what NVRTC compiles a .cu file for; empty: compute_75
    QString remote;             // [USER@]HOST: run the probe there through ssh; empty: on this machine
};

// The probe's arguments for `request` (target last).
QStringList probeArguments(const ProbeRequest& request);
// The program to start and its arguments: `probe` with probeArguments(request), or, for a remote
// request, ssh running warpscope-probe (from its PATH there) on that host (core/util/remote_command.h).
struct ProbeCommand {
    QString program;
    QStringList arguments;
};
ProbeCommand probeCommand(const ProbeRequest& request, const QString& probe);
// The checks that need no probe: the target exists, the argument specs parse. The message names
// the field and what is allowed; nullopt when the request can be sent.
std::optional<QString> validateProbeRequest(const ProbeRequest& request);
// The compute option's problem for `target`, from the check sim, step, profile and the probe share
// (kernels::requireComputeOption: an architecture NVRTC knows, and only for a .cu file), worded for a
// field: "compute: unknown virtual architecture 'compute_99' (allowed: compute_75, ...)". nullopt
// when `compute` is empty (the default) or fits. An empty `target` checks the architecture alone.
std::optional<QString> computeProblem(const QString& compute, const QString& target);
// For people: "reduce_sequential", "the reduction ladder", "saxpy.cu (entry saxpy)".
QString describeProbeRequest(const ProbeRequest& request);

struct ProbeLocation {
    QString path;
    bool fromEnvironment = false; // WARPSCOPE_PROBE named it
    bool executable = false;      // it exists and may be run
};
// WARPSCOPE_PROBE if set, else warpscope-probe next to the running program.
ProbeLocation findProbe();
// The message shown when the probe is not there.
QString probeMissingMessage(const ProbeLocation& location);

using ProbeExitCode = session::ProbeExit; // warpscope-probe's exit codes, core/session/probe_exit.h
QString probeExitCodeMessage(int code);

} // namespace warpscope::app
