#include "ptx/cuda_compiler.h"

#include "ptx/compile_cache.h"
#include "ptx/nvrtc_std_headers.h"
#include "util/input_error.h"

#include <nlohmann/json.hpp>
#include <nvrtc.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <system_error>
#include <unistd.h>
#include <utility>

// The toolkit's headers (cuda_fp16.h, cooperative_groups.h, cccl/cuda/std/...) are usable from
// NVRTC when their folder is on its include path. CMake passes the toolkit it found.
#ifndef WARPSCOPE_CUDA_INCLUDE_DIR
#define WARPSCOPE_CUDA_INCLUDE_DIR "/usr/local/cuda/include"
#endif

namespace warpscope::ptx {

namespace {

void check(nvrtcResult result, const char* call)
{
    if (result != NVRTC_SUCCESS)
        throw std::runtime_error(std::string("NVRTC: ") + call + " failed: " + nvrtcGetErrorString(result));
}

// One nvrtcProgram, destroyed on every path out. It carries our in-memory <stdio.h>, <cmath>,
// <cstdint>, ... (nvrtc_std_headers.h); NVRTC reads one only when the source includes it.
class Program {
public:
    Program(const std::string& source, const std::string& name)
    {
        std::array<const char*, kNvrtcStdHeaders.size()> texts{};
        std::array<const char*, kNvrtcStdHeaders.size()> names{};
        for (std::size_t i = 0; i < kNvrtcStdHeaders.size(); ++i) {
            texts[i] = kNvrtcStdHeaders[i].text.data(); // string literals: NUL-terminated
            names[i] = kNvrtcStdHeaders[i].name.data();
        }
        check(nvrtcCreateProgram(&handle_, source.c_str(), name.c_str(), static_cast<int>(texts.size()),
                                 texts.data(), names.data()),
              "nvrtcCreateProgram");
    }
    ~Program()
    {
        // Destruction can only fail for an invalid handle; a destructor has nowhere to report it.
        if (handle_)
            static_cast<void>(nvrtcDestroyProgram(&handle_));
    }
    Program(const Program&) = delete;
    Program& operator=(const Program&) = delete;

    nvrtcProgram get() const { return handle_; }

    std::string log() const
    {
        std::size_t size = 0;
        check(nvrtcGetProgramLogSize(handle_, &size), "nvrtcGetProgramLogSize");
        std::string text(size, '\0');
        if (size > 0)
            check(nvrtcGetProgramLog(handle_, text.data()), "nvrtcGetProgramLog");
        while (!text.empty() && text.back() == '\0') // the size counts the terminator
            text.pop_back();
        return text;
    }

    std::string ptx() const
    {
        std::size_t size = 0;
        check(nvrtcGetPTXSize(handle_, &size), "nvrtcGetPTXSize");
        std::string text(size, '\0');
        if (size > 0)
            check(nvrtcGetPTX(handle_, text.data()), "nvrtcGetPTX");
        while (!text.empty() && text.back() == '\0')
            text.pop_back();
        return text;
    }

private:
    nvrtcProgram handle_ = nullptr;
};

std::vector<std::string> toolkitIncludeOptions()
{
    std::vector<std::string> options;
    const std::filesystem::path include(WARPSCOPE_CUDA_INCLUDE_DIR);
    std::error_code error;
    if (!std::filesystem::exists(include / "cuda_fp16.h", error))
        return options; // not a toolkit: plain kernels need no include folder at all
    options.push_back("--include-path=" + include.string());
    if (std::filesystem::is_directory(include / "cccl", error)) // CUDA 13 keeps libcu++ and CUB here
        options.push_back("--include-path=" + (include / "cccl").string());
    return options;
}

// --- the headers a compile read ------------------------------------------------------------------

// NVRTC 13 writes no dependency list (-M, -MD and --generate-dependencies are unrecognised options)
// and has no preprocess-only mode, but its time trace (-fdevice-time-trace=FILE) names every header
// the front end opened, one "Processing Header File" event each, however the #include was spelled
// and however deep. The trace goes to a temporary file of ours, named FILE.json (NVRTC appends
// ".json"), read once the compile is done and removed.
class HeaderTrace {
public:
    HeaderTrace()
    {
        std::error_code error;
        const std::filesystem::path folder = std::filesystem::temp_directory_path(error);
        if (error)
            return;
        static std::atomic<unsigned long long> counter{0};
        base_ = folder / ("warpscope-nvrtc-trace-" + std::to_string(static_cast<long long>(::getpid())) + "-" +
                          std::to_string(counter++));
        option_ = "-fdevice-time-trace=" + base_.string();
    }
    ~HeaderTrace()
    {
        std::error_code error;
        if (!base_.empty()) {
            std::filesystem::remove(written(), error);
            std::filesystem::remove(base_, error);
        }
    }
    HeaderTrace(const HeaderTrace&) = delete;
    HeaderTrace& operator=(const HeaderTrace&) = delete;

