// CUDA C++ to PTX with NVRTC: real compiles (no GPU needed), and the log parser against logs in the
// shape NVRTC 13 writes them.
#include "ptx/compile_cache.h"
#include "ptx/cuda_compiler.h"
#include "util/input_error.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>
#include <utility>
#include <vector>

using namespace warpscope;
using namespace warpscope::ptx;

namespace {

const char* const vectorAdd = R"(extern "C" __global__ void vector_add(const float* a, const float* b, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}
)";

// Line 3 uses a name that does not exist; its column (1-based) is 12.
const char* const undefinedName = R"(extern "C" __global__ void scale(float* p)
{
    p[0] = undefinedScale * 2.0f;
}
)";

std::string tempPath(const std::string& name)
{
    return testing::TempDir() + "/warpscope_compiler_" + std::to_string(getpid()) + "_" + name;
}

} // namespace

TEST(CudaCompiler, VectorAddCompilesToPtxWithLineInfo)
{
    const CompileResult r = compileCuda(vectorAdd, "vector_add.cu", {});
    ASSERT_TRUE(r.ok) << r.log;
    EXPECT_NE(r.ptx.find(".entry vector_add"), std::string::npos) << r.ptx;
    EXPECT_NE(r.ptx.find(".loc"), std::string::npos) << r.ptx;
    EXPECT_NE(r.ptx.find(".target sm_75"), std::string::npos) << r.ptx;
    EXPECT_TRUE(r.diagnostics.empty());
    EXPECT_EQ(r.ptx.find('\0'), std::string::npos); // NVRTC's terminator is not part of the text
}

TEST(CudaCompiler, ArchAndLineInfoReachNvrtc)
{
    CompileOptions options;
    options.arch = "compute_80";
    options.lineInfo = false;
    const CompileResult r = compileCuda(vectorAdd, "vector_add.cu", options);
    ASSERT_TRUE(r.ok) << r.log;
    EXPECT_NE(r.ptx.find(".target sm_80"), std::string::npos);
    EXPECT_EQ(r.ptx.find(".loc"), std::string::npos);
}

TEST(CudaCompiler, ErrorsComeBackWithFileLineColumnAndMessage)
{
    const CompileResult r = compileCuda(undefinedName, "scale.cu", {});
    EXPECT_FALSE(r.ok);
    EXPECT_TRUE(r.ptx.empty());
    ASSERT_EQ(r.diagnostics.size(), 1u) << r.log;
    const CompileDiagnostic& d = r.diagnostics.front();
    EXPECT_EQ(d.file, "scale.cu");
    EXPECT_EQ(d.line, 3);
    EXPECT_EQ(d.column, 12);
    EXPECT_EQ(d.severity, "error");
    EXPECT_EQ(d.message, "identifier \"undefinedScale\" is undefined");
    EXPECT_EQ(formatDiagnostic(d), "scale.cu:3:12: error: identifier \"undefinedScale\" is undefined");
}

TEST(CudaCompiler, WarningsDoNotFailTheCompile)
{
    const CompileResult r =
        compileCuda("extern \"C\" __global__ void k(float* p)\n{\n    int unused;\n    p[0] = 1.0f;\n}\n", "w.cu", {});
    ASSERT_TRUE(r.ok) << r.log;
    EXPECT_FALSE(r.ptx.empty());
    ASSERT_EQ(r.diagnostics.size(), 1u) << r.log;
    EXPECT_EQ(r.diagnostics[0].severity, "warning");
    EXPECT_EQ(r.diagnostics[0].line, 3);
    EXPECT_EQ(r.diagnostics[0].column, 9);
    EXPECT_FALSE(r.diagnostics[0].code.empty());
}

