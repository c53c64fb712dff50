#include "ptx/sass.h"

#include "ptx/compile_cache.h"
#include "ptx/sass_tools.h"
#include "ptx/source_files.h"
#include "util/input_error.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <system_error>
#include <unistd.h>

namespace warpscope::ptx {

namespace {

namespace fs = std::filesystem;

// --- small text helpers --------------------------------------------------------------------------

std::string_view trim(std::string_view text)
{
    const auto first = text.find_first_not_of(" \t\r");
    if (first == std::string_view::npos)
        return {};
    const auto last = text.find_last_not_of(" \t\r");
    return text.substr(first, last - first + 1);
}

template <typename Visit>
void forEachLine(std::string_view text, Visit visit)
{
    while (!text.empty()) {
        const auto newline = text.find('\n');
        visit(text.substr(0, newline));
        if (newline == std::string_view::npos)
            break;
        text.remove_prefix(newline + 1);
    }
}

// The number just before `unit` in `text` ("2048 bytes smem" -> 2048 for "bytes smem"); nullopt when
// the unit is not there.
std::optional<std::uint64_t> numberBefore(std::string_view text, std::string_view unit)
{
    const auto at = text.find(unit);
    if (at == std::string_view::npos || at < 2)
        return std::nullopt;
    std::size_t end = at;
    while (end > 0 && text[end - 1] == ' ')
        --end;
    std::size_t start = end;
    while (start > 0 && text[start - 1] >= '0' && text[start - 1] <= '9')
        --start;
    if (start == end)
        return std::nullopt;
    return std::strtoull(std::string(text.substr(start, end - start)).c_str(), nullptr, 10);
}

// The name between the first pair of single quotes, or what follows `after` to the end.
std::string quotedOrRest(std::string_view text, std::string_view after)
{
    if (const auto open = text.find('\''); open != std::string_view::npos) {
        const auto close = text.find('\'', open + 1);
        if (close != std::string_view::npos)
            return std::string(text.substr(open + 1, close - open - 1));
    }
    const auto at = text.find(after);
    return at == std::string_view::npos ? std::string() : std::string(trim(text.substr(at + after.size())));
}

// --- nvdisasm's text -----------------------------------------------------------------------------

// `File "a.cu", line 12 inlined at "b.cu", line 30 ...` -> the chain, innermost first.
std::vector<SassLocation> parseFileComment(std::string_view text)
{
    std::vector<SassLocation> chain;
    std::size_t at = 0;
    while (true) {
        const auto open = text.find('"', at);
        if (open == std::string_view::npos)
            break;
        const auto close = text.find('"', open + 1);
        if (close == std::string_view::npos)
            break;
        const auto lineWord = text.find("line ", close);
        if (lineWord == std::string_view::npos)
            break;
        SassLocation location;
        location.file = std::string(text.substr(open + 1, close - open - 1));
        location.line = std::atoi(std::string(text.substr(lineWord + 5, 12)).c_str());
        chain.push_back(std::move(location));
        at = lineWord + 5;
    }
    return chain;
}

// "/*0120*/   @P0 BRA `(.L_x_0) ;" (the part after the offset comment) -> predicate, opcode, operands.
void parseInstructionText(std::string_view text, SassInstruction& instruction)
{
    text = trim(text);
    if (!text.empty() && text.front() == '{')
        text = trim(text.substr(1));
    if (const auto semicolon = text.rfind(';'); semicolon != std::string_view::npos)
        text = trim(text.substr(0, semicolon));
    if (!text.empty() && text.front() == '@') {
        const auto space = text.find_first_of(" \t");
        instruction.predicate = std::string(text.substr(0, space));
        text = space == std::string_view::npos ? std::string_view() : trim(text.substr(space));
    }
    const auto space = text.find_first_of(" \t");
    instruction.opcode = std::string(text.substr(0, space));
    instruction.operands = space == std::string_view::npos ? std::string() : std::string(trim(text.substr(space)));
}

// --- running the tools ---------------------------------------------------------------------------

// A folder of our own for one compile's files, removed when done.
class ScratchFolder {
public:
    ScratchFolder()
    {
        std::error_code error;
        fs::path base = fs::temp_directory_path(error);
        if (error)
            base = "/tmp";
        std::string pattern = (base / "warpscope-sass-XXXXXX").string();
        if (::mkdtemp(pattern.data()))
            m_path = pattern;
    }
    ~ScratchFolder()
    {
        std::error_code error;
        if (!m_path.empty())
            fs::remove_all(m_path, error);
    }
    ScratchFolder(const ScratchFolder&) = delete;
    ScratchFolder& operator=(const ScratchFolder&) = delete;
    const fs::path& path() const { return m_path; }

private:
    fs::path m_path;
};

void checkArch(const std::string& arch)
{
    const bool shaped = arch.size() > 3 && arch.starts_with("sm_") &&
                        std::all_of(arch.begin() + 3, arch.end(), [](char c) {
                            return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z');
                        }) &&
                        arch[3] >= '0' && arch[3] <= '9';
    if (!shaped)
        throw InputError("SASS architecture '" + arch + "' is not of the form sm_XX (allowed: sm_75, sm_80, sm_86, "
                         "sm_89, sm_90, ...)");
}

std::string ptxasIdentity(const fs::path& ptxas) { return "ptxas " + toolIdentity(ptxas); }

// ptxas's messages name the temporary file; the learner knows the PTX by options.ptxName.
std::string renamePtx(std::string text, const std::string& scratchName, const std::string& shownName)
{
    for (auto at = text.find(scratchName); at != std::string::npos; at = text.find(scratchName, at + shownName.size()))
        text.replace(at, scratchName.size(), shownName);
    return text;
}

struct PtxasOutput {
    std::string log;    // -v's messages
    fs::path cubin;     // in the scratch folder
};

PtxasOutput runPtxas(std::string_view ptx, const SassOptions& options, const fs::path& ptxas, const ScratchFolder& scratch)
{
    if (scratch.path().empty())
        throw SassToolFailed("cannot create a temporary folder for ptxas");
    const fs::path input = scratch.path() / "input.ptx";
    {
        std::ofstream file(input, std::ios::binary | std::ios::trunc);
        file << ptx;
        if (!file)
            throw SassToolFailed("cannot write the PTX for ptxas into " + scratch.path().string());
    }
    PtxasOutput output;
    output.cubin = scratch.path() / "output.cubin";
    const ToolRun run = runTool({ptxas.string(), "-lineinfo", "-v", "-arch", options.arch, input.string(), "-o",
                                 output.cubin.string()});
    if (!run.started)
        throw SassToolMissing("cannot run " + ptxas.string() + ": " + run.startError);
    const std::string messages = renamePtx(run.err + run.out, input.string(), options.ptxName);
    if (run.exitStatus != 0)
        throw SassToolFailed(trim(messages).empty() ? "ptxas failed (exit status " + std::to_string(run.exitStatus) + ")"
                                                    : std::string(trim(messages)));
    output.log = messages;
    return output;
}

fs::path requirePtxas()
{
    if (auto found = findPtxas())
        return *found;
    throw SassToolMissing(ptxasMissingMessage());
}

// "<length>\n<text>" twice: the cache's one text holds ptxas's log and nvdisasm's listing.
std::string packTwo(const std::string& first, const std::string& second)
{
    return std::to_string(first.size()) + "\n" + first + std::to_string(second.size()) + "\n" + second;
}

bool unpackOne(const std::string& text, std::size_t& at, std::string& value)
{
    const auto newline = text.find('\n', at);
    if (newline == std::string::npos)
        return false;
    char* end = nullptr;
    const std::string number = text.substr(at, newline - at);
    const unsigned long long length = std::strtoull(number.c_str(), &end, 10);
    if (number.empty() || *end != '\0' || newline + 1 + length > text.size())
        return false;
    value = text.substr(newline + 1, length);
    at = newline + 1 + length;
    return true;
}

// The PTX's .file keeps a path as the compiler was given it ("/tmp//k.cu", "a/../k.cu"); the cubin's
// line table, as nvdisasm prints it, has it normalised.
std::string sameFileName(const std::string& path) { return fs::path(path).lexically_normal().string(); }

} // namespace

std::string SassInstruction::text() const
{
    std::string text = predicate.empty() ? opcode : predicate + " " + opcode;
    if (!operands.empty())
        text += " " + operands;
    return text;
}

const SassFunction* SassListing::findFunction(std::string_view name) const
{
    for (const SassFunction& function : functions)
        if (function.name == name)
            return &function;
    return nullptr;
}

const PtxasResources* SassListing::findResources(std::string_view name) const
{
    for (const PtxasResources& entry : resources)
        if (entry.function == name)
            return &entry;
    return nullptr;
}

std::string describeResources(const PtxasResources& resources)
{
    std::string text = "ptxas: " + (resources.registers >= 0 ? std::to_string(resources.registers) + " registers"
                                                              : std::string("registers not reported"));
    text += ", " + std::to_string(resources.staticSharedBytes) + " B static shared, " +
            std::to_string(resources.stackFrameBytes) + " B stack frame, " + std::to_string(resources.spillStoreBytes) +
            " B spill stores, " + std::to_string(resources.spillLoadBytes) + " B spill loads (local memory)";
    if (resources.localBytes > 0)
        text += ", " + std::to_string(resources.localBytes) + " B local";
    return text + ", " + std::to_string(resources.barriers) + (resources.barriers == 1 ? " barrier" : " barriers");
}

std::string describeRegistersAndSpills(const PtxasResources& resources)
{
    return (resources.registers >= 0 ? std::to_string(resources.registers) + " registers"
                                     : std::string("registers not reported")) +
           ", " + describeSpills(resources);
}

std::string describeSpills(const PtxasResources& resources)
{
    if (resources.spillStoreBytes == 0 && resources.spillLoadBytes == 0)
        return "no spills";
    // A spill is a store to local memory and a load back: memory traffic, through L1 and L2.
    return std::to_string(resources.spillStoreBytes) + " B spill stores and " + std::to_string(resources.spillLoadBytes) +
           " B spill loads per thread (local-memory traffic)";
}

std::vector<SassFunction> parseNvdisasm(std::string_view text)
{
    std::vector<SassFunction> functions;
    std::vector<SassLocation> current;
    std::string pendingLabel;
    forEachLine(text, [&](std::string_view raw) {
        const std::string_view line = trim(raw);
        if (line.starts_with("//---") && line.find(".text.") != std::string_view::npos) {
            std::string_view name = line.substr(line.find(".text.") + 6);
            name = name.substr(0, name.find_first_of(" \t-"));
            functions.push_back({std::string(name), false, {}});
            current.clear();
            pendingLabel.clear();
            return;
        }
        if (functions.empty())
            return;
        SassFunction& function = functions.back();
        if (line.starts_with(".other") && line.find("STO_CUDA_ENTRY") != std::string_view::npos) {
            function.entry = true;
        } else if (line.starts_with("//## File")) {
            current = parseFileComment(line);
        } else if (line.starts_with(".L") && line.ends_with(":")) {
            if (pendingLabel.empty())
                pendingLabel = std::string(line.substr(0, line.size() - 1));
        } else if (line.starts_with("/*") && line.size() > 4) {
            const auto close = line.find("*/");
            if (close == std::string_view::npos)
                return;
            const std::string offset(line.substr(2, close - 2));
            char* end = nullptr;
            const unsigned long value = std::strtoul(offset.c_str(), &end, 16);
            if (offset.empty() || *end != '\0')
                return; // a comment that is not an offset
            SassInstruction instruction;
            instruction.offset = static_cast<std::uint32_t>(value);
            parseInstructionText(line.substr(close + 2), instruction);
            if (instruction.opcode.empty())
                return;
            instruction.lines = current;
            instruction.label = std::move(pendingLabel);
            pendingLabel.clear();
            function.instructions.push_back(std::move(instruction));
        }
    });
    return functions;
}

std::vector<PtxasResources> parsePtxasVerbose(std::string_view log)
{
    std::vector<PtxasResources> resources;
    const auto entryFor = [&](const std::string& name) -> PtxasResources& {
        for (PtxasResources& entry : resources)
            if (entry.function == name)
                return entry;
        resources.push_back({});
        resources.back().function = name;
        return resources.back();
    };
    std::string entryName;      // the function the "Used ..." line belongs to
    std::string propertiesName; // the function the next "bytes stack frame" line belongs to
    forEachLine(log, [&](std::string_view raw) {
        const std::string_view line = trim(raw);
        if (line.find("Compiling entry function") != std::string_view::npos) {
            entryName = quotedOrRest(line, "Compiling entry function");
            entryFor(entryName).entry = true;
        } else if (line.find("Function properties for") != std::string_view::npos) {
            propertiesName = quotedOrRest(line, "Function properties for");
            entryFor(propertiesName);
        } else if (line.find("bytes stack frame") != std::string_view::npos && !propertiesName.empty()) {
            PtxasResources& entry = entryFor(propertiesName);
            entry.stackFrameBytes = numberBefore(line, "bytes stack frame").value_or(0);
            entry.spillStoreBytes = numberBefore(line, "bytes spill stores").value_or(0);
            entry.spillLoadBytes = numberBefore(line, "bytes spill loads").value_or(0);
        } else if (line.find("Used ") != std::string_view::npos && line.find(" registers") != std::string_view::npos &&
                   !entryName.empty()) {
            PtxasResources& entry = entryFor(entryName);
            entry.registers = static_cast<int>(numberBefore(line, "registers").value_or(0));
            entry.barriers = static_cast<int>(numberBefore(line, "barriers").value_or(0));
            entry.staticSharedBytes = numberBefore(line, "bytes smem").value_or(0);
            entry.localBytes = numberBefore(line, "bytes lmem").value_or(0);
            entry.constantBytes = numberBefore(line, "bytes cmem[0]").value_or(0);
        }
    });
    return resources;
}

std::vector<PtxasResources> ptxasResources(std::string_view ptx, const SassOptions& options)
{
    checkArch(options.arch);
    const fs::path ptxas = requirePtxas();
    const std::string key = options.useCache
        ? compileCacheKey(ptx, "ptxas", {options.arch, ptxasIdentity(ptxas), "-lineinfo -v", options.ptxName})
        : std::string();
    if (auto cached = findCachedText(key, "ptxas"))
        return parsePtxasVerbose(*cached);
    const ScratchFolder scratch;
    const PtxasOutput output = runPtxas(ptx, options, ptxas, scratch);
    storeCachedText(key, "ptxas", output.log);
    return parsePtxasVerbose(output.log);
}

SassListing compileSass(std::string_view ptx, const SassOptions& options)
{
    checkArch(options.arch);
    const fs::path ptxas = requirePtxas();
    const std::optional<fs::path> nvdisasm = findNvdisasm();
    if (!nvdisasm)
        throw SassToolMissing(nvdisasmMissingMessage());
    SassListing listing;
    listing.arch = options.arch;
    const std::string key = options.useCache
        ? compileCacheKey(ptx, "sass", {options.arch, ptxasIdentity(ptxas), "nvdisasm " + toolIdentity(*nvdisasm),
                                        "-lineinfo -v", "-gi -c", options.ptxName})
        : std::string();
    std::string log;
    std::string disassembly;
    bool cached = false;
    if (auto text = findCachedText(key, "sass")) {
        std::size_t at = 0;
        cached = unpackOne(*text, at, log) && unpackOne(*text, at, disassembly) && at == text->size();
    }
    if (!cached) {
        const ScratchFolder scratch;
        const PtxasOutput output = runPtxas(ptx, options, ptxas, scratch);
        // -gi: the source lines with the lines they were inlined at; -c: only the code sections.
        const ToolRun run = runTool({nvdisasm->string(), "-gi", "-c", output.cubin.string()});
        if (!run.started)
            throw SassToolMissing("cannot run " + nvdisasm->string() + ": " + run.startError);
        if (run.exitStatus != 0)
            throw SassToolFailed("nvdisasm failed (exit status " + std::to_string(run.exitStatus) + "): " +
                                 std::string(trim(run.err)));
        log = output.log;
        disassembly = run.out;
        storeCachedText(key, "sass", packTwo(log, disassembly));
    }
    listing.fromCache = cached;
    listing.ptxasLog = log;
    listing.resources = parsePtxasVerbose(log);
    listing.functions = parseNvdisasm(disassembly);
    return listing;
}

std::optional<SassMemoryAccess> sassMemoryAccess(const SassInstruction& instruction)
{
    const std::string& opcode = instruction.opcode;
    const std::string base = opcode.substr(0, opcode.find('.'));
    SassMemoryAccess access;
    if (base == "LDS" || base == "LDSM") {
        access = {SassSpace::Shared, true, false, 32};
    } else if (base == "STS") {
        access = {SassSpace::Shared, false, true, 32};
    } else if (base == "ATOMS") {
        access = {SassSpace::Shared, true, true, 32};
    } else if (base == "LDG") {
        access = {SassSpace::Global, true, false, 32};
    } else if (base == "STG" || base == "RED" || base == "REDG") {
        access = {SassSpace::Global, false, true, 32};
    } else if (base == "ATOMG") {
        access = {SassSpace::Global, true, true, 32};
    } else if (base == "LDL") {
        access = {SassSpace::Local, true, false, 32};
    } else if (base == "STL") {
        access = {SassSpace::Local, false, true, 32};
    } else if (base == "LD") {
        access = {SassSpace::Generic, true, false, 32};
    } else if (base == "ST") {
        access = {SassSpace::Generic, false, true, 32};
    } else if (base == "ATOM") {
        access = {SassSpace::Generic, true, true, 32};
    } else if (base == "LDC" || base == "ULDC" || base == "LDCU") { // LDCU: sm_100's uniform constant load
        access = {SassSpace::Constant, true, false, 32};
    } else {
        return std::nullopt;
    }
    // The width is a modifier: .U8 .S8 .U16 .S16 .64 .128 (none: 32 bits). LDSM.16.M88.N loads N
    // 8x8 matrices of 16-bit values, one 32-bit register per matrix per thread.
    std::size_t at = opcode.find('.');
    while (at != std::string::npos) {
        const std::size_t next = opcode.find('.', at + 1);
        const std::string modifier = opcode.substr(at + 1, next == std::string::npos ? std::string::npos : next - at - 1);
        if (modifier == "U8" || modifier == "S8")
            access.widthBits = 8;
        else if (modifier == "U16" || modifier == "S16")
            access.widthBits = base == "LDSM" ? access.widthBits : 16;
        else if (modifier == "64")
            access.widthBits = 64;
        else if (modifier == "128")
            access.widthBits = 128;
        else if (base == "LDSM" && next == std::string::npos && (modifier == "2" || modifier == "4"))
            access.widthBits = 32 * (modifier[0] - '0');
        at = next;
    }
    return access;
}

const SassLocation* learnerLine(const SassInstruction& instruction)
{
    for (const SassLocation& line : instruction.lines)
        if (!isToolkitHeader(line.file))
            return &line;
    return instruction.outermostLine();
}

std::map<int, SassLineCounts> sassCountsByLine(const SassFunction& function)
{
    std::map<int, SassLineCounts> counts;
    for (const SassInstruction& instruction : function.instructions) {
        const SassLocation* line = learnerLine(instruction);
        if (!line)
            continue;
        SassLineCounts& count = counts[line->line];
        ++count.instructions;
        if (const auto access = sassMemoryAccess(instruction); access && access->space != SassSpace::Constant) {
            ++count.memoryInstructions;
            ++count.memoryByWidth[access->widthBits];
        }
    }
    return counts;
}

PtxLinesBySource ptxLinesBySource(const Module& module, const Function& function)
{
    PtxLinesBySource index;
    for (const Instruction& instruction : function.instructions) {
        const auto file = module.files.find(instruction.source.file);
        if (file == module.files.end() || instruction.source.line <= 0)
            continue;
        std::vector<std::int32_t>& lines = index[{sameFileName(file->second), instruction.source.line}];
        if (lines.empty() || lines.back() != instruction.ptxLine)
            lines.push_back(instruction.ptxLine);
    }
    for (auto& [source, lines] : index) {
        std::sort(lines.begin(), lines.end());
        lines.erase(std::unique(lines.begin(), lines.end()), lines.end());
    }
    return index;
}

std::vector<std::int32_t> ptxLinesOf(const PtxLinesBySource& index, const SassInstruction& instruction)
{
    const SassLocation* line = learnerLine(instruction);
    if (!line)
        return {};
    const auto found = index.find({sameFileName(line->file), line->line});
    return found == index.end() ? std::vector<std::int32_t>() : found->second;
}

std::string lineRanges(const std::vector<std::int32_t>& lines)
{
    std::string text;
    for (std::size_t i = 0; i < lines.size();) {
        std::size_t j = i;
        while (j + 1 < lines.size() && lines[j + 1] == lines[j] + 1)
            ++j;
        text += (text.empty() ? "" : ",") + std::to_string(lines[i]) +
                (j > i ? "-" + std::to_string(lines[j]) : std::string());
        i = j + 1;
    }
    return text;
}

} // namespace warpscope::ptx