    bool available() const { return !option_.empty(); }
    const std::string& option() const { return option_; }

    // The headers as NVRTC named them, each once, in the order first opened; nullopt when the trace
    // is missing or not in the shape NVRTC writes.
    std::optional<std::vector<std::string>> headers() const
    {
        std::ifstream file(written(), std::ios::binary);
        if (!file)
            return std::nullopt;
        std::stringstream contents;
        contents << file.rdbuf();
        const nlohmann::json trace = nlohmann::json::parse(contents.str(), nullptr, false);
        if (trace.is_discarded() || !trace.is_object() || !trace.contains("traceEvents") ||
            !trace["traceEvents"].is_array())
            return std::nullopt;
        std::vector<std::string> names;
        std::set<std::string> seen;
        for (const nlohmann::json& event : trace["traceEvents"]) {
            if (!event.is_object() || event.value("name", std::string()) != "Processing Header File")
                continue;
            const auto args = event.find("args");
            if (args == event.end() || !args->is_object() || !args->contains("detail") || !(*args)["detail"].is_string())
                return std::nullopt;
            std::string name = (*args)["detail"].get<std::string>();
            if (seen.insert(name).second)
                names.push_back(std::move(name));
        }
        // NVRTC always opens its built-in header: a trace that names none is in a shape we do not
        // know (another NVRTC), and the compile is not cached rather than cached blind.
        if (names.empty())
            return std::nullopt;
        return names;
    }

private:
    std::filesystem::path written() const { return std::filesystem::path(base_.string() + ".json"); }

