#include "sim/perfetto_trace.h"

#include "sim/timing_model.h"
#include "util/input_error.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <bit>
#include <cstddef>
#include <map>
#include <set>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

namespace warpscope::sim {

namespace {

std::string quoted(const std::string& text) { return nlohmann::json(text).dump(); }

// The opcode: the instruction as written up to its first space ("ld.global.f32"), without a guard.
std::string opcodeOf(const std::string& text)
{
    std::string_view rest = text;
    if (!rest.empty() && rest.front() == '@') {
        const auto space = rest.find(' ');
        rest = space == std::string_view::npos ? std::string_view{} : rest.substr(space + 1);
    }
    const auto end = rest.find_first_of(" \t");
    return std::string(rest.substr(0, end));
}

struct Writer {
    std::ostream& out;
    double clockMHz;
    bool first = true;

    void begin() { out << "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n"; }
    void event(const std::string& body)
    {
        out << (first ? "" : ",\n") << '{' << body << '}';
        first = false;
    }
    std::string micros(std::uint64_t cycles) const
    {
        return nlohmann::json(static_cast<double>(cycles) / clockMHz).dump();
    }
    void slice(int pid, std::uint64_t tid, const std::string& name, const std::string& category, std::uint64_t start,
               std::uint64_t cycles, const std::string& args)
    {
        event("\"ph\":\"X\",\"pid\":" + std::to_string(pid) + ",\"tid\":" + std::to_string(tid) + ",\"name\":" +
              quoted(name) + ",\"cat\":" + quoted(category) + ",\"ts\":" + micros(start) + ",\"dur\":" + micros(cycles) +
              ",\"args\":{" + args + '}');
    }
    void metadata(int pid, std::uint64_t tid, const char* what, const std::string& name, bool thread)
    {
        event(std::string("\"ph\":\"M\",\"pid\":") + std::to_string(pid) + (thread ? ",\"tid\":" + std::to_string(tid) : "") +
              ",\"name\":\"" + what + "\",\"args\":{\"name\":" + quoted(name) + '}');
    }
};

} // namespace

PerfettoTraceCounts writePerfettoTrace(std::ostream& out, const Trace& trace, const ptx::Function& function,
                                       const PerfettoTraceInfo& info)
{
    if (!(info.clockMHz > 0))
        throw InputError("a Perfetto trace needs the preset's clock to turn cycles into time");
    PerfettoTraceCounts counts;
    Writer w{out, info.clockMHz};
    w.begin();

    // One thread id per (block, warp), numbered in order of appearance; each warp's first issue and
    // its last event bound its life.
    struct WarpLife {
        std::uint64_t tid = 0;
        std::uint16_t sm = 0;
        std::uint64_t first = 0, last = 0;
        std::uint64_t issued = 0;
        std::uint64_t drawnUntil = 0; // end of the last slice drawn inside the life: slices never overlap
    };
    std::map<std::pair<std::uint32_t, std::uint16_t>, WarpLife> warps;
    std::set<std::uint16_t> sms;
    for (const TraceEvent& e : trace.events) {
        auto [it, inserted] = warps.try_emplace({e.block, e.warp});
        WarpLife& life = it->second;
        if (inserted) {
            life.tid = warps.size();
            life.sm = e.sm;
            life.first = e.cycle - std::min<std::uint64_t>(e.cycle, e.stallCycles);
        }
        life.last = std::max(life.last, e.cycle + 1);
        life.issued += e.kind == TraceEventKind::Issue;
        sms.insert(e.sm);
    }
    for (const std::uint16_t sm : sms) {
        w.metadata(sm, 0, "process_name", "SM " + std::to_string(sm) + " (timing model)", false);
        w.event("\"ph\":\"M\",\"pid\":" + std::to_string(sm) + ",\"name\":\"process_sort_index\",\"args\":{\"sort_index\":" +
                std::to_string(sm) + '}');
    }
    for (const auto& [key, life] : warps) {
        const std::string block = launch::formatIndex(launch::indexFromLinear(key.first, info.grid));
        w.metadata(life.sm, life.tid, "thread_name", "block " + block + " warp " + std::to_string(key.second), true);
        w.slice(life.sm, life.tid, "warp " + std::to_string(key.second) + " of block " + block, "warp", life.first,
                life.last - life.first,
                "\"kernel\":" + quoted(info.kernelName) + ",\"instructions issued\":" + std::to_string(life.issued));
    }
    for (const TraceEvent& e : trace.events) {
        WarpLife& life = warps.at({e.block, e.warp});
        const std::uint64_t tid = life.tid;
        if (e.stallCycles > 0 && e.kind == TraceEventKind::Issue) {
            const std::uint64_t from = std::max(life.drawnUntil, e.cycle - std::min<std::uint64_t>(e.cycle, e.stallCycles));
            if (from < e.cycle) {
                const char* reason = stallReasonName(static_cast<StallReason>(e.stallReason));
                w.slice(e.sm, tid, std::string("stall: ") + reason, "stall", from, e.cycle - from,
                        "\"cycles\":" + std::to_string(e.stallCycles));
                ++counts.stallSlices;
            }
        }
        if (e.kind != TraceEventKind::Issue)
            continue;
        const bool known = e.pc >= 0 && static_cast<std::size_t>(e.pc) < function.instructions.size();
        const ptx::Instruction* instruction = known ? &function.instructions[static_cast<std::size_t>(e.pc)] : nullptr;
        std::string args = "\"pc\":" + std::to_string(e.pc) + ",\"cycle\":" + std::to_string(e.cycle) +
                           ",\"active lanes\":" + std::to_string(std::popcount(e.activeMask)) +
                           ",\"executed lanes\":" + std::to_string(std::popcount(e.executedMask));
        if (instruction) {
            args += ",\"ptx\":" + quoted(instruction->text) + ",\"ptx line\":" + std::to_string(instruction->ptxLine);
            if (instruction->source.line > 0)
                args += ",\"source line\":" + std::to_string(instruction->source.line);
        }
        if (e.memory >= 0 && static_cast<std::size_t>(e.memory) < trace.memory.size()) {
            const TraceMemoryAccess& access = trace.memory[static_cast<std::size_t>(e.memory)];
            args += ",\"sectors\":" + std::to_string(access.sectors) + ",\"wavefronts\":" + std::to_string(access.wavefronts);
        }
        w.slice(e.sm, tid, instruction ? opcodeOf(instruction->text) : "pc " + std::to_string(e.pc), "instruction", e.cycle, 1,
                args);
        life.drawnUntil = std::max(life.drawnUntil, e.cycle + 1);
        ++counts.instructionSlices;
    }
    out << "\n],\"metadata\":{\"kernel\":" << quoted(info.kernelName) << ",\"gpu preset\":" << quoted(info.presetName)
        << ",\"clock MHz\":" << nlohmann::json(info.clockMHz).dump()
        << ",\"source\":\"warpscope sim: the timing model's issue cycles (a model, not a measurement; core/sim/timing_model.h)\""
        << ",\"truncated\":" << (trace.truncated ? "true" : "false") << "}}\n";
    counts.warps = warps.size();
    counts.sms = sms.size();
    return counts;
}

} // namespace warpscope::sim
