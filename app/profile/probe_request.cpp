#include "profile/probe_request.h"

#include "cli/cli_profile.h"

#include "demo_kernels.h"
#include "kernel_target.h"
#include "sim/kernel_args.h"
#include "util/input_error.h"
#include "util/remote_command.h"

#include <QFileInfo>

#include <string>
#include <vector>

namespace warpscope::app {

QStringList probeArguments(const ProbeRequest& request)
{
    QStringList args;
    if (request.device != 0)
        args << QStringLiteral("--device") << QString::number(request.device);
    if (!request.metrics.trimmed().isEmpty())
        args << QStringLiteral("--metrics") << request.metrics.trimmed();
    if (request.runs > 0)
        args << QStringLiteral("--runs") << QString::number(request.runs);
    // Before --kernel, as `warpscope profile` hands it on (app/cli/cli_profile.cpp).
    if (!request.compute.trimmed().isEmpty())
        args << QStringLiteral("--compute") << request.compute.trimmed();
    if (request.kind == ProbeTargetKind::File && !request.entry.trimmed().isEmpty())
        args << QStringLiteral("--kernel") << request.entry.trimmed();
    if (request.kind != ProbeTargetKind::Ladder) {
        // A ladder's rungs each have their own launch shape: only argument overrides apply to all.
        if (!request.grid.trimmed().isEmpty())
            args << QStringLiteral("--grid") << request.grid.trimmed();
        if (!request.block.trimmed().isEmpty())
            args << QStringLiteral("--block") << request.block.trimmed();
        if (!request.smem.trimmed().isEmpty())
            args << QStringLiteral("--smem") << request.smem.trimmed();
    }
    for (const QString& spec : request.args)
        if (!spec.trimmed().isEmpty())
            args << QStringLiteral("--arg") << spec.trimmed();
    switch (request.kind) {
    case ProbeTargetKind::DemoKernel: args << request.target; break;
    case ProbeTargetKind::Ladder: args << QStringLiteral("ladder:") + request.target; break;
    case ProbeTargetKind::File: args << request.target; break;
    }
    return args;
}

ProbeCommand probeCommand(const ProbeRequest& request, const QString& probe)
{
    if (request.remote.isEmpty())
        return {probe, probeArguments(request)};
    std::vector<std::string> remote{"warpscope-probe"};
    for (const QString& argument : probeArguments(request))
        remote.push_back(argument.toStdString());
    ProbeCommand command;
    for (const std::string& word : sshCommand(request.remote.toStdString(), remote))
        command.arguments << QString::fromStdString(word);
    command.program = command.arguments.takeFirst();
    return command;
}

std::optional<QString> validateProbeRequest(const ProbeRequest& request)
{
    if (!request.remote.isEmpty()) {
        try {
            checkRemoteHost(request.remote.toStdString(), "Remote");
        } catch (const InputError& error) {
            return QString::fromStdString(error.what());
        }
    }
    switch (request.kind) {
    case ProbeTargetKind::DemoKernel:
        if (kernels::findDemoKernel(request.target.toStdString()) == nullptr)
            return QStringLiteral("Kernel: unknown demo kernel '%1' (allowed: %2)")
                .arg(request.target, QString::fromStdString(kernels::demoKernelIds()));
        break;
    case ProbeTargetKind::Ladder: {
        bool found = false;
        for (const kernels::DemoKernel& kernel : kernels::demoKernels())
            found = found || (!kernel.ladder.empty() && QString::fromStdString(kernel.ladder) == request.target);
        if (!found)
            return QStringLiteral("Ladder: unknown ladder '%1'").arg(request.target);
        break;
    }
    case ProbeTargetKind::File: {
        const QFileInfo file(request.target);
        if (request.target.trimmed().isEmpty())
            return QStringLiteral("File: choose a .cu or .ptx file to profile");
        if (!request.remote.isEmpty()) { // a path on that machine: only the probe there can check it
            const QString suffix = file.suffix().toLower();
            if (suffix != QLatin1String("cu") && suffix != QLatin1String("ptx"))
                return QStringLiteral("File: '%1' is not a .cu or .ptx file").arg(request.target);
            break;
        }
        if (!file.isFile())
            return QStringLiteral("File: '%1' does not exist").arg(request.target);
        const QString suffix = file.suffix().toLower();
        if (suffix != QLatin1String("cu") && suffix != QLatin1String("ptx"))
            return QStringLiteral("File: '%1' is not a .cu or .ptx file").arg(request.target);
        break;
    }
    }
    for (const QString& spec : request.args) {
        if (spec.trimmed().isEmpty())
            continue;
        try {
            sim::parseArgSpec(spec.trimmed().toStdString());
        } catch (const InputError& error) {
            return QStringLiteral("Arguments: %1").arg(QString::fromStdString(error.what()));
        }
    }
    if (!request.compute.trimmed().isEmpty()) {
        // A ladder or a demo kernel is no .cu file: the check names it as the probe would.
        const QString target = request.kind == ProbeTargetKind::Ladder ? QStringLiteral("ladder:") + request.target : request.target;
        if (const std::optional<QString> problem = computeProblem(request.compute.trimmed(), target))
            return *problem;
    }
    const QString metrics = request.metrics.trimmed();
    if (metrics.isEmpty())
        return QStringLiteral("Metrics: choose headline, full, or metric names separated by commas");
    return std::nullopt;
}

std::optional<QString> computeProblem(const QString& compute, const QString& target)
{
    try {
        std::vector<std::string> targets;
        if (!target.isEmpty())
            targets.push_back(target.toStdString());
        kernels::requireComputeOption(compute.trimmed().toStdString(), targets);
    } catch (const InputError& error) {
        // The command line's words with the field's name: "--compute: unknown ..." -> "compute: unknown ...".
        QString message = QString::fromStdString(error.what());
        if (message.startsWith(QLatin1String("--")))
            message.remove(0, 2);
        return message;
    }
    return std::nullopt;
}

QString describeProbeRequest(const ProbeRequest& request)
{
    switch (request.kind) {
    case ProbeTargetKind::DemoKernel: return request.target;
    case ProbeTargetKind::Ladder: return QStringLiteral("the %1 ladder").arg(request.target);
    case ProbeTargetKind::File:
        return request.entry.trimmed().isEmpty()
                   ? QFileInfo(request.target).fileName()
                   : QStringLiteral("%1 (entry %2)").arg(QFileInfo(request.target).fileName(), request.entry.trimmed());
    }
    return request.target;
}

ProbeLocation findProbe()
{
    ProbeLocation location;
    // The same rule as `warpscope profile`: $WARPSCOPE_PROBE, else beside this program.
    location.fromEnvironment = !qEnvironmentVariable("WARPSCOPE_PROBE").isEmpty();
    location.path = QString::fromStdString(cli::probePath());
    const QFileInfo info(location.path);
    location.executable = info.isFile() && info.isExecutable();
    return location;
}

QString probeMissingMessage(const ProbeLocation& location)
{
    if (location.fromEnvironment)
        return QStringLiteral("warpscope-probe was not found at %1 (named by WARPSCOPE_PROBE), or it is not executable.")
            .arg(location.path);
    return QStringLiteral("warpscope-probe was not found at %1. It is built next to warpscope only when CMake "
                          "finds the CUDA toolkit; set WARPSCOPE_PROBE to use one elsewhere. Recorded sessions open "
                          "without it (File > Open Recorded Session).")
        .arg(location.path);
}

QString probeExitCodeMessage(int code)
{
    switch (static_cast<ProbeExitCode>(code)) {
    case ProbeExitCode::Ok: return QStringLiteral("profiled");
    case ProbeExitCode::Failure: return QStringLiteral("a kernel failed or its output did not match the reference");
    case ProbeExitCode::BadInput: return QStringLiteral("the probe refused its input");
    case ProbeExitCode::NoGpu: return QStringLiteral("no usable NVIDIA GPU (no driver, no device, or an unsupported GPU)");
    case ProbeExitCode::Cancelled: return QStringLiteral("cancelled");
    }
    return QStringLiteral("unexpected exit code %1").arg(code);
}

} // namespace warpscope::app
