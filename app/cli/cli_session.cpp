#include "cli/cli_session.h"

#include "cli/exit_codes.h"
#include "session/metric_catalog.h"
#include "session/ncu_import.h"
#include "session/prediction_comparison.h"
#include "session/roofline.h"
#include "session/session_export.h"
#include "session/session_io.h"
#include "session/sgemm_reference.h"
#include "util/atomic_file.h"
#include "util/input_error.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <iomanip>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

namespace warpscope::cli {

CLI::App* addSessionCommand(CLI::App& app, SessionOptions& options)
{
    CLI::App* command = app.add_subcommand("session", "Work with saved profiling sessions (.wsprof)");
    CLI::App* show = command->add_subcommand("show", "Print a saved session: device, ceilings, and per kernel the "
                                                     "check, timing, occupancy, predicted vs measured and metrics");
    show->add_option("file", options.show.file, "the .wsprof file")->required();
    show->add_flag("--json", options.show.json, "print the session as one JSON document");
    CLI::App* importNcu = command->add_subcommand(
        "import-ncu", "Read Nsight Compute's CSV (ncu --csv --metrics ..., or ncu --import X.ncu-rep --csv --page raw) "
                      "as a session: one kernel and one metrics record per profiled launch");
    importNcu->add_option("file", options.importNcu.file, "the CSV ncu printed")->required();
    importNcu->add_option("--out", options.importNcu.out, "write the session to this .wsprof file (without it, print a summary)");
    CLI::App* exportTo = command->add_subcommand(
        "export", "Write a session in other tools' formats: the measured runs as a Chrome trace for ui.perfetto.dev, "
                  "the metrics as CSV");
    exportTo->add_option("file", options.exportTo.file, "the .wsprof file")->required();
    exportTo->add_option("--perfetto", options.exportTo.perfetto, "write the runs as Chrome trace JSON to this file");
    exportTo->add_option("--csv", options.exportTo.csv, "write the metrics as CSV to this file");
    CLI::App* validate = command->add_subcommand(
        "validate-timing", "Re-run every kernel of recorded sessions on the simulator, on the session's GPU, and compare "
                           "the timing model's durations with the measured ones (ratio, mean absolute error, Spearman, "
                           "ladder order)");
    validate->add_option("files", options.validate.files, "the .wsprof files")->required();
    validate->add_flag("--json", options.validate.json, "print one JSON object");
    validate->add_option("--sample-blocks", options.validate.sampleBlocks,
                         "blocks to simulate per launch, the time scaled to the grid; 0 = every block up to 4,096, "
                         "else 256")
        ->capture_default_str();
    validate->add_option("--threads", options.validate.threads, "host threads, 0 = all cores")->capture_default_str();
    validate->add_option("--out", options.validate.out,
                         "with one session: write it to this file with each prediction's time, method and blind spots "
                         "filled in (the window's predicted-vs-measured table then shows the ratio)");
    options.validateCommand = validate;
    options.showCommand = show;
    options.importNcuCommand = importNcu;
    options.exportCommand = exportTo;
    command->require_subcommand(1);
    return command;
}

namespace {

std::string percent(double fraction) { return session::formatMetricValue(100.0 * fraction, "%"); }

void row(std::ostream& out, const std::string& label, const std::string& value)
{
    out << "  " << std::left << std::setw(34) << label << value << "\n";
}

std::string rate(double bytesPerSecond) { return session::formatMetricValue(bytesPerSecond, "bytes/s"); }

std::string intensityText(double intensity)
{
    if (std::isinf(intensity))
        return "unbounded";
    if (std::isnan(intensity))
        return "n/a";
    std::ostringstream text;
    text << std::setprecision(3) << intensity << " FLOP/B";
    return text.str();
}

void printRoofs(const session::RooflineRoofs& roofs, std::ostream& out)
{
    out << "roofline roofs (measured; peak):\n";
    auto either = [](double value, const std::string& unit) {
        return value > 0 ? session::formatMetricValue(value, unit) : std::string("none");
    };
    row(out, "FP32", either(roofs.measuredFlopsPerSecond, "FLOP/s") + "; " + either(roofs.peakFlopsPerSecond, "FLOP/s"));
    for (session::MemoryLevel level : session::kMemoryLevels) {
        const session::LevelRoofs& r = roofs.at(level);
        row(out, std::string(session::levelName(level)),
            either(r.measured.bytesPerSecond, "bytes/s") + "; " + either(r.peak.bytesPerSecond, "bytes/s"));
        // Where the L1 and L2 roofs came from (DRAM's are the ceilings above), or why there is none.
        if (!r.missing.empty())
            row(out, "", r.missing);
        else if (level != session::MemoryLevel::Dram && !(r.measured.bytesPerSecond > 0))
            row(out, "", "peak: " + r.peak.source);
    }
}

// One line per level: bytes, intensity, achieved bandwidth and share of the level's roof, or why
// the kernel has no point there.
void printKernelRoofline(const session::KernelRoofline& k, const session::RooflineRoofs& roofs, std::ostream& out)
{
    out << "  roofline: " << session::formatMetricValue(k.fp32Flops, "") << " FP32 FLOP in "
        << session::formatMetricValue(k.durationSeconds * 1e9, "ns") << " = "
        << (k.flopsPerSecond == 0 ? std::string("0 FLOP/s") : session::formatMetricValue(k.flopsPerSecond, "FLOP/s")) << "\n";
    for (session::MemoryLevel level : session::kMemoryLevels) {
        const session::LevelPoint& p = k.at(level);
        const double share = session::shareOfRoof(k, level, roofs);
        std::ostringstream line;
        line << std::left << std::setw(10) << session::formatMetricValue(p.bytes, "bytes") << std::setw(16)
             << intensityText(p.intensity) << std::setw(12) << rate(p.bytesPerSecond)
             << (std::isnan(share) ? std::string("no roof") : percent(share) + " of roof");
        if (!p.plotted())
            line << "  (not plotted: " << session::gapSummary(p.gap, level) << ")";
        out << "    " << std::left << std::setw(6) << session::levelName(level) << line.str() << "\n";
    }
}

nlohmann::ordered_json numberOrNull(double value)
{
    return std::isfinite(value) ? nlohmann::ordered_json(value) : nlohmann::ordered_json(nullptr);
}

// `text` padded with spaces to `width` characters (UTF-8: "×" and "−" are one each), and one space at least.
std::string padded(const std::string& text, std::size_t width)
{
    std::size_t characters = 0;
    for (char c : text)
        characters += (static_cast<unsigned char>(c) & 0xC0) != 0x80 ? 1 : 0;
    return text + std::string(characters < width ? width - characters : 1, ' ');
}

// Predicted vs measured as the window's table has it (core/session/prediction_comparison.h): per
// quantity both sides, the difference and its verdict, and under it the line on why they differ. The
// output check is printed above the block.
void printComparison(const session::KernelComparison& kernel, std::ostream& out)
{
    // A sampled prediction says so first: its counts are exact only for blocks that all do the same work.
    if (!kernel.sample.note.empty())
        out << "    " << kernel.sample.note << "\n";
    for (const session::ComparisonRow& r : kernel.rows) {
        if (r.key == "check" || r.key == "simulated_blocks")
            continue;
        out << "    " << padded(r.title, 36) << r.predictedText << " vs " << r.measuredText << ": " << r.differenceText;
        if (r.agreement != session::Agreement::NotComparable)
            out << " [" << session::agreementKey(r.agreement) << "]";
        out << "\n";
        if (!r.note.empty())
            out << "      \u21b3 " << r.note << "\n";
    }
}

// [{"kernel","simulated_blocks","total_blocks","sampled","sample_note","sample_detail","rows":[{"key",
// "title","predicted","measured","predicted_text","measured_text","difference","agreement","note",
// "detail"}]}]: the numbers null where a side has none (blocks: where the session did not record them).
nlohmann::ordered_json comparisonJson(const session::Session& s)
{
    using nlohmann::ordered_json;
    ordered_json kernels = ordered_json::array();
    for (const session::KernelComparison& k : session::comparePredictions(s, nullptr, session::plainNumberText())) {
        ordered_json rows = ordered_json::array();
        for (const session::ComparisonRow& r : k.rows)
            rows.push_back({{"key", r.key},
                            {"title", r.title},
                            {"predicted", numberOrNull(r.predicted)},
                            {"measured", numberOrNull(r.measured)},
                            {"predicted_text", r.predictedText},
                            {"measured_text", r.measuredText},
                            {"difference", r.differenceText},
                            {"agreement", std::string(session::agreementKey(r.agreement))},
                            {"note", r.note.empty() ? ordered_json(nullptr) : ordered_json(r.note)},
                            {"detail", r.detail}});
        const session::PredictionRecord* p = s.predictionFor(k.kernel);
        auto blocks = [](std::uint64_t value) { return value > 0 ? ordered_json(value) : ordered_json(nullptr); };
        auto text = [](const std::string& value) { return value.empty() ? ordered_json(nullptr) : ordered_json(value); };
        kernels.push_back({{"kernel", k.kernel},
                           {"simulated_blocks", blocks(p ? p->simulatedBlocks : 0)},
                           {"total_blocks", blocks(p ? p->totalBlocks : 0)},
                           {"sampled", p != nullptr && session::isSampled(*p)},
                           {"sample_note", text(k.sample.note)},
                           {"sample_detail", text(k.sample.detail)},
                           {"rows", rows}});
    }
    return kernels;
}

// The matmul ladder against cuBLAS SGEMM: each rung's GEMM rate and share, then the reference rung.
void printMatmulAgainstReference(const session::Session& s, std::ostream& out)
{
    const session::SgemmReference reference = session::sgemmReference(s);
    const std::vector<session::RungAgainstReference> rungs = session::matmulRungsAgainstReference(s);
    if (!reference.measured || rungs.empty())
        return;
    out << "matmul ladder against cuBLAS SGEMM (2 n^3 FLOP over each rung's median time):\n";
    for (const session::RungAgainstReference& r : rungs) {
        const std::string rate = std::isnan(r.flopsPerSecond) ? std::string("n/a") : session::formatMetricValue(r.flopsPerSecond, "FLOP/s");
        std::ostringstream line;
        line << std::left << std::setw(16) << rate << (std::isnan(r.share) ? r.why : percent(r.share) + " of cuBLAS");
        row(out, std::to_string(r.rung) + ". " + r.kernel, line.str());
    }
    std::ostringstream line;
    line << std::left << std::setw(16) << session::formatMetricValue(reference.flopsPerSecond, "FLOP/s") << "the reference";
    row(out, "ref. cuBLAS SGEMM, n = " + std::to_string(reference.n), line.str());
}

// {"measured","flops_per_second","n","method","status","rungs":[{"kernel","rung","n","duration_s",
// "flops_per_second","share_of_reference","why"}]}; null numbers where the session has none.
nlohmann::ordered_json sgemmReferenceJson(const session::Session& s)
{
    using nlohmann::ordered_json;
    const session::SgemmReference reference = session::sgemmReference(s);
    ordered_json rungs = ordered_json::array();
    for (const session::RungAgainstReference& r : session::matmulRungsAgainstReference(s))
        rungs.push_back({{"kernel", r.kernel},
                         {"rung", r.rung},
                         {"n", r.n > 0 ? ordered_json(r.n) : ordered_json(nullptr)},
                         {"duration_s", numberOrNull(r.durationSeconds)},
                         {"flops_per_second", numberOrNull(r.flopsPerSecond)},
                         {"share_of_reference", numberOrNull(r.share)},
                         {"why", r.why.empty() ? ordered_json(nullptr) : ordered_json(r.why)}});
    return {{"measured", reference.measured},
            {"flops_per_second", reference.measured ? ordered_json(reference.flopsPerSecond) : ordered_json(nullptr)},
            {"n", reference.measured ? ordered_json(reference.n) : ordered_json(nullptr)},
            {"method", reference.method},
            {"status", reference.status},
            {"rungs", rungs}};
}

nlohmann::ordered_json rooflineJson(const session::Session& s)
{
    using nlohmann::ordered_json;
    const session::RooflineRoofs roofs = session::rooflineRoofs(s);
    auto positive = [](double value) { return value > 0 ? ordered_json(value) : ordered_json(nullptr); };
    ordered_json roofsJson{{"fp32", {{"measured_flops_per_second", positive(roofs.measuredFlopsPerSecond)},
                                     {"measured_source", roofs.measuredFlopsSource},
                                     {"peak_flops_per_second", positive(roofs.peakFlopsPerSecond)},
                                     {"peak_source", roofs.peakFlopsSource}}}};
    for (session::MemoryLevel level : session::kMemoryLevels) {
        const session::LevelRoofs& r = roofs.at(level);
        roofsJson[std::string(session::levelKey(level))] = {
            {"measured_bytes_per_second", positive(r.measured.bytesPerSecond)}, {"measured_source", r.measured.source},
            {"peak_bytes_per_second", positive(r.peak.bytesPerSecond)},         {"peak_source", r.peak.source},
            {"missing", r.missing.empty() ? ordered_json(nullptr) : ordered_json(r.missing)}};
    }
    ordered_json kernels = ordered_json::array();
    for (const session::KernelRoofline& k : session::kernelRooflines(s)) {
        ordered_json kernel{{"kernel", k.kernel},
                            {"fp32_flops", numberOrNull(k.fp32Flops)},
                            {"duration_s", numberOrNull(k.durationSeconds)},
                            {"achieved_flops_per_second", numberOrNull(k.flopsPerSecond)}};
        for (session::MemoryLevel level : session::kMemoryLevels) {
            const session::LevelPoint& p = k.at(level);
            kernel[std::string(session::levelKey(level))] = {
                {"bytes", numberOrNull(p.bytes)},
                {"intensity", numberOrNull(p.intensity)}, // null when unbounded (0 bytes) or not measured
                {"bytes_per_second", numberOrNull(p.bytesPerSecond)},
                {"share_of_roof", numberOrNull(session::shareOfRoof(k, level, roofs))},
                {"plotted", p.plotted()},
                {"reason", p.plotted() ? ordered_json(nullptr) : ordered_json(std::string(session::gapCode(p.gap)))}};
        }
        kernels.push_back(std::move(kernel));
    }
    return ordered_json{{"roofs", roofsJson}, {"kernels", kernels}};
}

// A session may come from someone else: its strings must not drive the terminal. Control characters
// (C0 except newline and tab, DEL, and C1 as UTF-8, such as the escape that starts colour and cursor
// sequences) are printed as \xHH instead.
std::string terminalSafe(const std::string& text)
{
    static const char* hex = "0123456789abcdef";
    std::string out;
    out.reserve(text.size());
    auto escape = [&](unsigned char c) {
        out += "\\x";
        out += hex[c >> 4];
        out += hex[c & 0xF];
    };
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7F) {
            escape(c);
        } else if (c == 0xC2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
                   static_cast<unsigned char>(text[i + 1]) <= 0x9F) {
            escape(c);
            escape(static_cast<unsigned char>(text[++i]));
        } else {
            out += static_cast<char>(c);
        }
    }
    return out;
}

} // namespace