    std::filesystem::path base_;
    std::string option_;
};

// The headers of a finished compile with their hashes now. False when one was written since a
// moment before the compile began: NVRTC may have read another version than the one hashed now.
// Two seconds cover the coarsest file-system clocks (FAT's 2 s; ext4 is finer).
bool collectDependencies(const std::vector<std::string>& headers, std::filesystem::file_time_type compileStart,
                         std::vector<CompileDependency>& dependencies)
{
    for (const std::string& header : headers) {
        const bool inMemory = std::any_of(kNvrtcStdHeaders.begin(), kNvrtcStdHeaders.end(),
                                          [&](const NvrtcStdHeader& ours) { return ours.name == header; });
        if (inMemory)
            continue; // ours, in the key (a file of that name is never read: ours take precedence)
        std::error_code error;
        const auto written = std::filesystem::last_write_time(header, error);
        if (!error && written > compileStart - std::chrono::seconds(2))
            return false;
        dependencies.push_back({header, fileContentHash(header)});
    }
    return true;
}

std::string firstLine(std::string_view text)
{
    while (!text.empty() && (text.front() == '\n' || text.front() == '\r'))
        text.remove_prefix(1);
    return std::string(text.substr(0, text.find_first_of("\r\n")));
}

// --- log parsing ---------------------------------------------------------------------------------

struct Header {
    std::string file;
    int line = 0;
    int column = 0;
    std::string severity;
    std::string code;
    std::string message;
};

bool isSeverityWord(std::string_view word)
{
    return word == "error" || word == "warning" || word == "remark" || word == "note";
}

// Parses "severity[ #code]: message" (what follows "file(line): " or "nvrtc: ").
bool parseSeverityAndMessage(std::string_view text, Header& header)
{
    const auto colon = text.find(": ");
    if (colon == std::string_view::npos)
        return false;
    std::string_view severity = text.substr(0, colon);
    std::string_view code;
    if (const auto hash = severity.find(" #"); hash != std::string_view::npos) {
        code = severity.substr(hash + 2);
        severity = severity.substr(0, hash);
        if (code.empty() || code.find_first_not_of("0123456789-ABCDEFGHIJKLMNOPQRSTUVWXYZ") != std::string_view::npos)
            return false;
    }
    // One word ("error") or a qualifier and one ("catastrophic error", "command-line error").
    std::string_view last = severity;
    if (const auto space = severity.find(' '); space != std::string_view::npos) {
        const std::string_view qualifier = severity.substr(0, space);
        if (qualifier.empty() || qualifier.find_first_not_of("abcdefghijklmnopqrstuvwxyz-") != std::string_view::npos)
            return false;
        last = severity.substr(space + 1);
    }
    if (!isSeverityWord(last))
        return false;
    header.severity = std::string(severity);
    header.code = std::string(code);
    header.message = std::string(text.substr(colon + 2));
    return true;
}

bool parseNumber(std::string_view text, std::size_t& at, int& value)
{
    const std::size_t start = at;
    long long number = 0;
    while (at < text.size() && text[at] >= '0' && text[at] <= '9') {
        number = number * 10 + (text[at] - '0');
        if (number > 1'000'000'000)
            return false;
        ++at;
    }
    value = static_cast<int>(number);
    return at > start;
}

// "file(line): severity: message" or "file(line, column): ...". The file may itself contain
// parentheses ("a(1).cu"), so every '(' is tried from the left; the message can't confuse it.
std::optional<Header> parseLocatedHeader(std::string_view text)
{
    for (auto open = text.find('('); open != std::string_view::npos; open = text.find('(', open + 1)) {
        if (open == 0)
            continue;
        Header header;
        std::size_t at = open + 1;
        if (!parseNumber(text, at, header.line) || header.line == 0)
            continue;
        if (at < text.size() && text[at] == ',') {
            ++at;
            while (at < text.size() && text[at] == ' ')
                ++at;
            if (!parseNumber(text, at, header.column))
                continue;
        }
        if (text.substr(at, 3) != "): ")
            continue;
        if (!parseSeverityAndMessage(text.substr(at + 3), header))
            continue;
        header.file = std::string(text.substr(0, open));
        return header;
    }
    return std::nullopt;
}

// "nvrtc: error: unrecognized option ..." and other messages with no place.
std::optional<Header> parseUnlocatedHeader(std::string_view text)
{
    const auto colon = text.find(": ");
    if (colon == std::string_view::npos || colon == 0)
        return std::nullopt;
    const std::string_view name = text.substr(0, colon);
    if (name.find_first_of(" \t()") != std::string_view::npos)
        return std::nullopt;
    Header header;
    if (!parseSeverityAndMessage(text.substr(colon + 2), header))
        return std::nullopt;
    header.file = std::string(name);
    return header;
}

std::optional<Header> parseHeader(std::string_view text)
{
    if (text.empty() || text.front() == ' ' || text.front() == '\t')
        return std::nullopt;
    if (auto header = parseLocatedHeader(text))
        return header;
    return parseUnlocatedHeader(text);
}

std::vector<std::string_view> splitLines(std::string_view text)
{
    std::vector<std::string_view> lines;
    while (!text.empty()) {
        const auto newline = text.find('\n');
        std::string_view line = text.substr(0, newline);
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        lines.push_back(line);
        if (newline == std::string_view::npos)
            break;
        text.remove_prefix(newline + 1);
    }
    return lines;
}

bool isBlank(std::string_view text) { return text.find_first_not_of(" \t") == std::string_view::npos; }

bool isCaretLine(std::string_view text)
{
    return text.find_first_not_of(" \t^") == std::string_view::npos &&
           std::count(text.begin(), text.end(), '^') == 1;
}

std::string_view trim(std::string_view text)
{
    const auto first = text.find_first_not_of(" \t");
    if (first == std::string_view::npos)
        return {};
    const auto last = text.find_last_not_of(" \t");
    return text.substr(first, last - first + 1);
}

bool isIdentifierChar(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// Where `name` first occurs on `text` (as a whole word when it is an identifier), or npos.
std::size_t findName(std::string_view text, std::string_view name)
{
    const bool identifier = std::all_of(name.begin(), name.end(), isIdentifierChar);
    for (auto at = text.find(name); at != std::string_view::npos; at = text.find(name, at + 1)) {
        if (!identifier)
            return at;
        const bool startsWord = at == 0 || !isIdentifierChar(text[at - 1]);
        const std::size_t end = at + name.size();
        const bool endsWord = end == text.size() || !isIdentifierChar(text[end]);
        if (startsWord && endsWord)
            return at;
    }
    return std::string_view::npos;
}

// The column NVRTC did not give: the message's first quoted name on the line, else its first
// non-blank character.
int guessColumn(std::string_view lineText, std::string_view message)
{
    const auto open = message.find('"');
    if (open != std::string_view::npos) {
        const auto close = message.find('"', open + 1);
        if (close != std::string_view::npos && close > open + 1) {
            const auto at = findName(lineText, message.substr(open + 1, close - open - 1));
            if (at != std::string_view::npos)
                return static_cast<int>(at) + 1;
        }
    }
    const auto first = lineText.find_first_not_of(" \t");
    return first == std::string_view::npos ? 0 : static_cast<int>(first) + 1;
}

// NVRTC echoes the source line indented by two spaces and puts the caret under it the same way.
constexpr std::size_t echoIndent = 2;

// NVRTC says only 'cannot open source file "vector"'. When the program itself includes that header
// as <vector>, the message goes on to say why (no C or C++ library under NVRTC), which library
// headers we supply, and libcu++'s device version where the toolkit has one.
void explainMissingLibraryHeaders(std::vector<CompileDiagnostic>& diagnostics, std::string_view programName,
                                  std::string_view source)
{
    constexpr std::string_view unopened = "cannot open source file \"";
    std::vector<std::string_view> sourceLines;
    for (CompileDiagnostic& diagnostic : diagnostics) {
        if (!diagnostic.message.starts_with(unopened) || diagnostic.file != programName || diagnostic.line <= 0)
            continue;
        const std::size_t close = diagnostic.message.find('"', unopened.size());
        if (close == std::string::npos)
            continue;
        const std::string header = diagnostic.message.substr(unopened.size(), close - unopened.size());
        if (sourceLines.empty())
            sourceLines = splitLines(source);
        if (static_cast<std::size_t>(diagnostic.line) > sourceLines.size() ||
            sourceLines[static_cast<std::size_t>(diagnostic.line) - 1].find("<" + header + ">") == std::string_view::npos)
            continue; // a quoted include of the user's own file: NVRTC's message says it all
        std::string supplied;
        for (std::size_t i = 0; i < kNvrtcStdHeaders.size(); ++i)
            supplied += std::string(i == 0 ? "" : ", ") + "<" + std::string(kNvrtcStdHeaders[i].name) + ">";
        std::string hint = "; NVRTC has no C or C++ standard library: Warpscope supplies only " + supplied;
        const std::filesystem::path toolkit(WARPSCOPE_CUDA_INCLUDE_DIR);
        std::error_code error;
        if (std::filesystem::is_regular_file(toolkit / "cccl" / "cuda" / "std" / header, error) ||
            std::filesystem::is_regular_file(toolkit / "cuda" / "std" / header, error))
            hint += "; libcu++'s device version is <cuda/std/" + header + ">";
        diagnostic.message += hint;
    }
}

} // namespace

// --- architectures and version ---------------------------------------------------------------------

std::string nvrtcVersion()
{
    int major = 0;
    int minor = 0;
    check(::nvrtcVersion(&major, &minor), "nvrtcVersion");
    return std::to_string(major) + "." + std::to_string(minor);
}

const std::vector<std::string>& supportedVirtualArchs()
{
    static const std::vector<std::string> archs = [] {
        int count = 0;
        check(nvrtcGetNumSupportedArchs(&count), "nvrtcGetNumSupportedArchs");
        std::vector<int> numbers(static_cast<std::size_t>(std::max(count, 0)));
        if (!numbers.empty())
            check(nvrtcGetSupportedArchs(numbers.data()), "nvrtcGetSupportedArchs");
        std::sort(numbers.begin(), numbers.end());
        std::vector<std::string> names;
        for (int number : numbers)
            names.push_back("compute_" + std::to_string(number));
        return names;
    }();
    return archs;
}

std::string supportedVirtualArchList()
{
    std::string list;
    for (const auto& arch : supportedVirtualArchs())
        list += (list.empty() ? "" : ", ") + arch;
    return list;
}

bool isKnownVirtualArch(std::string_view arch)
{
    const auto& archs = supportedVirtualArchs();
    return std::find(archs.begin(), archs.end(), arch) != archs.end();
}

// --- diagnostics -----------------------------------------------------------------------------------

std::vector<CompileDiagnostic> parseNvrtcLog(std::string_view log, std::string_view programName,
                                             std::string_view source)
{
    const std::vector<std::string_view> lines = splitLines(log);
    std::vector<std::string_view> sourceLines;
    bool sourceSplit = false;

    std::vector<CompileDiagnostic> diagnostics;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const auto header = parseHeader(lines[i]);
        if (!header)
            continue;
        // The indented lines that follow: continuation text, the echoed source line, the caret.
        std::vector<std::string_view> block;
        for (std::size_t j = i + 1; j < lines.size(); ++j) {
            const std::string_view next = lines[j];
            if (next.empty() || (next.front() != ' ' && next.front() != '\t'))
                break;
            block.push_back(next);
        }
        i += block.size();

        CompileDiagnostic diagnostic;
        diagnostic.file = header->file;
        diagnostic.line = header->line;
        diagnostic.column = header->column;
        diagnostic.severity = header->severity;
        diagnostic.code = header->code;

        std::optional<std::string_view> sourceLine;
        if (header->line > 0 && header->file == programName) {
            if (!sourceSplit) {
                sourceLines = splitLines(source);
                sourceSplit = true;
            }
            if (static_cast<std::size_t>(header->line) <= sourceLines.size())
                sourceLine = sourceLines[static_cast<std::size_t>(header->line) - 1];
        }

        std::optional<std::size_t> echo;
        std::optional<std::size_t> caret;
        for (std::size_t k = 1; k < block.size(); ++k) {
            if (isCaretLine(block[k])) {
                echo = k - 1;
                caret = k;
                break;
            }
        }
        if (!echo && sourceLine) {
            for (std::size_t k = 0; k < block.size(); ++k) {
                if (block[k].size() >= echoIndent && block[k].substr(echoIndent) == *sourceLine) {
                    echo = k;
                    break;
                }
            }
        }
        std::string_view echoText;
        if (echo && block[*echo].size() >= echoIndent)
            echoText = block[*echo].substr(echoIndent);

        if (diagnostic.column == 0 && caret) {
            const std::string_view caretLine = block[*caret];
            const std::size_t at = caretLine.find('^');
            if (at >= echoIndent && at - echoIndent <= echoText.size())
                diagnostic.column = static_cast<int>(at - echoIndent) + 1;
        }
        if (diagnostic.column == 0 && diagnostic.line > 0) {
            if (sourceLine)
                diagnostic.column = guessColumn(*sourceLine, header->message);
            else if (echo)
                diagnostic.column = guessColumn(echoText, header->message);
        }

        diagnostic.message = header->message;
        for (std::size_t k = 0; k < block.size(); ++k) {
            if (k == echo || k == caret || isBlank(block[k]))
                continue;
            diagnostic.message += "; ";
            diagnostic.message += trim(block[k]);
        }
        diagnostics.push_back(std::move(diagnostic));
    }
    return diagnostics;
}

std::string formatDiagnostic(const CompileDiagnostic& diagnostic)
{
    std::string text = diagnostic.file;
    if (diagnostic.line > 0) {
        text += ":" + std::to_string(diagnostic.line);
        if (diagnostic.column > 0)
            text += ":" + std::to_string(diagnostic.column);
    }
    if (!text.empty())
        text += ": ";
    text += diagnostic.severity + ": " + diagnostic.message;
    if (!diagnostic.code.empty())
        text += " [#" + diagnostic.code + "]";
    return text;
}

// --- compiling -------------------------------------------------------------------------------------

CompileResult compileCuda(std::string_view source, std::string_view fileName, const CompileOptions& options)
{
    if (!isKnownVirtualArch(options.arch))
        throw InputError("unknown virtual architecture '" + options.arch + "' (allowed: " +
                         supportedVirtualArchList() + ")");
    const std::string name = fileName.empty() ? std::string("kernel.cu") : std::string(fileName);
    if (source.find('\0') != std::string_view::npos)
        throw InputError(name + ": the source contains a NUL byte (is it a binary file?)");
    const std::string text(source);

    std::vector<std::string> arguments = {"--gpu-architecture=" + options.arch, "-std=c++17"};
    if (options.lineInfo)
        arguments.push_back("-lineinfo");
    for (auto& include : toolkitIncludeOptions())
        arguments.push_back(std::move(include));
    arguments.insert(arguments.end(), options.extraOptions.begin(), options.extraOptions.end());
    std::vector<const char*> argv;
    for (const auto& argument : arguments)
        argv.push_back(argument.c_str());

    // The same source, options and NVRTC as before: the same PTX and log, without NVRTC.
    std::vector<std::string> keyed = arguments;
    keyed.push_back("nvrtc " + nvrtcVersion());
    for (const NvrtcStdHeader& header : kNvrtcStdHeaders)
        keyed.push_back("header " + std::string(header.name) + "\n" + std::string(header.text));
    const std::string key = options.useCache ? compileCacheKey(text, name, keyed) : std::string();
    if (std::optional<CachedCompile> cached = findCachedCompile(key)) {
        CompileResult result;
        result.ok = true;
        result.ptx = std::move(cached->ptx);
        result.log = std::move(cached->log);
        result.diagnostics = parseNvrtcLog(result.log, name, text);
        result.fromCache = true;
        return result;
    }

    // A compile that can be cached also traces the headers it reads: the entry lists them, and is
    // stale once one changes. The trace option is not in the key (its file name differs every time).
    std::optional<HeaderTrace> trace;
    if (!key.empty()) {
        trace.emplace();
        if (!trace->available())
            trace.reset();
    }
    const auto compileStart = std::filesystem::file_time_type::clock::now();
    std::optional<Program> program(std::in_place, text, name);
    std::vector<const char*> tracedArgv = argv;
    if (trace)
        tracedArgv.push_back(trace->option().c_str());
    nvrtcResult compiled = nvrtcCompileProgram(program->get(), static_cast<int>(tracedArgv.size()), tracedArgv.data());
    if (compiled == NVRTC_ERROR_TIME_TRACE_FILE_WRITE_FAILED) {
        // The temporary folder would not take the trace: compiled again without it, and not cached.
        trace.reset();
        program.emplace(text, name);
        compiled = nvrtcCompileProgram(program->get(), static_cast<int>(argv.size()), argv.data());
    }

    CompileResult result;
    result.log = program->log();
    switch (compiled) {
    case NVRTC_SUCCESS:
        result.ok = true;
        result.ptx = program->ptx();
        break;
    case NVRTC_ERROR_COMPILATION:
        result.ok = false;
        break;
    case NVRTC_ERROR_INVALID_OPTION:
        // Ours are valid for every arch NVRTC lists, so the culprit is in extraOptions.
        throw InputError("NVRTC rejected an option: " + firstLine(result.log));
    default: {
        std::string message = std::string("NVRTC: nvrtcCompileProgram failed: ") + nvrtcGetErrorString(compiled);
        if (const std::string detail = firstLine(result.log); !detail.empty())
            message += " (" + detail + ")";
        throw std::runtime_error(message);
    }
    }
    result.diagnostics = parseNvrtcLog(result.log, name, text);
    explainMissingLibraryHeaders(result.diagnostics, name, text);
    if (result.ok && trace) {
        CachedCompile entry{result.ptx, result.log, {}};
        const std::optional<std::vector<std::string>> headers = trace->headers();
        if (headers && collectDependencies(*headers, compileStart, entry.dependencies))
            storeCachedCompile(key, entry);
    }
    return result;
}

CompileResult compileCudaFile(const std::filesystem::path& path, const CompileOptions& options)
{
    const std::string name = path.string();
    std::error_code error;
    if (std::filesystem::is_directory(path, error))
        throw InputError("cannot read '" + name + "': it is a folder, not a CUDA source file");
    struct Closer {
        void operator()(std::FILE* file) const { std::fclose(file); }
    };
    const std::unique_ptr<std::FILE, Closer> file(std::fopen(name.c_str(), "rb"));
    if (!file)
        throw InputError("cannot read '" + name + "': " + std::strerror(errno));
    std::string source;
    char buffer[1 << 16];
    std::size_t got = 0;
    while ((got = std::fread(buffer, 1, sizeof buffer, file.get())) > 0)
        source.append(buffer, got);
    if (std::ferror(file.get()))
        throw InputError("cannot read '" + name + "': " + std::strerror(errno));
    return compileCuda(source, name, options);
}

} // namespace warpscope::ptx
