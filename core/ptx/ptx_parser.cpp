// PTX text -> Module: the tokens (ptx_lexer.cpp) read by one statement parser (ptx_parser_internal.h).
// This file holds the module level: directives, variables, types, function headers and parameters,
// and finishing each function. Directives without a terminating ';' (.version, .target,
// .address_size, .file, .loc) end at the end of their line.
#include "ptx/ptx_parser_internal.h"

#include "ptx/call_linking.h"
#include "ptx/cfg.h"
#include "ptx/contraction.h"
#include "ptx/ptx_parser.h"
#include "ptx/ptx_target.h"
#include "ptx/source_files.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace warpscope::ptx::detail {

Module Parser::parse()
{
    while (!atEnd())
        parseModuleStatement();
    resolveLearnerLines();
    for (Function& function : m_module.functions)
        finishFunction(function);
    linkCalls(m_module);
    return std::move(m_module);
}

void Parser::resolveLearnerLines()
{
    const auto learners = [&](const SourceLocation& place) {
        const auto file = m_module.files.find(place.file);
        return file != m_module.files.end() && !isToolkitHeader(file->second);
    };
    for (Function& function : m_module.functions) {
        const auto chains = m_instructionChains.find(function.name);
        if (chains == m_instructionChains.end())
            continue;
        for (Instruction& instruction : function.instructions) {
            const auto chain = chains->second.find(instruction.ptxLine);
            if (chain == chains->second.end())
                continue;
            const std::vector<SourceLocation>& places = m_chains[static_cast<std::size_t>(chain->second)];
            const auto innermost = std::find_if(places.begin(), places.end(), learners);
            if (innermost != places.end())
                instruction.source = *innermost;
        }
    }
}

void Parser::parseModuleStatement()
{
    const Token& token = peek();
    const int line = token.line;
    if (token.kind != Token::Kind::Word)
        fail("expected a directive, found " + describe(token));
    const std::string_view word = token.text;
    if (word == ".version") {
        next();
        if (peek().kind != Token::Kind::Number)
            fail("expected a version number after .version");
        m_module.version = std::string(next().text);
        return;
    }
    if (word == ".target") {
        next();
        m_module.target = std::string(expectWord("a target such as sm_75"));
        while (accept(","))
            expectWord("a target option");
        // The PTX ISA's rule: a target exists from one ISA version on (sm_100 from .version 8.6).
        try {
            requireTargetVersion(m_module.target, m_module.version);
        } catch (const PtxError&) {
            throw;
        } catch (const InputError& error) {
            throw PtxError(error.what(), line);
        }
        return;
    }
    if (word == ".address_size") {
        next();
        m_module.addressSize = static_cast<int>(expectInteger("an address size"));
        if (m_module.addressSize != 64)
            throw PtxError(".address_size " + std::to_string(m_module.addressSize) + " is not supported (only 64)", line);
        return;
    }
    if (word == ".file") {
        next();
        const int index = static_cast<int>(expectInteger("a file index"));
        if (peek().kind != Token::Kind::String)
            fail("expected a quoted file name after .file " + std::to_string(index));
        m_module.files[index] = std::string(next().text);
        skipRestOfLine(line); // optional timestamp and size
        return;
    }
    if (word == ".section") {
        next();
        expectWord("a section name");
        skipBraces();
        return;
    }
    if (word == ".pragma") {
        next();
        while (!atEnd() && !accept(";"))
            next();
        return;
    }
    // Linkage, then .entry/.func or a variable.
    bool isExtern = false;
    while (peek().text == ".visible" || peek().text == ".extern" || peek().text == ".weak" ||
           peek().text == ".common") {
        isExtern = isExtern || peek().text == ".extern";
        next();
    }
    if (peek().text == ".entry" || peek().text == ".func") {
        parseFunction(isExtern);
        return;
    }
    if (peek().text == ".global" || peek().text == ".const" || peek().text == ".shared") {
        if (std::optional<Symbol> symbol = parseVariable(isExtern))
            m_module.globals.push_back(std::move(*symbol));
        return;
    }
    fail("unexpected " + describe(peek()) + " at module scope");
}

