#include "cli/cli_compile.h"

#include "cli/exit_codes.h"
#include "ptx/cuda_compiler.h"
#include "ptx/ptx_ir.h"
#include "ptx/ptx_parser.h"
#include "ptx/sass.h"
#include "util/atomic_file.h"
#include "util/input_error.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>
#include <exception>
#include <stdexcept>
#include <system_error>

#include <unistd.h>

namespace warpscope::cli {

CLI::App* addCompileCommand(CLI::App& app, CompileOptions& options)
{
    CLI::App* command = app.add_subcommand(
        "compile",
        "Compile CUDA C++ to PTX with NVRTC (no GPU needed). Errors print as "
        "file:line:column: severity: message, one per line; exit 1 when the source has errors.");
    command->add_option("file", options.file, "CUDA C++ source file (.cu)")->required();
    command->add_option("--arch", options.arch,
                        "virtual architecture of the PTX: compute_75 (T4), compute_80 (A100), "
                        "compute_86, compute_89, compute_90 (H100), ...; an unknown one lists what "
                        "this NVRTC supports. sm_XX (sm_90) means compute_XX for the PTX and that GPU "
                        "for --sass")
        ->capture_default_str();
    command->add_option("--out", options.out, "write the PTX to this file instead of standard output");
    command->add_flag("--check", options.check,
                      "list every construct of the module the simulator does not support yet (FILE may also be "
                      ".ptx) and which kernels can run; exit 1 when there is any");
    command->add_flag("--sass", options.sass,
                      "print the SASS ptxas makes for the GPU of --arch (sm_XX; FILE may also be .ptx): each "
                      "kernel's registers, spills and static shared memory, then its instructions under their "
                      "source lines and PTX lines (needs ptxas and nvdisasm; scripts/setup.sh installs nvdisasm)");
    command->add_flag("--json", options.json, "with --sass: the same as JSON");
    return command;
}

namespace {

// Bad --out values fail before compiling, so that they are reported alone and exit 2.
void checkOutputPath(const std::string& out, const std::string& source)
{
    namespace fs = std::filesystem;
    const fs::path path(out);
    std::error_code error;
    if (fs::is_directory(path, error))
        throw InputError("--out: '" + out + "' is a folder (name a .ptx file)");
    const fs::path folder = path.has_parent_path() ? path.parent_path() : fs::path(".");
    if (!fs::is_directory(folder, error))
        throw InputError("--out: folder of '" + out + "' does not exist");
    if (fs::exists(path, error)) {
        if (fs::equivalent(path, fs::path(source), error))
            throw InputError("--out: '" + out + "' is the source file (name another file for the PTX)");
        if (::access(path.c_str(), W_OK) != 0)
            throw InputError("--out: cannot write '" + out + "': " + std::strerror(errno));
    } else if (::access(folder.c_str(), W_OK) != 0) {
        throw InputError("--out: cannot create '" + out + "': " + std::strerror(errno));
    }
}

// --out: written beside the target and renamed over it, so a failed write keeps the earlier file.
void writePtx(const std::string& path, const std::string& ptx)
{
    AtomicFileWriter file(path);
    if (!file.open())
        throw InputError("--out: cannot write '" + path + "': " + file.error());
    file.stream() << ptx;
    if (!file.commit())
        throw std::runtime_error("writing '" + path + "' failed: " + file.error() + " (the earlier file, if any, is unchanged)");
}

void printDiagnostics(const ptx::CompileResult& result, const std::string& file, std::ostream& err)
{
    for (const auto& diagnostic : result.diagnostics)
        err << ptx::formatDiagnostic(diagnostic) << "\n";
    if (result.ok || !result.diagnostics.empty())
        return;
    // A failure whose log this version does not understand: show the log as it is.
    if (result.log.find_first_not_of(" \t\r\n") != std::string::npos)
        err << result.log << (result.log.ends_with('\n') ? "" : "\n");
    else
        err << file << ": error: NVRTC reported a failed compilation without a message\n";
}

std::string readText(const std::string& path)
{
    std::ifstream file(path, std::ios::binary);
    if (!file || std::filesystem::is_directory(path))
        throw InputError("cannot read '" + path + "'");
    std::stringstream text;
    text << file.rdbuf();
    return text.str();
}

// --check: what in the module the simulator cannot run yet, and which kernels that stops.
int reportSupport(const std::string& file, const std::string& ptxText, std::ostream& out)
{
    ptx::Module module;
    try {
        module = ptx::parseModule(ptxText);
    } catch (const InputError& error) {
        throw InputError(file + ": " + error.what());
    }
    const std::vector<const ptx::UnsupportedConstruct*> constructs = module.allUnsupported();
    for (const ptx::UnsupportedConstruct* construct : constructs)
        out << file << ": " << ptx::describeUnsupported(module, *construct) << "\n";
    for (const std::string& entry : module.entryNames()) {
        const std::vector<const ptx::UnsupportedConstruct*> found = module.unsupportedFor(*module.findFunction(entry));
        const std::size_t blocking = found.size();
        // grid.sync() runs, but only in a cooperative launch (sim and step --cooperative).
        const bool cooperative = static_cast<bool>(ptx::findGridWorkspaceRead(module, *module.findFunction(entry)));
        out << file << ": kernel " << entry
            << (blocking == 0 ? std::string(" can run on the simulator") +
                                    (cooperative ? " in a cooperative launch (--cooperative): it synchronises the whole grid" : "")
                              : " cannot run yet (" + std::to_string(blocking) + " unsupported construct" +
                                    (blocking == 1 ? ")" : "s)"))
            << "\n";
    }
    if (constructs.empty())
        out << file << ": every construct is supported by the simulator\n";
    return toInt(constructs.empty() ? ExitCode::Ok : ExitCode::Failure);
}

// --- --sass ---------------------------------------------------------------------------------------

std::string locationText(const ptx::SassInstruction& instruction)
{
    std::string text;
    for (std::size_t i = 0; i < instruction.lines.size(); ++i) {
        const ptx::SassLocation& line = instruction.lines[i];
        const std::string name = std::filesystem::path(line.file).filename().string();
        text += (i == 0 ? "" : " inlined at ") + name + ":" + std::to_string(line.line);
    }
    return text.empty() ? std::string("no source line") : text;
}

const char* spaceName(ptx::SassSpace space)
{
    switch (space) {
    case ptx::SassSpace::Shared: return "shared";
    case ptx::SassSpace::Global: return "global";
    case ptx::SassSpace::Local: return "local";
    case ptx::SassSpace::Generic: return "generic";
    case ptx::SassSpace::Constant: return "constant";
    }
    return "generic";
}

template <typename Json>
Json resourcesJson(const ptx::PtxasResources* resources)
{
    if (!resources)
        return nullptr;
    return {{"registers", resources->registers >= 0 ? Json(resources->registers) : Json(nullptr)},
            {"static_shared_bytes", resources->staticSharedBytes},
            {"stack_frame_bytes", resources->stackFrameBytes},
            {"spill_store_bytes", resources->spillStoreBytes},
            {"spill_load_bytes", resources->spillLoadBytes},
            {"local_bytes", resources->localBytes},
            {"constant_bytes", resources->constantBytes},
            {"barriers", resources->barriers}};
}

nlohmann::ordered_json instructionJson(const ptx::SassInstruction& instruction, const ptx::PtxLinesBySource& index)
{
    nlohmann::ordered_json row{{"offset", instruction.offset},
                               {"text", instruction.text()},
                               {"opcode", instruction.opcode},
                               {"predicate", instruction.predicate},
                               {"operands", instruction.operands}};
    if (!instruction.label.empty())
        row["label"] = instruction.label;
    if (const ptx::SassLocation* line = ptx::learnerLine(instruction)) {
        row["file"] = line->file;
        row["line"] = line->line;
    } else {
        row["file"] = nullptr;
        row["line"] = nullptr;
    }
    nlohmann::ordered_json chain = nlohmann::ordered_json::array();
    for (const ptx::SassLocation& location : instruction.lines)
        chain.push_back({{"file", location.file}, {"line", location.line}});
    row["lines"] = chain; // innermost first
    row["ptx_lines"] = ptxLinesOf(index, instruction);
    if (const auto access = ptx::sassMemoryAccess(instruction))
        row["memory"] = {{"space", spaceName(access->space)}, {"load", access->load}, {"store", access->store},
                         {"width_bits", access->widthBits}};
    return row;
}

// The PTX's line map, for each SASS line's PTX lines; a module the parser cannot read has none.
std::optional<ptx::Module> parseForLines(const std::string& ptxText)
{
    try {
        return ptx::parseModule(ptxText);
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

ptx::PtxLinesBySource linesOf(const std::optional<ptx::Module>& module, const std::string& function)
{
    if (!module)
        return {};
    const ptx::Function* found = module->findFunction(function);
    return found ? ptx::ptxLinesBySource(*module, *found) : ptx::PtxLinesBySource{};
}

int printSass(const CompileOptions& options, const std::string& sassArch, const std::string& ptxText,
              std::ostream& out, std::ostream& err)
{
    ptx::SassOptions sassOptions;
    sassOptions.arch = sassArch;
    sassOptions.ptxName = options.file;
    ptx::SassListing listing;
    try {
        listing = ptx::compileSass(ptxText, sassOptions);
    } catch (const ptx::SassToolMissing& error) {
        err << options.file << ": " << error.what() << "\n";
        return toInt(ExitCode::Failure);
    } catch (const ptx::SassToolFailed& error) {
        err << error.what() << "\n";
        return toInt(ExitCode::Failure);
    }
    const std::optional<ptx::Module> module = parseForLines(ptxText);
    if (options.json) {
        nlohmann::ordered_json functions = nlohmann::ordered_json::array();
        for (const ptx::SassFunction& function : listing.functions) {
            const ptx::PtxLinesBySource index = linesOf(module, function.name);
            nlohmann::ordered_json instructions = nlohmann::ordered_json::array();
            for (const ptx::SassInstruction& instruction : function.instructions)
                instructions.push_back(instructionJson(instruction, index));
            functions.push_back({{"name", function.name},
                                 {"entry", function.entry},
                                 {"ptxas", resourcesJson<nlohmann::ordered_json>(listing.findResources(function.name))},
                                 {"instructions", std::move(instructions)}});
        }
        const nlohmann::ordered_json document{{"file", options.file},
                                              {"arch", listing.arch},
                                              {"source", "ptxas -lineinfo -v, then nvdisasm -gi -c"},
                                              {"functions", std::move(functions)}};
        out << document.dump(2) << "\n";
        return toInt(ExitCode::Ok);
    }
    out << "// SASS for " << listing.arch << " of " << options.file << " (ptxas -lineinfo -v, nvdisasm -gi -c)\n";
    for (const ptx::SassFunction& function : listing.functions) {
        out << "\n" << (function.entry ? "kernel " : "function ") << function.name << ": "
            << function.instructions.size() << " instructions";
        if (const ptx::PtxasResources* resources = listing.findResources(function.name))
            out << "; " << ptx::describeResources(*resources);
        out << "\n";
        const ptx::PtxLinesBySource index = linesOf(module, function.name);
        std::string previous;
        for (const ptx::SassInstruction& instruction : function.instructions) {
            const std::string where = locationText(instruction);
            if (where != previous) {
                const std::vector<std::int32_t> ptxLines = ptxLinesOf(index, instruction);
                out << "  // " << where
                    << (ptxLines.empty() ? std::string() : std::string(ptxLines.size() == 1 ? " (PTX line " : " (PTX lines ") + ptx::lineRanges(ptxLines) + ")") << "\n";
                previous = where;
            }
            if (!instruction.label.empty())
                out << "  " << instruction.label << ":\n";
            char offset[16];
            std::snprintf(offset, sizeof offset, "/*%04x*/", static_cast<unsigned>(instruction.offset));
            out << "    " << offset << "  " << instruction.text() << " ;\n";
        }
    }
    return toInt(ExitCode::Ok);
}

} // namespace

nlohmann::json ptxasResourcesJson(const std::string& ptxText, const std::string& kernel, const std::string& smArch)
{
    nlohmann::json entry{{"source", "ptxas -v for " + smArch + " (what the GPU runs; PTX does not fix registers)"}};
    try {
        ptx::SassOptions options;
        options.arch = smArch;
        options.ptxName = kernel + ".ptx";
        const std::vector<ptx::PtxasResources> all = ptx::ptxasResources(ptxText, options);
        const auto found = std::find_if(all.begin(), all.end(),
                                        [&](const ptx::PtxasResources& resources) { return resources.function == kernel; });
        if (found == all.end()) {
            entry["unavailable"] = "ptxas reported no function named " + kernel;
            return entry;
        }
        entry.update(resourcesJson<nlohmann::json>(&*found));
    } catch (const std::exception& error) {
        entry["unavailable"] = error.what(); // a missing or failing ptxas: the simulation stands without it
    }
    return entry;
}

int runCompile(const CompileOptions& options, std::ostream& out, std::ostream& err)
{
    // sm_XX names the GPU; its PTX is compute_XX.
    const std::string virtualArch = options.arch.starts_with("sm_") ? "compute_" + options.arch.substr(3) : options.arch;
    if (!ptx::isKnownVirtualArch(virtualArch))
        throw InputError("--arch: unknown architecture '" + options.arch + "' (allowed: " +
                         ptx::supportedVirtualArchList() + ", or sm_XX for the same numbers)");
    if (options.json && !options.sass)
        throw InputError("--json: only with --sass (the PTX itself is printed as text)");
    if (options.sass && options.check)
        throw InputError("--sass: not with --check (run them one at a time)");
    if (!options.out.empty())
        checkOutputPath(options.out, options.file);
    const std::string sassArch = "sm_" + virtualArch.substr(std::string("compute_").size());
    const bool ptxInput = std::filesystem::path(options.file).extension() == ".ptx";

    if (options.check && ptxInput)
        return reportSupport(options.file, readText(options.file), out);
    if (options.sass && ptxInput)
        return printSass(options, sassArch, readText(options.file), out, err);

    ptx::CompileOptions compileOptions;
    compileOptions.arch = virtualArch;
    const ptx::CompileResult result = ptx::compileCudaFile(options.file, compileOptions);
    if (!result.ok) {
        printDiagnostics(result, options.file, err);
        return toInt(ExitCode::Failure);
    }

    if (options.check) {
        if (!options.out.empty())
            writePtx(options.out, result.ptx);
        printDiagnostics(result, options.file, err);
        return reportSupport(options.file, result.ptx, out);
    }
    if (options.sass) {
        if (!options.out.empty())
            writePtx(options.out, result.ptx);
        printDiagnostics(result, options.file, err);
        return printSass(options, sassArch, result.ptx, out, err);
    }

    if (options.out.empty()) {
        out << result.ptx;
    } else {
        writePtx(options.out, result.ptx);
    }
    printDiagnostics(result, options.file, err); // warnings, after the PTX is safely out
    return toInt(ExitCode::Ok);
}

} // namespace warpscope::cli
