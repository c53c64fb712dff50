#include "cli/cli_step.h"

#include "launch/launch_geometry.h"
#include "sim/fragment_tiles.h"
#include "util/input_error.h"
#include "util/parse.h"

#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <ostream>
#include <string>

namespace warpscope::cli {

namespace {

nlohmann::ordered_json realJson(double value)
{
    if (std::isnan(value))
        return "nan";
    if (std::isinf(value))
        return value > 0 ? "inf" : "-inf";
    return value;
}

// Independent thread scheduling: each lane's next pc in the state shown (null: exited or no thread),
// the warp's groups of lanes then, and the lanes the scheduler runs for its next instruction.
void addLanePcsJson(nlohmann::ordered_json& doc, const sim::BlockRecording& recording, std::int32_t warp, std::size_t position)
{
    const std::optional<sim::LaneSchedule> schedule = sim::laneScheduleAt(recording, position, warp);
    if (!schedule)
        return; // not recorded with independent thread scheduling
    nlohmann::ordered_json pcs = nlohmann::ordered_json::array();
    for (const std::int32_t pc : schedule->pc)
        pcs.push_back(pc < 0 ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(pc));
    doc["lane_pcs"] = pcs;
    doc["groups"] = schedule->groups;
    doc["next_group"] = schedule->nextGroup != 0 ? nlohmann::ordered_json(maskText(schedule->nextGroup))
                                                 : nlohmann::ordered_json(nullptr);
}

} // namespace

std::string maskText(std::uint32_t mask)
{
    char text[16];
    std::snprintf(text, sizeof text, "0x%08x", mask);
    return text;
}

nlohmann::ordered_json registerLanesJson(const std::uint64_t* lanes, ptx::Type type, std::uint32_t existMask)
{
    nlohmann::ordered_json values = nlohmann::ordered_json::array();
    const int bits = ptx::typeBits(type);
    for (int lane = 0; lane < 32; ++lane) {
        if (((existMask >> lane) & 1u) == 0) {
            values.push_back(nullptr);
            continue;
        }
        const std::uint64_t raw = lanes[lane];
        switch (type) {
        case ptx::Type::Pred:
            values.push_back(raw & 1u);
            break;
        case ptx::Type::F32: {
            const auto bitsValue = static_cast<std::uint32_t>(raw);
            float value;
            std::memcpy(&value, &bitsValue, sizeof value);
            values.push_back(realJson(value));
            break;
        }
        case ptx::Type::F64: {
            double value;
            std::memcpy(&value, &raw, sizeof value);
            values.push_back(realJson(value));
            break;
        }
        default: {
            const std::uint64_t masked = bits >= 64 ? raw : raw & ((1ull << bits) - 1);
            if (ptx::isSigned(type) && bits < 64 && ((masked >> (bits - 1)) & 1u))
                values.push_back(static_cast<std::int64_t>(masked | ~((1ull << bits) - 1)));
            else if (ptx::isSigned(type))
                values.push_back(static_cast<std::int64_t>(masked));
            else
                values.push_back(masked);
        }
        }
    }
    return values;
}

nlohmann::ordered_json stepStateJson(const sim::BlockReplay& replay, const ptx::Module& module, const ptx::Function& function,
                             std::int32_t warp, std::size_t position)
{
    const sim::BlockRecording& recording = replay.recording();
    const sim::WarpSnapshot snapshot = replay.warp(warp);
    nlohmann::ordered_json doc;
    doc["step"] = snapshot.stepsDone;
    doc["position"] = position;
    doc["warp_status"] = sim::warpStatusName(snapshot.status);
    doc["exited_mask"] = maskText(snapshot.exitedMask);
    const sim::RecordedStep* step = position < recording.steps.size() && recording.steps[position].warp == static_cast<std::uint32_t>(warp)
                                        ? &recording.steps[position] : nullptr;
    const std::int32_t pc = step ? step->pc : snapshot.pc;
    const bool validPc = pc >= 0 && static_cast<std::size_t>(pc) < function.instructions.size();
    const ptx::Instruction* instruction = validPc ? &function.instructions[static_cast<std::size_t>(pc)] : nullptr;
    doc["pc"] = pc;
    doc["ptx"] = instruction ? nlohmann::ordered_json(instruction->text) : nlohmann::ordered_json(nullptr);
    doc["ptx_line"] = instruction ? nlohmann::ordered_json(instruction->ptxLine) : nlohmann::ordered_json(nullptr);
    if (instruction && instruction->source.line > 0) {
        doc["line"] = instruction->source.line;
        auto file = module.files.find(instruction->source.file);
        doc["file"] = file == module.files.end() ? "" : std::filesystem::path(file->second).filename().string();
    } else {
        doc["line"] = nullptr;
        doc["file"] = nullptr;
    }
    doc["active_mask"] = maskText(step ? step->executedMask : snapshot.activeMask);
    doc["path_mask"] = maskText(step ? step->activeMask : snapshot.activeMask);
    nlohmann::ordered_json stack = nlohmann::ordered_json::array();
    for (const sim::StackEntry& entry : snapshot.stack)
        stack.push_back({{"pc", entry.pc},
                         {"reconvergence_pc", entry.reconvergePc < 0 ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(entry.reconvergePc)},
                         {"mask", maskText(entry.mask)}});
    doc["stack"] = stack;
    nlohmann::ordered_json registers = nlohmann::ordered_json::object();
    for (std::size_t r = 0; r < function.registers.size(); ++r)
        registers[function.registers[r].name] =
            registerLanesJson(replay.registers(warp, static_cast<std::int32_t>(r)), function.registers[r].type, snapshot.existMask);
    doc["registers"] = registers;
    // CC.CF, each lane's carry flag, for kernels with add.cc, addc and the other extended-precision forms.
    if (sim::usesCarryFlag(function))
        doc["carry_mask"] = maskText(snapshot.carryFlags);
    if (step && step->access >= 0) {
        const sim::RecordedAccess& access = recording.accesses[static_cast<std::size_t>(step->access)];
        nlohmann::ordered_json lanes = nlohmann::ordered_json::array();
        for (int lane = 0; lane < 32; ++lane)
            if ((access.laneMask >> lane) & 1u)
                lanes.push_back({{"lane", lane}, {"address", access.addresses[static_cast<std::size_t>(lane)]}});
        doc["access"] = {{"space", ptx::spaceName(access.space)},
                         {"kind", access.isAtomic ? "atomic" : access.isStore ? "store" : "load"},
                         {"bytes_per_lane", access.bytesPerLane},
                         {"lanes", lanes},
                         {"requests", access.requests},
                         {"sectors", access.sectors},
                         {"lines", access.lines},
                         {"bytes_requested", access.bytesRequested},
                         {"bytes_moved", access.bytesMoved},
                         {"wavefronts", access.wavefronts},
                         {"bank_conflicts", access.bankConflicts},
                         {"conflict_degree", access.conflictDegree}};
        // Where the timing model's caches served the sectors (global accesses; null without timing).
        // Matrix instructions count several requests per access: the plain "lanes x bytes" total needs
        // the caption's breakdown to read right (lesson 07's rule holds per request).
        std::string caption = instruction ? sim::tensor::matrixAccessCaption(*instruction, access) : std::string();
        if (const std::size_t figure = caption.find(" The figure shows"); figure != std::string::npos)
            caption.erase(figure); // the GUI's figure; the CLI lists every lane in --json
        doc["access"]["caption"] = caption.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(caption);
        if (access.timed && access.space == ptx::Space::Global)
            doc["access"]["served"] = {{"l1_hit_sectors", access.l1Sectors},
                                       {"l2_sectors", access.l2Sectors},
                                       {"dram_sectors", access.dramSectors}};
        else
            doc["access"]["served"] = nullptr;
    } else {
        doc["access"] = nullptr;
    }
    if (step && step->hazard >= 0) {
        const sim::Hazard& hazard = recording.hazards[static_cast<std::size_t>(step->hazard)].hazard;
        nlohmann::ordered_json lanes = nlohmann::ordered_json::array(); // every lane involved, where known
        for (std::uint32_t lane = 0; lane < 32; ++lane)
            if ((hazard.lanes >> lane) & 1u)
                lanes.push_back(lane);
        doc["hazard"] = {{"kind", sim::hazardKindName(hazard.kind)},
                         {"lane", hazard.lane},
                         {"lanes", lanes},
                         {"address", hazard.address},
                         {"buffer", hazard.buffer},
                         {"message", hazard.message}};
    } else {
        doc["hazard"] = nullptr;
    }
    doc["cycle_model"] = step ? nlohmann::ordered_json(step->cycle) : nlohmann::ordered_json(nullptr);
    // What the block's threads printed before this position (every warp's), oldest first.
    nlohmann::ordered_json printed = nlohmann::ordered_json::array();
    const std::size_t lines = recording.printfsBefore(position);
    for (std::size_t i = 0; i < lines; ++i) {
        const sim::RecordedPrintf& line = recording.printfs[i];
        printed.push_back({{"step", line.step},
                           {"warp", line.warp},
                           {"lane", line.lane},
                           {"thread", {line.thread.x, line.thread.y, line.thread.z}},
                           {"text", line.text}});
    }
    doc["printf"] = printed;
    return doc;
}

// A cooperative launch's grid barriers (sim/grid_barrier.h): every wait of the block, and the one it
// waited at between the warp's previous instruction and this one (null when none).
void addGridWaitsJson(nlohmann::ordered_json& doc, const sim::BlockRecording& recording, std::int32_t warp, std::uint32_t at,
                      std::size_t position)
{
    const auto& mine = recording.stepsOfWarp[static_cast<std::size_t>(warp)];
    const std::size_t previous = at > 0 && at - 1 < mine.size() ? mine[at - 1] : 0;
    nlohmann::ordered_json waits = nlohmann::ordered_json::array();
    doc["grid_wait_before_this_step"] = nullptr;
    for (const sim::RecordedGridWait& wait : recording.gridWaits) {
        const nlohmann::ordered_json entry = {{"position", wait.step},
                                              {"grid_sync", wait.barrier + 1},
                                              {"arrived", wait.arrived},
                                              {"blocks", wait.blocks},
                                              {"not_arrived", wait.notArrived}};
        if ((at == 0 || wait.step > previous) && wait.step <= position)
            doc["grid_wait_before_this_step"] = entry;
        waits.push_back(entry);
    }
    doc["grid_waits"] = waits;
}

CLI::App* addStepCommand(CLI::App& app, StepOptions& options)
{
    CLI::App* command = app.add_subcommand(
        "step", "Show one warp's state before one of its warp-instructions: masks, stack, registers, memory access");
    addLaunchOptions(command, options);
    command->add_option("--block-index", options.blockIndex, "blockIdx of the block to step: X[,Y[,Z]] (missing components 0)")
        ->capture_default_str();
    command->add_option("--warp", options.warp, "the warp within the block, from 0")->capture_default_str();
    command->add_option("--at", options.at, "the warp's instruction number, from 0: the state before it")->capture_default_str();
    command->add_option("--block-budget", options.blockBudget,
                        "stop when one block has issued this many warp-instructions (an endless loop)")
        ->capture_default_str();
    command->add_flag("--json", options.json, "print one JSON object");
    return command;
}

int runStep(const StepOptions& options, std::ostream& out, std::ostream& err)
{
    sim::SimOptions simOptions;
    simOptions.blockStepBudget = static_cast<std::uint64_t>(parseInteger(options.blockBudget, "--block-budget", 1, INT64_MAX));
    simOptions.hostThreads = 1;
    std::optional<PreparedLaunch> compiled = prepareLaunch(options, simOptions, err);
    if (!compiled)
        return 1;
    PreparedLaunch& prepared = *compiled;
    const kernels::DemoLaunch& launch = prepared.resolved.launch;
    const launch::Dim3 blockIndex = launch::parseIndex(options.blockIndex, "--block-index", launch.grid);
    const std::int64_t linearBlock = launch::linearIndex(blockIndex, launch.grid);
    const std::int64_t warpCount = (launch.block.volume() + 31) / 32;
    const auto warp = static_cast<std::int32_t>(parseInteger(options.warp, "--warp", 0, warpCount - 1));
    const auto at = static_cast<std::uint64_t>(parseInteger(options.at, "--at", 0, INT64_MAX));

    sim::LaunchRequest request = std::move(prepared.request);
    request.options.recordBlock = linearBlock;
    // The cycles shown are the timing model's at ptxas's registers, as in sim and the window (they
    // bound how many loads a warp keeps in flight); 32 stay assumed without ptxas. --cooperative has
    // already raised the count where ptxas's is higher.
    if (const int registers = ptxasRegisters(prepared.resolved, prepared.preset); registers > 0 && !options.cooperative)
        request.options.registersPerThread = registers;
    const sim::WarpModel warpModel = request.options.warpModel;
    refuseEndlessWork(options, request, "step through a smaller grid (to show one block, the stepper simulates every block of the launch)");
    const sim::SimResult result = sim::simulate(std::move(request));
    if (!result.recording)
        throw std::runtime_error("the simulator did not reach block " + launch::formatIndex(blockIndex) + ": " +
                                 result.statusMessage);
    const ptx::Function& function = *prepared.resolved.function;
    sim::BlockReplay replay(result.recording, function.registers.size());
    const auto& mine = result.recording->stepsOfWarp[static_cast<std::size_t>(warp)];
    const auto found = at <= mine.size() ? replay.positionOf(warp, static_cast<std::uint32_t>(at)) : std::nullopt;
    if (!found)
        throw InputError("--at " + std::to_string(at) + ": warp " + std::to_string(warp) + " of block " +
                         launch::formatIndex(blockIndex) + " issued " + withThousands(static_cast<std::int64_t>(mine.size())) +
                         " warp-instructions (allowed: 0.." + std::to_string(mine.size()) + ", where " +
                         std::to_string(mine.size()) + " is the state after the last)" +
                         (result.recording->truncated ? "; the recording was cut short at its size limit" : ""));
    const std::size_t position = *found;
    replay.seek(position);
    nlohmann::ordered_json doc = stepStateJson(replay, *prepared.resolved.module, function, warp, position);
    doc["kernel"] = prepared.resolved.kernelName;
    doc["entry"] = function.name;
    doc["block_index"] = {blockIndex.x, blockIndex.y, blockIndex.z};
    doc["warp"] = warp;
    doc["steps_in_warp"] = mine.size();
    doc["sim_status"] = result.status == sim::SimStatus::Completed ? "completed" : result.statusMessage;
    if (options.cooperative)
        addGridWaitsJson(doc, *result.recording, warp, static_cast<std::uint32_t>(at), position);
    doc["warp_model"] = warpModelName(warpModel);
    if (warpModel == sim::WarpModel::IndependentThreads)
        addLanePcsJson(doc, *result.recording, warp, position);
    if (result.status != sim::SimStatus::Completed)
        err << "warpscope step: " << result.statusMessage << "\n";
    if (const sim::Hazard* livelock = findLivelock(result.hazards)) // the state is still shown: where it spins
        err << "warpscope step: livelock: " << sim::describeHazard(*livelock) << "\n";
    if (options.json) {
        out << doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
        return 0;
    }
    out << prepared.resolved.kernelName << "  block " << launch::formatIndex(blockIndex) << "  warp " << warp << "  step "
        << at << " of " << mine.size() << "  (" << doc["warp_status"].get<std::string>() << ")\n";
    if (!doc["ptx"].is_null())
        out << "  next      " << doc["ptx"].get<std::string>()
            << (doc["line"].is_null() ? "" : "    // line " + std::to_string(doc["line"].get<int>())) << "\n";
    out << "  active    " << doc["active_mask"].get<std::string>() << " (path " << doc["path_mask"].get<std::string>()
        << ", exited " << doc["exited_mask"].get<std::string>() << ")\n";
    out << "  stack     ";
    for (const auto& entry : doc["stack"])
        out << "[pc " << entry["pc"] << " until " << (entry["reconvergence_pc"].is_null() ? std::string("exit") : entry["reconvergence_pc"].dump())
            << " mask " << entry["mask"].get<std::string>() << "] ";
    out << "\n";
    if (doc.contains("lane_pcs")) { // independent thread scheduling: each lane's own pc
        out << "  lane pcs ";
        for (const auto& pc : doc["lane_pcs"])
            out << " " << (pc.is_null() ? std::string("-") : pc.dump());
        out << "\n  groups    " << doc["groups"].get<std::uint32_t>() << ", next to run "
            << (doc["next_group"].is_null() ? std::string("none") : doc["next_group"].get<std::string>()) << "\n";
    }
    if (!doc["access"].is_null()) {
        const auto& access = doc["access"];
        if (!access["caption"].is_null()) {
            // A matrix instruction: its requests, wavefronts and conflicts, per request and all told.
            out << "  access    " << access["caption"].get<std::string>() << "\n";
        } else {
            out << "  access    " << access["space"].get<std::string>() << " " << access["kind"].get<std::string>() << ", "
                << access["lanes"].size() << " lanes x " << access["bytes_per_lane"] << " bytes: ";
            if (access["space"] == "shared")
                out << access["wavefronts"] << " wavefronts, " << access["bank_conflicts"] << " bank conflicts\n";
            else
                out << access["requests"] << (access["requests"] == 1 ? " request, " : " requests, ") << access["sectors"]
                    << " sectors, " << access["bytes_moved"] << " bytes moved for " << access["bytes_requested"] << " requested\n";
        }
    }
    if (!doc["hazard"].is_null())
        out << "  hazard    " << doc["hazard"]["kind"].get<std::string>() << ": " << doc["hazard"]["message"].get<std::string>() << "\n";
    if (doc.contains("grid_wait_before_this_step") && !doc["grid_wait_before_this_step"].is_null()) {
        const auto& wait = doc["grid_wait_before_this_step"];
        out << "  grid      before this step the block waited at grid.sync() number " << wait["grid_sync"] << ": "
            << wait["arrived"] << " of " << wait["blocks"] << " blocks had arrived; the others ran until all had\n";
    }
    if (!doc["printf"].empty()) {
        out << "  printf    " << doc["printf"].size() << " line" << (doc["printf"].size() == 1 ? "" : "s")
            << " printed so far in the block\n";
        for (const auto& line : doc["printf"]) {
            std::string text = line["text"].get<std::string>();
            if (text.ends_with('\n'))
                text.pop_back();
            out << "    thread " << launch::formatIndex({line["thread"][0].get<std::int64_t>(), line["thread"][1].get<std::int64_t>(),
                                                         line["thread"][2].get<std::int64_t>()})
                << ": " << text << "\n";
        }
    }
    if (doc.contains("carry_mask"))
        out << "  carry     CC.CF " << doc["carry_mask"].get<std::string>() << " (bit = lane)\n";
    out << "  registers (lane 0 .. 3)\n";
    for (const auto& [name, lanes] : doc["registers"].items()) {
        out << "    " << name << " ";
        for (int lane = 0; lane < 4 && lane < static_cast<int>(lanes.size()); ++lane)
            out << " " << lanes[static_cast<std::size_t>(lane)].dump();
        out << "\n";
    }
    return 0;
}

} // namespace warpscope::cli