TEST(CudaCompiler, UnknownArchIsRejectedWithTheAllowedList)
{
    for (const char* arch : {"compute_99", "sm_75", "compute_", "", "75"}) {
        EXPECT_FALSE(isKnownVirtualArch(arch)) << arch;
        CompileOptions options;
        options.arch = arch;
        try {
            compileCuda(vectorAdd, "vector_add.cu", options);
            ADD_FAILURE() << arch << " was accepted";
        } catch (const InputError& error) {
            EXPECT_NE(std::string(error.what()).find("compute_75"), std::string::npos) << error.what();
        }
    }
    EXPECT_TRUE(isKnownVirtualArch("compute_75"));
    EXPECT_TRUE(isKnownVirtualArch("compute_90"));
    ASSERT_FALSE(supportedVirtualArchs().empty());
    EXPECT_EQ(supportedVirtualArchs().front(), "compute_75");
}

TEST(CudaCompiler, OptionsNvrtcRejectsAreInputErrors)
{
    CompileOptions options;
    options.extraOptions = {"--no-such-option"};
    EXPECT_THROW(compileCuda(vectorAdd, "vector_add.cu", options), InputError);
}

TEST(CudaCompiler, VersionIsMajorDotMinor)
{
    const std::string version = nvrtcVersion();
    EXPECT_NE(version.find('.'), std::string::npos) << version;
    EXPECT_GE(std::stoi(version), 13) << version;
}

TEST(CudaCompiler, MissingOrUnreadableFileIsAnInputErrorNamingIt)
{
    const std::string missing = tempPath("does-not-exist.cu");
    try {
        compileCudaFile(missing, {});
        ADD_FAILURE() << "no exception";
    } catch (const InputError& error) {
        EXPECT_NE(std::string(error.what()).find(missing), std::string::npos) << error.what();
    }
    EXPECT_THROW(compileCudaFile(testing::TempDir(), {}), InputError); // a folder
}

TEST(CudaCompiler, FileCompilesUnderItsOwnName)
{
    const std::string path = tempPath("scale.cu");
    std::ofstream(path) << undefinedName;
    const CompileResult r = compileCudaFile(path, {});
    std::remove(path.c_str());
    ASSERT_EQ(r.diagnostics.size(), 1u) << r.log;
    EXPECT_EQ(r.diagnostics[0].file, path);
    EXPECT_EQ(r.diagnostics[0].line, 3);
    EXPECT_EQ(r.diagnostics[0].column, 12);
}

TEST(CudaCompiler, ToolkitHeadersResolve)
{
    // cuda_fp16.h is found through the toolkit's include folder; no host headers are involved.
    const CompileResult r = compileCuda(
        "#include <cuda_fp16.h>\n"
        "extern \"C\" __global__ void half_add(__half* p) { p[0] = __hadd(p[0], p[1]); }\n",
        "half.cu", {});
    EXPECT_TRUE(r.ok) << r.log;
}

// The library headers nvcc kernels start with are ours, in memory (nvrtc_std_headers.h): each
// compiles in a kernel that uses it, alone and beside libcu++'s <cuda/std/cstdint>, which defines
// the same fixed-width types; and all of them with <cuda/barrier>, as a kernel using one starts.
TEST(CudaCompiler, CommonLibraryHeadersCompile)
{
    const std::vector<std::pair<std::string, std::string>> uses = {
        {"<stdio.h>", "printf(\"%d\\n\", p[0]);"},
        {"<cstdio>", "std::printf(\"%d\\n\", p[0]);"},
        {"<math.h>", "p[0] = (int)(sqrtf((float)p[1]) + expf(0.0f) + fabsf(-1.0f) + M_PI + HUGE_VALF);"},
        {"<cmath>", "p[0] = (int)(std::sqrt((float)p[1]) + std::exp(0.0f) + std::fabs(-1.0f) + std::abs(-1));"},
        {"<stdint.h>", "p[0] = (int)(int32_t)(uint64_t)INT64_MAX;"},
        {"<cstdint>", "p[0] = (int)(std::int32_t)(std::uint64_t)INT64_MAX;"},
    };
    for (const auto& [header, use] : uses) {
        SCOPED_TRACE(header);
        const std::string body = "extern \"C\" __global__ void k(int* p) { " + use + " }\n";
        const CompileResult alone = compileCuda("#include " + header + "\n" + body, "std.cu", {});
        EXPECT_TRUE(alone.ok) << alone.log;
        EXPECT_TRUE(alone.diagnostics.empty()) << alone.log;
        const CompileResult beside = compileCuda("#include " + header +
                                                     "\n#include <cuda/std/cstdint>\n" + body,
                                                 "std_beside.cu", {});
        EXPECT_TRUE(beside.ok) << beside.log;
        EXPECT_TRUE(beside.diagnostics.empty()) << beside.log;
    }
    const CompileResult barrier = compileCuda(
        "#include <stdio.h>\n#include <cmath>\n#include <cstdint>\n#include <cuda/barrier>\n"
        "extern \"C\" __global__ void k(float* p) {\n"
        "    __shared__ cuda::barrier<cuda::thread_scope_block> bar;\n"
        "    if (threadIdx.x == 0) init(&bar, blockDim.x);\n"
        "    __syncthreads();\n"
        "    bar.arrive_and_wait();\n"
        "    p[threadIdx.x] = std::sqrt(p[threadIdx.x]) + (std::uint64_t)INFINITY;\n"
        "}\n",
        "barrier.cu", {});
    EXPECT_TRUE(barrier.ok) << barrier.log;
    EXPECT_TRUE(barrier.diagnostics.empty()) << barrier.log;
}