void printSessionSummary(const session::Session& s, std::ostream& out)
{
    out << "warpscope session (format version " << s.header.version << "), " << s.header.producer << ", "
        << s.header.createdUtc << (s.header.host.empty() ? "" : " on " + s.header.host) << "\n";
    for (const session::DeviceRecord& d : s.devices) {
        // A session imported from ncu knows the name and compute capability at most: what is unknown (0) is left out.
        out << "device " << d.ordinal << ": " << d.name << (d.chip.empty() ? "" : " (" + d.chip + ")")
            << ", compute capability ";
        // As the window's session view: 0 is what a session that did not record it holds.
        if (d.computeMajor > 0)
            out << d.computeMajor << "." << d.computeMinor;
        else
            out << "not recorded";
        if (d.smCount > 0)
            out << ", " << d.smCount << " SMs";
        if (d.coreClockKHz > 0)
            out << ", " << d.coreClockKHz / 1000 << " MHz";
        if (d.driverVersion > 0)
            out << "; driver " << d.driverVersion / 1000 << "." << d.driverVersion % 1000 / 10
                << (d.driverRelease.empty() ? "" : " (" + d.driverRelease + ")");
        if (d.toolkitVersion > 0)
            out << ", built with CUDA " << d.toolkitVersion / 1000 << "." << d.toolkitVersion % 1000 / 10;
        out << (d.cuptiVersion.empty() ? "" : ", CUPTI " + d.cuptiVersion) << "\n";
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
        if (session::mentionsSgemmReference(s)) {
            const session::SgemmReference reference = session::sgemmReference(s);
            row(out, "matmul reference", reference.status);
            if (reference.measured && !reference.method.empty())
                row(out, "", reference.method);
        }
    }
    const session::RooflineRoofs roofs = session::rooflineRoofs(s);
    const std::vector<session::KernelRoofline> rooflines = session::kernelRooflines(s);
    const std::vector<session::KernelComparison> comparisons = session::comparePredictions(s, nullptr, session::plainNumberText());
    if (!s.kernels.empty())
        printRoofs(roofs, out);
    printMatmulAgainstReference(s, out);
    for (const session::KernelRecord& k : s.kernels) {
        out << "\nkernel " << k.id << (k.title.empty() ? "" : " - " + k.title) << "  grid " << k.grid[0] << "," << k.grid[1]
            << "," << k.grid[2] << "  block " << k.block[0] << "," << k.block[1] << "," << k.block[2]
            << (k.compute.empty() ? "" : "  " + k.compute) // the virtual architecture its PTX was compiled for
            << (k.ptxHash.empty() ? "" : "  ptx " + k.ptxHash) << "\n";
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
            for (const session::KernelComparison& c : comparisons)
                if (c.kernel == k.id)
                    printComparison(c, out);
        }
        for (const session::KernelRoofline& r : rooflines)
            if (m && r.kernel == k.id)
                printKernelRoofline(r, roofs, out);
        if (m) {
            if (m->passes > 0)
                out << "  metrics (" << m->passes << " replay pass" << (m->passes == 1 ? "" : "es") << "):\n";
            else
                out << "  metrics (replay passes not recorded):\n";
            for (const auto& [name, value] : m->values) {
                const session::MetricInfo* info = session::findMetric(name);
                const std::string unit = info ? std::string(info->unit) : (m->units.count(name) ? m->units.at(name) : "");
                const std::string text = session::formatMetricValue(value, unit);
                // A metric outside the catalog is shown by its ncu name alone, as the window's table shows it.
                out << "    " << std::left << std::setw(30) << (info ? std::string(info->title) : "(not in the catalog)")
                    << std::setw(16) << (text.size() < 16 ? text : text + " ") << name << "\n";
            }
            for (const std::string& name : m->unavailable)
                out << "    " << std::left << std::setw(30) << (name.size() < 30 ? name : name + "  ") << "not available on this GPU\n";
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
    out << nlohmann::ordered_json{{"header", header},
                                  {"complete", read.complete},
                                  {"problems", read.problems},
                                  {"records", records},
                                  {"roofline", rooflineJson(read.session)},
                                  {"sgemm_reference", sgemmReferenceJson(read.session)},
                                  {"predicted_vs_measured", comparisonJson(read.session)}}
               .dump(2)
        << "\n";
}

int runSessionShow(const SessionShowOptions& options, std::ostream& out, std::ostream& err)
{
    const session::SessionReadResult read = session::readSessionFile(options.file);
    if (!read.headerSeen) {
        err << "warpscope session show: "
            << terminalSafe(read.problems.empty() ? options.file + ": not a session" : read.problems.front()) << "\n";
        return toInt(ExitCode::BadInput);
    }
    if (options.json) {
        printSessionJson(read, out); // JSON escapes control characters itself
    } else {
        std::ostringstream summary;
        printSessionSummary(read.session, summary);
        out << terminalSafe(summary.str());
    }
    for (const std::string& problem : read.problems)
        err << "warpscope session show: " << terminalSafe(problem) << "\n";
    return read.problems.empty() ? toInt(ExitCode::Ok) : toInt(ExitCode::Failure);
}

int runSessionImportNcu(const SessionImportNcuOptions& options, std::ostream& out, std::ostream& err)
{
    const char* const where = "warpscope session import-ncu: ";
    if (!options.out.empty()) {
        // The session must never replace the CSV it comes from.
        std::error_code error;
        if (std::filesystem::equivalent(options.out, options.file, error))
            throw InputError("--out: '" + options.out + "' is the CSV being imported (name another file for the session)");
    }
    session::NcuImport imported;
    try {
        imported = session::importNcuCsvFile(options.file);
    } catch (const InputError& error) {
        err << where << terminalSafe(error.what()) << "\n"; // the message quotes the file's own text
        return toInt(ExitCode::BadInput);
    }
    const session::Session& s = imported.session;
    std::ostringstream summary;
    summary << "imported " << s.kernels.size() << " launch" << (s.kernels.size() == 1 ? "" : "es") << " from "
            << options.file << " (Nsight Compute CSV, " << session::ncuLayoutName(imported.layout) << "): "
            << imported.knownMetrics.size() + imported.unknownMetrics.size() << " metrics, "
            << imported.knownMetrics.size() << " in Warpscope's catalog, " << imported.unknownMetrics.size()
            << " kept by their ncu name\n";
    if (!options.out.empty()) {
        AtomicFileWriter file(options.out);
        if (!file.open())
            throw InputError("--out: cannot write '" + options.out + "': " + file.error());
        session::SessionWriter(file.stream()).writeAll(s);
        if (!file.commit())
            throw std::runtime_error("writing '" + options.out + "' failed: " + file.error() +
                                     " (the earlier file, if any, is unchanged)");
        out << terminalSafe(summary.str()) << "wrote " << terminalSafe(options.out) << "\n";
        return toInt(ExitCode::Ok);
    }
    for (const std::string& note : imported.notes)
        summary << "  " << note << "\n";
    if (!imported.unknownMetrics.empty()) {
        summary << "kept by their ncu name (not in Warpscope's catalog):\n";
        for (const std::string& name : imported.unknownMetrics)
            summary << "  " << name << "\n";
    }
    summary << "\n";
    printSessionSummary(s, summary);
    out << terminalSafe(summary.str());
    return toInt(ExitCode::Ok);
}

int runSessionExport(const SessionExportOptions& options, std::ostream& out, std::ostream& err)
{
    const char* const where = "warpscope session export: ";
    if (options.perfetto.empty() && options.csv.empty())
        throw InputError("name what to write: --perfetto FILE.json and/or --csv FILE.csv");
    const session::SessionReadResult read = session::readSessionFile(options.file);
    if (!read.headerSeen) {
        err << where << terminalSafe(read.problems.empty() ? options.file + ": not a session" : read.problems.front()) << "\n";
        return toInt(ExitCode::BadInput);
    }
    for (const std::string& problem : read.problems)
        err << where << terminalSafe(problem) << "\n";
    bool written = true;
    const auto write = [&](const std::string& path, const auto& body) {
        AtomicFileWriter file(path);
        if (!file.open())
            throw InputError("cannot write '" + path + "': " + file.error());
        const std::string what = body(file.stream());
        if (!file.commit()) {
            err << where << "writing '" << terminalSafe(path) << "' failed: " << file.error()
                << " (the earlier file, if any, is unchanged)\n";
            written = false;
            return;
        }
        out << "wrote " << terminalSafe(path) << ": " << what << "\n";
    };
    if (!options.perfetto.empty())
        write(options.perfetto, [&](std::ostream& stream) {
            const session::SessionTraceCounts counts = session::writeSessionPerfetto(stream, read.session);
            return std::to_string(counts.kernelRuns) + " timed runs of " + std::to_string(read.session.activities.size()) +
                   " kernels and " + std::to_string(counts.copies) + " copies (open it at https://ui.perfetto.dev)";
        });
    if (!options.csv.empty())
        write(options.csv, [&](std::ostream& stream) {
            return std::to_string(session::writeMetricsCsv(stream, read.session)) + " metric values";
        });
    return !written || !read.problems.empty() ? toInt(ExitCode::Failure) : toInt(ExitCode::Ok);
}

int runSession(const SessionOptions& options, std::ostream& out, std::ostream& err)
{
    if (options.exportCommand != nullptr && options.exportCommand->parsed())
        return runSessionExport(options.exportTo, out, err);
    if (options.validateCommand != nullptr && options.validateCommand->parsed())
        return runSessionValidate(options.validate, out, err);
    if (options.importNcuCommand != nullptr && options.importNcuCommand->parsed())
        return runSessionImportNcu(options.importNcu, out, err);
    return runSessionShow(options.show, out, err);
}

} // namespace warpscope::cli
