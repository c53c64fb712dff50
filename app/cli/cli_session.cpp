#include "cli/cli_session.h"

#include "cli/exit_codes.h"
#include "session/metric_catalog.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <iomanip>
#include <ostream>
#include <sstream>

namespace warpscope::cli {

CLI::App* addSessionCommand(CLI::App& app, SessionShowOptions& options)
{
    CLI::App* command = app.add_subcommand("session", "Work with saved profiling sessions (.wsprof)");
    CLI::App* show = command->add_subcommand("show", "Print a saved session: device, ceilings, and per kernel the "
                                                     "check, timing, occupancy, predicted vs measured and metrics");
    show->add_option("file", options.file, "the .wsprof file")->required();
    show->add_flag("--json", options.json, "print the session as one JSON document");
    command->require_subcommand(1);
    return command;
}

namespace {

std::string percent(double fraction) { return session::formatMetricValue(100.0 * fraction, "%"); }

void row(std::ostream& out, const std::string& label, const std::string& value)
{
    out << "  " << std::left << std::setw(34) << label << value << "\n";
}

std::string ratio(double numerator, double denominator)
{
    if (!(denominator > 0) || std::isnan(numerator))
        return "n/a";
    std::ostringstream text;
    text << std::fixed << std::setprecision(2) << numerator / denominator;
    return text.str();
}

} // namespace

void printSessionSummary(const session::Session& s, std::ostream& out)
{
    out << "warpscope session (format version " << s.header.version << "), " << s.header.producer << ", "
        << s.header.createdUtc << (s.header.host.empty() ? "" : " on " + s.header.host) << "\n";
    for (const session::DeviceRecord& d : s.devices) {
        out << "device " << d.ordinal << ": " << d.name << (d.chip.empty() ? "" : " (" + d.chip + ")")
            << ", compute capability " << d.computeMajor << "." << d.computeMinor << ", " << d.smCount << " SMs, "
            << d.coreClockKHz / 1000 << " MHz; driver " << d.driverVersion / 1000 << "." << d.driverVersion % 1000 / 10
            << (d.driverRelease.empty() ? "" : " (" + d.driverRelease + ")") << ", built with CUDA "
            << d.toolkitVersion / 1000 << "." << d.toolkitVersion % 1000 / 10
            << (d.cuptiVersion.empty() ? "" : ", CUPTI " + d.cuptiVersion) << "\n";
        if (!d.countersAllowed)
            out << "  counters: not measured: " << d.countersMessage << "\n";
    }
    if (s.ceilings) {
        const session::CeilingsRecord& c = *s.ceilings;
        out << "ceilings (measured; from attributes):\n";
        row(out, "DRAM bandwidth", session::formatMetricValue(c.measuredDramGBps * 1e9, "bytes/s") + "; " +
                                       session::formatMetricValue(c.theoreticalDramGBps * 1e9, "bytes/s"));
        row(out, "FP32 throughput", session::formatMetricValue(c.measuredFp32Gflops * 1e9, "FLOP/s") + "; " +
                                        session::formatMetricValue(c.theoreticalFp32Gflops * 1e9, "FLOP/s"));
    }
    for (const session::KernelRecord& k : s.kernels) {
        out << "\nkernel " << k.id << (k.title.empty() ? "" : " - " + k.title) << "  grid " << k.grid[0] << "," << k.grid[1]
            << "," << k.grid[2] << "  block " << k.block[0] << "," << k.block[1] << "," << k.block[2] << "  ptx "
            << k.ptxHash << "\n";
        if (const session::CheckRecord* c = s.checkFor(k.id))
            row(out, "check against " + c->reference, (c->matches ? "matches: " : "DIFFERS: ") + c->detail);
        if (const session::ActivityRecord* a = s.activityFor(k.id))
            row(out, "duration (median of " + std::to_string(a->durationsNs.size()) + ")",
                session::formatMetricValue(static_cast<double>(a->medianNs()), "ns") + ", " +
                    std::to_string(a->registersPerThread) + " registers/thread");
        const session::OccupancyRecord* o = s.occupancyFor(k.id);
        const session::PredictionRecord* p = s.predictionFor(k.id);
        const session::MetricsRecord* m = s.metricsFor(k.id);
        auto measured = [&](const char* name) { return s.metric(k.id, name).value_or(std::nan("")); };
        if (o)
            row(out, "occupancy theoretical / achieved",
                percent(o->theoretical) + " / " + session::formatMetricValue(measured(session::metric::kWarpsActive), "%") +
                    " (limited by " + o->limiter + ")");
        if (p) {
            out << "  predicted (simulator, " << p->preset << ") vs measured:\n";
            const session::DerivedMetrics d = m ? session::deriveMetrics(*m) : session::DerivedMetrics{};
            row(out, "  load sectors per request",
                ratio(static_cast<double>(p->globalLoadSectors), static_cast<double>(p->globalLoadRequests)) + " vs " +
                    (m ? ratio(measured(session::metric::kGlobalLoadSectors), measured(session::metric::kGlobalLoadRequests)) : "n/a"));
            row(out, "  store sectors per request",
                ratio(static_cast<double>(p->globalStoreSectors), static_cast<double>(p->globalStoreRequests)) + " vs " +
                    (m ? ratio(measured(session::metric::kGlobalStoreSectors), measured(session::metric::kGlobalStoreRequests)) : "n/a"));
            row(out, "  shared bank conflicts",
                std::to_string(p->sharedBankConflicts) + " vs " + (m ? session::formatMetricValue(d.sharedBankConflicts, "") : "n/a"));
            const double uniform = p->branchesUniform + p->branchesDivergent == 0
                                       ? 1.0
                                       : static_cast<double>(p->branchesUniform) / static_cast<double>(p->branchesUniform + p->branchesDivergent);
            row(out, "  branch uniformity", percent(uniform) + " vs " +
                                                session::formatMetricValue(measured(session::metric::kBranchUniformPct), "%"));
        }
        if (m) {
            out << "  metrics (" << m->passes << " replay pass" << (m->passes == 1 ? "" : "es") << "):\n";
            for (const auto& [name, value] : m->values) {
                const session::MetricInfo* info = session::findMetric(name);
                const std::string unit = info ? std::string(info->unit) : (m->units.count(name) ? m->units.at(name) : "");
                out << "    " << std::left << std::setw(30) << (info ? std::string(info->title) : name) << std::setw(16)
                    << session::formatMetricValue(value, unit) << name << "\n";
            }
            for (const std::string& name : m->unavailable)
                out << "    " << std::left << std::setw(30) << name << "not available on this GPU\n";
        }
    }
    for (const session::ErrorRecord& e : s.errors)
        out << (e.fatal ? "\nerror " : "\nwarning ") << e.code << (e.kernel.empty() ? "" : " (" + e.kernel + ")") << ": "
            << e.message << "\n";
    if (s.end)
        out << "\nend: " << s.end->status << " after " << std::fixed << std::setprecision(1) << s.end->wallSeconds << " s\n";
}

void printSessionJson(const session::SessionReadResult& read, std::ostream& out)
{
    nlohmann::ordered_json records = nlohmann::ordered_json::array();
    std::istringstream lines(session::formatSession(read.session));
    std::string line;
    bool first = true;
    nlohmann::ordered_json header;
    while (std::getline(lines, line)) {
        if (first) {
            header = nlohmann::ordered_json::parse(line);
            first = false;
        } else {
            records.push_back(nlohmann::ordered_json::parse(line));
        }
    }
    out << nlohmann::ordered_json{{"header", header}, {"complete", read.complete}, {"problems", read.problems}, {"records", records}}.dump(2)
        << "\n";
}

int runSessionShow(const SessionShowOptions& options, std::ostream& out, std::ostream& err)
{
    const session::SessionReadResult read = session::readSessionFile(options.file);
    if (!read.headerSeen) {
        err << "warpscope session show: " << (read.problems.empty() ? options.file + ": not a session" : read.problems.front()) << "\n";
        return toInt(ExitCode::BadInput);
    }
    if (options.json)
        printSessionJson(read, out);
    else
        printSessionSummary(read.session, out);
    for (const std::string& problem : read.problems)
        err << "warpscope session show: " << problem << "\n";
    return read.problems.empty() ? toInt(ExitCode::Ok) : toInt(ExitCode::Failure);
}

} // namespace warpscope::cli