// Any other C or C++ library header: NVRTC's one line naming it, with why and what exists.
TEST(CudaCompiler, AnUnavailableLibraryHeaderIsOneLineNamingIt)
{
    const std::string body = "extern \"C\" __global__ void k(int* p) { p[0] = 1; }\n";
    const CompileResult vector = compileCuda("#include <vector>\n" + body, "vector.cu", {});
    EXPECT_FALSE(vector.ok);
    ASSERT_EQ(vector.diagnostics.size(), 1u) << vector.log;
    EXPECT_EQ(formatDiagnostic(vector.diagnostics[0]),
              "vector.cu:1:18: catastrophic error: cannot open source file \"vector\"; NVRTC has no C or C++ "
              "standard library: Warpscope supplies only <stdio.h>, <cstdio>, <math.h>, <cmath>, <stdint.h>, "
              "<cstdint>");
    // Where libcu++ has a device version, the line names it.
    const CompileResult array = compileCuda("#include <array>\n" + body, "array.cu", {});
    ASSERT_EQ(array.diagnostics.size(), 1u) << array.log;
    const std::string arrayLine = formatDiagnostic(array.diagnostics[0]);
    EXPECT_NE(arrayLine.find("cannot open source file \"array\""), std::string::npos) << arrayLine;
    EXPECT_NE(arrayLine.find("; libcu++'s device version is <cuda/std/array>"), std::string::npos) << arrayLine;
    // The user's own missing file keeps NVRTC's message alone.
    const CompileResult own = compileCuda("#include \"mine.h\"\n" + body, "own.cu", {});
    ASSERT_EQ(own.diagnostics.size(), 1u) << own.log;
    EXPECT_EQ(own.diagnostics[0].message, "cannot open source file \"mine.h\"");
}

// --- the log parser ------------------------------------------------------------------------------

TEST(NvrtcLog, CaretGivesTheColumnAndContinuationLinesJoinTheMessage)
{
    const char* log = "ovl.cu(3): error: no instance of overloaded function \"f\" matches the argument list\n"
                      "            argument types are: (int)\n"
                      "  __global__ void k(){ f(3); }\n"
                      "                       ^\n"
                      "ovl.cu(2): note #3326-D: function \"f(float *)\" does not match\n"
                      "  __device__ int f(float*);\n"
                      "                 ^\n"
                      "\n"
                      "1 error detected in the compilation of \"ovl.cu\".\n";
    const auto d = parseNvrtcLog(log, "ovl.cu", "");
    ASSERT_EQ(d.size(), 2u);
    EXPECT_EQ(d[0].line, 3);
    EXPECT_EQ(d[0].column, 22);
    EXPECT_EQ(d[0].message, "no instance of overloaded function \"f\" matches the argument list; "
                            "argument types are: (int)");
    EXPECT_EQ(d[1].severity, "note");
    EXPECT_EQ(d[1].code, "3326-D");
    EXPECT_EQ(d[1].column, 16);
    EXPECT_EQ(formatDiagnostic(d[1]), "ovl.cu:2:16: note: function \"f(float *)\" does not match [#3326-D]");
}