// .global/.const/.shared/.local/.param [.align N] .type name[[N]] [= {...}] ; nullopt for a
// variable of a type the simulator does not model (.texref ...), recorded as unsupported.
std::optional<Symbol> Parser::parseVariable(bool isExtern)
{
    Symbol symbol;
    const std::string_view spaceWord = next().text;
    symbol.space = spaceWord == ".global" ? Space::Global
                 : spaceWord == ".const"  ? Space::Const
                 : spaceWord == ".shared" ? Space::Shared
                 : spaceWord == ".param"  ? Space::Param
                                          : Space::Local;
    symbol.frameParam = symbol.space == Space::Param; // a call sequence's .param (only in bodies)
    if (accept(".align"))
        symbol.alignment = parseAlignment();
    const int declarationLine = peek().line;
    const std::string_view typeWord = expectWord("a type such as .b8");
    if (typeWord == ".texref" || typeWord == ".samplerref" || typeWord == ".surfref") {
        recordUnsupported(std::string(typeWord), "variable type", declarationLine);
        skipStatement();
        return std::nullopt;
    }
    symbol.type = parseTypeDirective(typeWord);
    symbol.name = std::string(expectWord("a variable name"));
    const std::uint64_t elementBytes = static_cast<std::uint64_t>(typeBits(symbol.type) / 8);
    std::uint64_t count = 1;
    if (accept("[")) {
        if (accept("]")) {
            if (!(isExtern && symbol.space == Space::Shared))
                fail("an array without a size is only allowed for extern .shared");
            symbol.externShared = true;
            count = 0;
        } else {
            count = expectInteger("an array size");
            expect("]", "after the array size");
        }
    }
    symbol.size = variableBytes(symbol, count, declarationLine);
    symbol.alignment = std::max<std::uint32_t>(symbol.alignment, static_cast<std::uint32_t>(elementBytes));
    if (accept("=")) {
        auto pushValue = [&](std::uint64_t value) {
            for (std::uint64_t b = 0; b < elementBytes; ++b)
                symbol.initializer.push_back(static_cast<std::uint8_t>(value >> (8 * b)));
        };
        auto parseValue = [&] {
            const bool negative = accept("-");
            if (peek().kind != Token::Kind::Number)
                fail("expected a number in the initializer of " + symbol.name);
            std::optional<std::uint64_t> value = isFloat(symbol.type)
                ? parseFloatLiteral(peek().text, symbol.type) : parseIntegerLiteral(peek().text);
            if (!value)
                fail("bad value " + describe(peek()) + " in the initializer of " + symbol.name);
            next();
            pushValue(negative ? (isFloat(symbol.type) ? *value ^ (std::uint64_t{1} << (typeBits(symbol.type) - 1)) : ~*value + 1) : *value);
        };
        if (accept("{")) {
            if (!accept("}")) {
                do parseValue(); while (accept(","));
                expect("}", "to close the initializer");
            }
        } else {
            parseValue();
        }
        if (symbol.initializer.size() > symbol.size)
            fail("the initializer of " + symbol.name + " is larger than the variable");
    }
    expect(";", "after the declaration of " + symbol.name);
    return symbol;
}

// .align N: a power of two from 1 to 4096 (larger would never be honoured by the layout).
std::uint32_t Parser::parseAlignment()
{
    const int line = peek().line;
    const std::uint64_t value = expectInteger("an alignment");
    if (value == 0 || value > 4096 || (value & (value - 1)) != 0)
        throw PtxError(".align " + std::to_string(value) + " is not a power of two from 1 to 4096", line);
    return static_cast<std::uint32_t>(value);
}

// count x element bytes, rejecting predicates (no memory size) and sizes past 2^40 bytes.
std::uint64_t Parser::variableBytes(const Symbol& symbol, std::uint64_t count, int line)
{
    if (symbol.type == Type::Pred)
        throw PtxError("'" + symbol.name + "': .pred variables have no size in memory", line);
    const std::uint64_t elementBytes = static_cast<std::uint64_t>(typeBits(symbol.type) / 8);
    constexpr std::uint64_t kLimit = std::uint64_t{1} << 40;
    if (count > kLimit / elementBytes)
        throw PtxError("'" + symbol.name + "' is " + std::to_string(count) + " elements: larger than the simulator allows", line);
    return count * elementBytes;
}

Type Parser::parseTypeDirective(std::string_view word)
{
    if (!word.starts_with('.'))
        fail("expected a type, found '" + std::string(word) + "'");
    Instruction probe;
    probe.ptxLine = peek().line;
    static const std::unordered_map<std::string_view, Type> types = {
        {".pred", Type::Pred}, {".b8", Type::B8},   {".b16", Type::B16}, {".b32", Type::B32},
        {".b64", Type::B64},   {".u8", Type::U8},   {".u16", Type::U16}, {".u32", Type::U32},
        {".u64", Type::U64},   {".s8", Type::S8},   {".s16", Type::S16}, {".s32", Type::S32},
        {".s64", Type::S64},   {".f16", Type::F16}, {".f32", Type::F32}, {".f64", Type::F64},
        {".bf16", Type::BF16}, {".f16x2", Type::F16x2}, {".bf16x2", Type::BF16x2},
    };
    auto found = types.find(word);
    if (found == types.end())
        fail("unsupported type '" + std::string(word) + "'");
    return found->second;
}

