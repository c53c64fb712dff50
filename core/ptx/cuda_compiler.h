// CUDA C++ source to PTX with NVRTC, the toolkit's run-time compiler (libnvrtc). Host-only: needs
// no GPU, no driver and no CUDA runtime. Diagnostics come back as file:line:column records.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace warpscope::ptx {

struct CompileOptions {
    // Virtual architecture of the PTX, as NVRTC spells it: compute_75, compute_80, ...
    // compute_75 is the oldest CUDA 13 supports.
    std::string arch = "compute_75";
    // -lineinfo: .loc directives that map PTX back to source lines (no effect on optimisation).
    bool lineInfo = true;
    // Passed to NVRTC after ours (for example "-DBLOCK=256"). One NVRTC rejects is an InputError.
    std::vector<std::string> extraOptions;
    // Reuse an earlier compile of the same source with the same options and NVRTC while every header
    // it read is unchanged (compile_cache.h: in memory and on disk; WARPSCOPE_COMPILE_CACHE=off turns
    // it off everywhere).
    bool useCache = true;
};

struct CompileDiagnostic {
    std::string file;     // as NVRTC names it: the program's name, or a header's path; "nvrtc" for option errors
    int line = 0;         // 1-based; 0 when the message has no place
    int column = 0;       // 1-based byte column (a tab counts as one); 0 when it could not be found
    std::string severity; // NVRTC's own word: "error", "warning", "note", "remark", "catastrophic error"
    std::string code;     // NVRTC's diagnostic number where it gives one ("177-D"); usable with -diag-suppress
    std::string message;  // one line; NVRTC's continuation lines are joined with "; "
};

struct CompileResult {
    bool ok = false;  // NVRTC produced PTX (there may still be warnings)
    std::string ptx;  // empty unless ok
    std::string log;  // NVRTC's log, verbatim
    std::vector<CompileDiagnostic> diagnostics;
    bool fromCache = false; // served by the compile cache, NVRTC not run
};

// Compiles one translation unit. fileName names it in diagnostics and in the PTX's .file directive
// (NVRTC also resolves #include "..." relative to it). Options used: --gpu-architecture=<arch>,
// -std=c++17, -lineinfo when asked, and the toolkit's include folder where it exists (for
// cuda_fp16.h and friends; no host system headers). <stdio.h>, <cstdio>, <math.h>, <cmath>,
// <stdint.h> and <cstdint> are ours, in memory (nvrtc_std_headers.h); another C or C++ library
// header fails with NVRTC's "cannot open source file" and a line on why. Optimisation is NVRTC's default, which matches
// nvcc's (-O3 for device code, no -G, no --use_fast_math).
// Throws InputError for an unknown arch (the message lists the allowed ones), a source with a NUL
// byte, or an option NVRTC rejects; std::runtime_error when NVRTC itself fails.
// Errors in the source are not exceptions: ok is false and diagnostics say where.
CompileResult compileCuda(std::string_view source, std::string_view fileName, const CompileOptions& options);

// Reads the file and compiles it under the name it was given (path.string()). A file that cannot be
// read throws InputError naming it.
CompileResult compileCudaFile(const std::filesystem::path& path, const CompileOptions& options);

// "13.0": the NVRTC this process loaded.
std::string nvrtcVersion();

// compute_XX for every architecture this NVRTC supports (nvrtcGetSupportedArchs), oldest first.
const std::vector<std::string>& supportedVirtualArchs();
// "compute_75, compute_80, ..." for messages.
std::string supportedVirtualArchList();
// True for exactly "compute_XX" with XX in the list above.
bool isKnownVirtualArch(std::string_view arch);

// Splits an NVRTC log into diagnostics. NVRTC writes
//     file.cu(12): error: identifier "x" is undefined
//       <the source line>
//       <spaces>^
// and sometimes "file.cu(12, 5): ...". The column is, in order: the one in the header; the caret's
// position under the echoed source line; the first occurrence of the message's first quoted name
// on that line (from `source` when the diagnostic is in programName, else from the echo); the
// line's first non-blank character; else 0. Summary lines ("1 error detected ...", "Remark: ...")
// are not diagnostics.
std::vector<CompileDiagnostic> parseNvrtcLog(std::string_view log, std::string_view programName,
                                             std::string_view source);

// "file.cu:12:5: error: identifier "x" is undefined", with " [#177-D]" after the message where there
// is a code; "file.cu:12: ..." when the column is unknown, "file: ..." when the line is.
std::string formatDiagnostic(const CompileDiagnostic& diagnostic);

} // namespace warpscope::ptx