TEST(NvrtcLog, ColumnInTheHeaderWins)
{
    const auto d = parseNvrtcLog("k.cu(4, 7): warning: something\n", "k.cu", "");
    ASSERT_EQ(d.size(), 1u);
    EXPECT_EQ(d[0].line, 4);
    EXPECT_EQ(d[0].column, 7);
}

TEST(NvrtcLog, WithoutCaretTheQuotedNameOnTheSourceLineGivesTheColumn)
{
    const char* source = "__global__ void k(int* p)\n{\n\tp[0] = p[1] + missing_thing;\n}\n";
    const auto d = parseNvrtcLog("k.cu(3): error: identifier \"missing_thing\" is undefined\n", "k.cu", source);
    ASSERT_EQ(d.size(), 1u);
    EXPECT_EQ(d[0].column, 16); // byte column: the tab counts as one
}

TEST(NvrtcLog, QuotedNamesMatchWholeWordsOnly)
{
    const char* source = "int xx = x;\n";
    const auto d = parseNvrtcLog("k.cu(1): error: identifier \"x\" is undefined\n", "k.cu", source);
    ASSERT_EQ(d.size(), 1u);
    EXPECT_EQ(d[0].column, 10);
}

TEST(NvrtcLog, OtherwiseTheFirstNonBlankCharacter)
{
    const auto d = parseNvrtcLog("k.cu(2): error: expected a \";\"\n", "k.cu", "int a\n    int b\n");
    ASSERT_EQ(d.size(), 1u);
    EXPECT_EQ(d[0].column, 5);
}

TEST(NvrtcLog, FileNamesWithParenthesesAndLinesWithoutAPlace)
{
    const auto d = parseNvrtcLog("copy (2).cu(5): error: bad\n"
                                 "nvrtc: error: unrecognized option --x found\n"
                                 "Remark: The warnings can be suppressed with \"-diag-suppress <warning-number>\"\n"
                                 "2 errors detected in the compilation of \"copy (2).cu\".\n",
                                 "copy (2).cu", "");
    ASSERT_EQ(d.size(), 2u);
    EXPECT_EQ(d[0].file, "copy (2).cu");
    EXPECT_EQ(d[0].line, 5);
    EXPECT_EQ(d[0].column, 0); // no source line 5 and no echo: unknown
    EXPECT_EQ(formatDiagnostic(d[0]), "copy (2).cu:5: error: bad");
    EXPECT_EQ(d[1].file, "nvrtc");
    EXPECT_EQ(d[1].line, 0);
    EXPECT_EQ(formatDiagnostic(d[1]), "nvrtc: error: unrecognized option --x found");
}