void Parser::parseFunction(bool isExtern)
{
    Function function;
    const int declarationLine = peek().line;
    function.isEntry = next().text == ".entry";
    function.ptxLine = declarationLine;
    m_function = &function;
    m_registerIndex.clear();
    m_symbolIndex.clear();
    m_inlinedAt.clear();
    m_chainOfWritten.clear();
    m_currentChain = -1;
    m_globalSymbolIndex.clear();
    m_scopes.clear();
    pushScope(); // the parameters'
    m_current = SourceLocation{};
    if (!function.isEntry && accept("(")) { // .func (.param .b32 retval) name (...): return values
        if (!accept(")")) {
            do parseParam(function, true); while (accept(","));
            expect(")", "to close the return values");
        }
    }
    function.name = std::string(expectWord("a function name"));
    if (accept("(")) {
        if (!accept(")")) {
            do parseParam(function, false); while (accept(","));
            expect(")", "to close the parameter list");
        }
    }
    // Performance and linking directives.
    while (peek().kind == Token::Kind::Word && peek().text.starts_with('.') && peek().text != ".entry") {
        const int directiveLine = peek().line;
        const std::string_view directive = next().text;
        if (directive == ".noreturn")
            continue; // a promise about control flow, nothing to model
        std::array<std::uint32_t, 3> values{0, 0, 0};
        int count = 0;
        const bool takesValues = directive != ".explicitcluster" && directive != ".blocksareclusters";
        while (takesValues) {
            if (count == 3)
                fail("too many values for " + std::string(directive));
            values[count++] = static_cast<std::uint32_t>(expectInteger(std::string(directive) + " value"));
            if (!accept(","))
                break;
        }
        if (directive == ".reqntid") function.reqntid = values;
        else if (directive == ".maxntid") function.maxntid = values;
        else if (directive == ".explicitcluster" || directive == ".blocksareclusters")
            recordUnsupported(std::string(directive), "cluster directive", directiveLine);
        else if (directive != ".minnctapersm" && directive != ".maxnreg" && directive != ".maxclusterrank" &&
                 directive != ".reqnctapercluster" && directive != ".maxnctapersm")
            throw PtxError("unknown function directive '" + std::string(directive) + "'", directiveLine);
    }
    if (accept(";")) {
        m_function = nullptr;
        if (!isExtern && function.isEntry)
            throw PtxError("kernel " + function.name + " has no body", declarationLine);
        if (!function.isEntry && !m_module.findFunction(function.name) &&
            std::find(m_module.declarations.begin(), m_module.declarations.end(), function.name) ==
                m_module.declarations.end())
            m_module.declarations.push_back(function.name);
        return; // a declaration only
    }
    expect("{", "to open the body of " + function.name);
    pushScope(); // the body's
    parseBody(function);
    m_function = nullptr;
    m_module.functions.push_back(std::move(function));
}

void Parser::parseParam(Function& function, bool returnValue)
{
    if (!accept(".param"))
        fail("expected .param in the parameter list of " + function.name);
    Symbol symbol;
    symbol.space = Space::Param;
    const int declarationLine = peek().line;
    // .ptr .global .align N qualifiers on pointer params, before or after the type.
    auto skipPointerQualifiers = [&] {
        while (true) {
            if (accept(".align")) {
                symbol.alignment = std::max(symbol.alignment, parseAlignment());
            } else if (peek().text == ".ptr" || peek().text == ".global" || peek().text == ".shared" ||
                       peek().text == ".const" || peek().text == ".local") {
                next();
            } else {
                return;
            }
        }
    };
    skipPointerQualifiers();
    symbol.type = parseTypeDirective(expectWord("a parameter type"));
    skipPointerQualifiers();
    symbol.name = std::string(expectWord("a parameter name"));
    const std::uint64_t elementBytes = static_cast<std::uint64_t>(typeBits(symbol.type) / 8);
    std::uint64_t count = 1;
    if (accept("[")) {
        count = expectInteger("a parameter array size");
        expect("]", "after the parameter array size");
    }
    symbol.size = variableBytes(symbol, count, declarationLine);
    symbol.alignment = std::max<std::uint32_t>(symbol.alignment, static_cast<std::uint32_t>(elementBytes));
    // A device function's parameters and return values live in the thread's frame (laid out
    // with its local variables in finishFunction); a kernel's in the parameter buffer.
    symbol.frameParam = !function.isEntry;
    if (!symbol.frameParam) {
        function.paramBytes = (function.paramBytes + symbol.alignment - 1) / symbol.alignment * symbol.alignment;
        symbol.offset = function.paramBytes;
        function.paramBytes += symbol.size;
    }
    const auto index = static_cast<std::int32_t>(function.symbols.size());
    (returnValue ? function.returnParams : function.params).push_back(index);
    declareSymbol(symbol.name, index, declarationLine);
    function.symbols.push_back(std::move(symbol));
}

