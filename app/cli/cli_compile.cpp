#include "cli/cli_compile.h"

#include "cli/exit_codes.h"
#include "ptx/cuda_compiler.h"
#include "ptx/ptx_ir.h"
#include "ptx/ptx_parser.h"
#include "util/atomic_file.h"
#include "util/input_error.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>
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
                        "this NVRTC supports")
        ->capture_default_str();
    command->add_option("--out", options.out, "write the PTX to this file instead of standard output");
    command->add_flag("--check", options.check,
                      "list every construct of the module the simulator does not support yet (FILE may also be "
                      ".ptx) and which kernels can run; exit 1 when there is any");
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
        const bool cooperative = std::any_of(found.begin(), found.end(), [](const ptx::UnsupportedConstruct* construct) {
            return ptx::needsCooperativeLaunch(*construct);
        });
        out << file << ": kernel " << entry
            << (blocking == 0 ? std::string(" can run on the simulator")
                              : " cannot run yet (" + std::to_string(blocking) + " unsupported construct" +
                                    (blocking == 1 ? ")" : "s)") + (cooperative ? ": it needs a cooperative launch" : ""))
            << "\n";
    }
    if (constructs.empty())
        out << file << ": every construct is supported by the simulator\n";
    return toInt(constructs.empty() ? ExitCode::Ok : ExitCode::Failure);
}

} // namespace

int runCompile(const CompileOptions& options, std::ostream& out, std::ostream& err)
{
    if (!ptx::isKnownVirtualArch(options.arch))
        throw InputError("--arch: unknown virtual architecture '" + options.arch +
                         "' (allowed: " + ptx::supportedVirtualArchList() + ")");
    if (!options.out.empty())
        checkOutputPath(options.out, options.file);

    if (options.check && std::filesystem::path(options.file).extension() == ".ptx")
        return reportSupport(options.file, readText(options.file), out);

    ptx::CompileOptions compileOptions;
    compileOptions.arch = options.arch;
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

    if (options.out.empty()) {
        out << result.ptx;
    } else {
        writePtx(options.out, result.ptx);
    }
    printDiagnostics(result, options.file, err); // warnings, after the PTX is safely out
    return toInt(ExitCode::Ok);
}

} // namespace warpscope::cli