// The compile cache: the same source, name, options and NVRTC give the same PTX and log without
// NVRTC, from memory and from disk; anything else different is a miss; WARPSCOPE_COMPILE_CACHE=off is
// never cached; a damaged file is compiled again.
TEST(CompileCache, SecondCompileComesFromTheCache)
{
    const std::string folder = tempPath("cache");
    std::filesystem::remove_all(folder);
    ::setenv("WARPSCOPE_CACHE_DIR", folder.c_str(), 1);
    ::unsetenv("WARPSCOPE_COMPILE_CACHE");
    EXPECT_EQ(compileCacheDirectory(), std::filesystem::path(folder));
    const std::string source = std::string(vectorAdd) + "// cache test " + std::to_string(getpid()) + "\n";
    const CompileResult first = compileCuda(source, "cached.cu", {});
    ASSERT_TRUE(first.ok);
    EXPECT_FALSE(first.fromCache);
    const CompileResult second = compileCuda(source, "cached.cu", {});
    EXPECT_TRUE(second.fromCache);
    EXPECT_EQ(second.ptx, first.ptx);
    EXPECT_EQ(second.log, first.log);
    // From disk, in a process that has not seen it (the memory cache cleared).
    clearMemoryCompileCache();
    const CompileResult fromDisk = compileCuda(source, "cached.cu", {});
    EXPECT_TRUE(fromDisk.fromCache);
    EXPECT_EQ(fromDisk.ptx, first.ptx);
    // Another name, arch, option or source: compiled.
    EXPECT_FALSE(compileCuda(source, "other.cu", {}).fromCache);
    CompileOptions arch;
    arch.arch = "compute_80";
    EXPECT_FALSE(compileCuda(source, "cached.cu", arch).fromCache);
    CompileOptions define;
    define.extraOptions = {"-DX=1"};
    EXPECT_FALSE(compileCuda(source, "cached.cu", define).fromCache);
    EXPECT_FALSE(compileCuda(source + "\n", "cached.cu", {}).fromCache);
    CompileOptions off;
    off.useCache = false;
    EXPECT_FALSE(compileCuda(source, "cached.cu", off).fromCache);
    // Warnings come back from the cache as they were.
    const std::string warning = "extern \"C\" __global__ void w(float* p) { int unused; p[0] = 1.0f; } // " +
                                std::to_string(getpid()) + "\n";
    const CompileResult warned = compileCuda(warning, "w.cu", {});
    const CompileResult warnedAgain = compileCuda(warning, "w.cu", {});
    EXPECT_TRUE(warnedAgain.fromCache);
    ASSERT_EQ(warnedAgain.diagnostics.size(), warned.diagnostics.size());
    ASSERT_FALSE(warned.diagnostics.empty());
    EXPECT_EQ(formatDiagnostic(warnedAgain.diagnostics[0]), formatDiagnostic(warned.diagnostics[0]));
    // A damaged file is not trusted.
    clearMemoryCompileCache();
    for (const auto& entry : std::filesystem::directory_iterator(folder))
        std::ofstream(entry.path(), std::ios::trunc) << "warpscope-nvrtc-cache 1\n99999\nbroken";
    EXPECT_FALSE(compileCuda(source, "cached.cu", {}).fromCache);
    // Turned off for the whole process.
    ::setenv("WARPSCOPE_COMPILE_CACHE", "off", 1);
    EXPECT_TRUE(compileCacheDirectory().empty());
    EXPECT_FALSE(compileCuda(source, "cached.cu", {}).fromCache);
    ::unsetenv("WARPSCOPE_COMPILE_CACHE");
    ::unsetenv("WARPSCOPE_CACHE_DIR");
    clearMemoryCompileCache();
    std::filesystem::remove_all(folder);
}

namespace {

// Writes a file dated an hour back: the cache stores no compile whose headers changed in the two
// seconds before it began (NVRTC might have read another version than the one hashed after it).
void writeSettled(const std::filesystem::path& path, const std::string& text)
{
    std::ofstream(path, std::ios::trunc) << text;
    std::filesystem::last_write_time(path, std::filesystem::file_time_type::clock::now() - std::chrono::hours(1));
}

// The kernel stores VAL * 1000 + 7, so the PTX holds 1007 for VAL 1 and 2007 for VAL 2.
std::string storesValue(const std::string& includeLine)
{
    return includeLine + "\nextern \"C\" __global__ void val(int* p) { *p = VAL * 1000 + 7; }\n";
}

} // namespace