void Parser::finishFunction(Function& function)
{
    // A label after the last instruction (a branch to the end of the body): the function ends
    // there, which behaves as ret. Give the label an instruction to stand on.
    bool labelAtEnd = false;
    for (const auto& [name, index] : function.labels)
        labelAtEnd = labelAtEnd || index == static_cast<std::int32_t>(function.instructions.size());
    if (labelAtEnd) {
        Instruction implicitReturn;
        implicitReturn.op = Op::Ret;
        implicitReturn.ptxLine = function.instructions.empty() ? function.ptxLine : function.instructions.back().ptxLine;
        implicitReturn.source = function.instructions.empty() ? SourceLocation{} : function.instructions.back().source;
        implicitReturn.text = "ret (implicit: the end of the function)";
        function.instructions.push_back(std::move(implicitReturn));
    }
    // Labels.
    for (Instruction& instruction : function.instructions) {
        for (int i = 0; i < instruction.operandCount; ++i) {
            Operand& operand = instruction.operands[i];
            if (operand.kind != Operand::Kind::Label || operand.target >= 0)
                continue;
            const PendingLabel& pending = m_pendingLabels[static_cast<std::size_t>(-2 - operand.target)];
            auto found = function.labels.find(pending.name);
            if (found == function.labels.end())
                throw PtxError("branch to undefined label " + pending.name, pending.line);
            operand.target = found->second;
        }
    }
    // Shared memory: static variables in declaration order, then the dynamic (extern) area.
    std::uint64_t sharedEnd = 0;
    std::uint32_t externAlignment = 16;
    for (Symbol& symbol : function.symbols) {
        if (symbol.space == Space::Shared && !symbol.externShared) {
            sharedEnd = (sharedEnd + symbol.alignment - 1) / symbol.alignment * symbol.alignment;
            symbol.offset = sharedEnd;
            sharedEnd += symbol.size;
        } else if (symbol.space == Space::Shared) {
            externAlignment = std::max(externAlignment, symbol.alignment);
        }
    }
    const std::uint64_t dynamicStart = (sharedEnd + externAlignment - 1) / externAlignment * externAlignment;
    for (Symbol& symbol : function.symbols)
        if (symbol.space == Space::Shared && symbol.externShared)
            symbol.offset = dynamicStart;
    function.staticSharedBytes = sharedEnd;
    function.dynamicSharedAlignment = externAlignment;
    // Local memory per thread: .local variables, then the .params that live in the thread's
    // frame (a device function's parameters and return values, call sequences' .params).
    std::uint64_t localEnd = 0;
    for (int pass = 0; pass < 2; ++pass)
        for (Symbol& symbol : function.symbols) {
            if (pass == 0 ? symbol.space != Space::Local : !symbol.frameParam)
                continue;
            localEnd = (localEnd + symbol.alignment - 1) / symbol.alignment * symbol.alignment;
            symbol.offset = localEnd;
            localEnd += symbol.size;
        }
    function.localBytes = localEnd;
    auto place = [&](Operand& operand) {
        if ((operand.kind == Operand::Kind::Address || operand.kind == Operand::Kind::Symbol) && operand.symbol >= 0) {
            const Symbol& symbol = function.symbols[static_cast<std::size_t>(operand.symbol)];
            if (symbol.space != Space::Global && symbol.space != Space::Const)
                operand.offset += static_cast<std::int64_t>(symbol.offset);
        }
    };
    for (Instruction& instruction : function.instructions)
        for (int i = 0; i < instruction.operandCount; ++i) {
            Operand& operand = instruction.operands[i];
            place(operand);
            // ld.param / st.param of a frame .param: an access to the thread's local frame.
            if (operand.kind == Operand::Kind::Address && operand.symbol >= 0 && instruction.space == Space::Param &&
                function.symbols[static_cast<std::size_t>(operand.symbol)].frameParam)
                instruction.space = Space::Local;
        }
    for (CallSite& call : function.calls) {
        for (Operand& operand : call.results) place(operand);
        for (Operand& operand : call.arguments) place(operand);
    }
    buildControlFlow(function);
    markContractions(function);
}

} // namespace warpscope::ptx::detail

namespace warpscope::ptx {

Module parseModule(std::string_view text)
{
    return detail::Parser(text).parse();
}

} // namespace warpscope::ptx
