#include "cli/cli_compile.h"

#include "cli/exit_codes.h"
#include "ptx/cuda_compiler.h"
#include "util/input_error.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <ostream>
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

} // namespace

int runCompile(const CompileOptions& options, std::ostream& out, std::ostream& err)
{
    if (!ptx::isKnownVirtualArch(options.arch))
        throw InputError("--arch: unknown virtual architecture '" + options.arch +
                         "' (allowed: " + ptx::supportedVirtualArchList() + ")");
    if (!options.out.empty())
        checkOutputPath(options.out, options.file);

    ptx::CompileOptions compileOptions;
    compileOptions.arch = options.arch;
    const ptx::CompileResult result = ptx::compileCudaFile(options.file, compileOptions);
    if (!result.ok) {
        printDiagnostics(result, options.file, err);
        return toInt(ExitCode::Failure);
    }

    if (options.out.empty()) {
        out << result.ptx;
    } else {
        std::ofstream file(options.out, std::ios::binary | std::ios::trunc);
        if (!file)
            throw InputError("--out: cannot write '" + options.out + "': " + std::strerror(errno));
        file << result.ptx;
        file.close();
        if (!file)
            throw std::runtime_error("writing '" + options.out + "' failed: " + std::strerror(errno));
    }
    printDiagnostics(result, options.file, err); // warnings, after the PTX is safely out
    return toInt(ExitCode::Ok);
}

} // namespace warpscope::cli