// Headers are not in the key; each entry lists the files NVRTC read (from its time trace) with their
// hashes and is stale once one changes, however the #include was spelled and however deep it was.
TEST(CompileCache, AnEditedHeaderIsCompiledAgain)
{
    const std::filesystem::path folder = tempPath("headers");
    std::filesystem::remove_all(folder);
    std::filesystem::create_directories(folder / "include");
    ::setenv("WARPSCOPE_CACHE_DIR", (folder / "cache").c_str(), 1);
    ::unsetenv("WARPSCOPE_COMPILE_CACHE");
    clearMemoryCompileCache();

    struct Spelling {
        std::string name;
        std::string include;
        std::filesystem::path header; // the file the spelling reaches
        std::vector<std::string> options;
    };
    const std::vector<Spelling> spellings = {
        {"space_after_hash", "# include \"h.h\"", folder / "h.h", {}},
        {"tab_after_include", "#include\t\"h.h\"", folder / "h.h", {}},
        {"angle_via_include_path", "#include<ip.h>", folder / "include" / "ip.h",
         {"--include-path=" + (folder / "include").string()}},
        {"nested", "#include \"a.h\"", folder / "b.h", {}},
    };
    writeSettled(folder / "a.h", "#include \"b.h\"\n");
    for (const Spelling& spelling : spellings) {
        SCOPED_TRACE(spelling.name);
        writeSettled(spelling.header, "#define VAL 1\n");
        const std::filesystem::path source = folder / (spelling.name + ".cu");
        writeSettled(source, storesValue(spelling.include));
        CompileOptions options;
        options.extraOptions = spelling.options;

        const CompileResult first = compileCudaFile(source, options);
        ASSERT_TRUE(first.ok) << first.log;
        EXPECT_FALSE(first.fromCache);
        EXPECT_NE(first.ptx.find("1007"), std::string::npos);
        const CompileResult unchanged = compileCudaFile(source, options);
        EXPECT_TRUE(unchanged.fromCache); // includes no longer keep a source out of the cache

        writeSettled(spelling.header, "#define VAL 2\n");
        const CompileResult edited = compileCudaFile(source, options);
        EXPECT_FALSE(edited.fromCache);
        EXPECT_NE(edited.ptx.find("2007"), std::string::npos);
        EXPECT_EQ(edited.ptx.find("1007"), std::string::npos);
        EXPECT_TRUE(compileCudaFile(source, options).fromCache); // the new entry replaced the old

        // The disk entry checks its headers too (a process that has not seen the compile).
        clearMemoryCompileCache();
        writeSettled(spelling.header, "#define VAL 3\n");
        const CompileResult fromDisk = compileCudaFile(source, options);
        EXPECT_FALSE(fromDisk.fromCache);
        EXPECT_NE(fromDisk.ptx.find("3007"), std::string::npos);
        clearMemoryCompileCache();
        EXPECT_TRUE(compileCudaFile(source, options).fromCache);
    }

    // A header written just before the compile: not stored, since NVRTC may have read an older
    // version than the one on disk after it.
    std::ofstream(folder / "h.h", std::ios::trunc) << "#define VAL 4\n";
    const std::filesystem::path fresh = folder / "fresh.cu";
    writeSettled(fresh, storesValue("#include \"h.h\""));
    EXPECT_NE(compileCudaFile(fresh, {}).ptx.find("4007"), std::string::npos);
    EXPECT_FALSE(compileCudaFile(fresh, {}).fromCache);

    // Our in-memory library headers are no files: a kernel that includes them is cached as usual.
    const std::filesystem::path library = folder / "library.cu";
    writeSettled(library, "#include <cmath>\n#include <cstdint>\n#include <cstdio>\n" + storesValue("#define VAL 6"));
    ASSERT_TRUE(compileCudaFile(library, {}).ok);
    clearMemoryCompileCache();
    EXPECT_TRUE(compileCudaFile(library, {}).fromCache);

    // A deleted header makes the entry stale as well (the compile then fails with NVRTC's error).
    writeSettled(folder / "h.h", "#define VAL 5\n");
    ASSERT_TRUE(compileCudaFile(fresh, {}).ok);
    ASSERT_TRUE(compileCudaFile(fresh, {}).fromCache);
    std::filesystem::remove(folder / "h.h");
    const CompileResult missing = compileCudaFile(fresh, {});
    EXPECT_FALSE(missing.fromCache);
    EXPECT_FALSE(missing.ok);

    ::unsetenv("WARPSCOPE_CACHE_DIR");
    clearMemoryCompileCache();
    std::filesystem::remove_all(folder);
}
