// PTX text -> Module. A small tokenizer, then a statement parser for module directives and function
// bodies. Directives without a terminating ';' (.version, .target, .address_size, .file, .loc) end at
// the end of their line.
#include "ptx/ptx_parser.h"

#include "ptx/call_linking.h"
#include "ptx/cfg.h"
#include "ptx/contraction.h"
#include "ptx/ptx_error.h"
#include "ptx/ptx_lexer.h"
#include "ptx/ptx_opcode.h"
#include "ptx/ptx_validate.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace warpscope::ptx {

namespace {

class Parser {
public:
    explicit Parser(std::string_view text) : m_tokens(tokenize(text)) {}

    Module parse()
    {
        while (!atEnd())
            parseModuleStatement();
        for (Function& function : m_module.functions)
            finishFunction(function);
        linkCalls(m_module);
        return std::move(m_module);
    }

private:
    // --- token helpers -------------------------------------------------------------------------
    const Token& peek(std::size_t ahead = 0) const
    {
        return m_tokens[std::min(m_pos + ahead, m_tokens.size() - 1)];
    }
    bool atEnd() const { return peek().kind == Token::Kind::End; }
    const Token& next()
    {
        const Token& token = peek();
        if (m_pos < m_tokens.size() - 1)
            ++m_pos;
        return token;
    }
    bool accept(std::string_view text)
    {
        if (peek().kind != Token::Kind::String && peek().text == text && !atEnd()) {
            ++m_pos;
            return true;
        }
        return false;
    }
    void expect(std::string_view text, std::string_view where)
    {
        if (!accept(text))
            fail("expected '" + std::string(text) + "' " + std::string(where) + ", found " + describe(peek()));
    }
    [[noreturn]] void fail(const std::string& message) const { throw PtxError(message, peek().line); }
    static std::string describe(const Token& token)
    {
        if (token.kind == Token::Kind::End)
            return "the end of the text";
        return "'" + std::string(token.text) + "'";
    }
    std::string_view expectWord(std::string_view what)
    {
        if (peek().kind != Token::Kind::Word)
            fail("expected " + std::string(what) + ", found " + describe(peek()));
        return next().text;
    }
    std::uint64_t expectInteger(std::string_view what)
    {
        if (peek().kind != Token::Kind::Number)
            fail("expected " + std::string(what) + ", found " + describe(peek()));
        auto value = parseIntegerLiteral(peek().text);
        if (!value)
            fail("bad integer " + describe(peek()) + " for " + std::string(what));
        next();
        return *value;
    }
    void skipRestOfLine(int line)
    {
        while (!atEnd() && peek().line == line)
            next();
    }
    void skipBraces()
    {
        expect("{", "to open a section");
        int depth = 1;
        while (depth > 0) {
            if (atEnd())
                fail("unterminated '{'");
            const Token& token = next();
            if (token.kind == Token::Kind::Punct && token.text == "{") ++depth;
            if (token.kind == Token::Kind::Punct && token.text == "}") --depth;
        }
    }

    // --- module level ----------------------------------------------------------------------------
    void parseModuleStatement()
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
    std::optional<Symbol> parseVariable(bool isExtern)
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
    std::uint32_t parseAlignment()
    {
        const int line = peek().line;
        const std::uint64_t value = expectInteger("an alignment");
        if (value == 0 || value > 4096 || (value & (value - 1)) != 0)
            throw PtxError(".align " + std::to_string(value) + " is not a power of two from 1 to 4096", line);
        return static_cast<std::uint32_t>(value);
    }

    // count x element bytes, rejecting predicates (no memory size) and sizes past 2^40 bytes.
    std::uint64_t variableBytes(const Symbol& symbol, std::uint64_t count, int line)
    {
        if (symbol.type == Type::Pred)
            throw PtxError("'" + symbol.name + "': .pred variables have no size in memory", line);
        const std::uint64_t elementBytes = static_cast<std::uint64_t>(typeBits(symbol.type) / 8);
        constexpr std::uint64_t kLimit = std::uint64_t{1} << 40;
        if (count > kLimit / elementBytes)
            throw PtxError("'" + symbol.name + "' is " + std::to_string(count) + " elements: larger than the simulator allows", line);
        return count * elementBytes;
    }

    Type parseTypeDirective(std::string_view word)
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

    // --- functions -------------------------------------------------------------------------------
    void parseFunction(bool isExtern)
    {
        Function function;
        const int declarationLine = peek().line;
        function.isEntry = next().text == ".entry";
        function.ptxLine = declarationLine;
        m_function = &function;
        m_registerIndex.clear();
        m_symbolIndex.clear();
        m_inlinedAt.clear();
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

    void parseParam(Function& function, bool returnValue)
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

    void parseBody(Function& function)
    {
        int depth = 1;
        while (true) {
            if (atEnd())
                fail("the body of " + function.name + " is not closed");
            const Token& token = peek();
            if (token.kind == Token::Kind::Punct && token.text == "}") {
                next();
                popScope();
                if (--depth == 0)
                    return;
                continue;
            }
            if (token.kind == Token::Kind::Punct && token.text == "{") {
                next();
                pushScope(); // inline asm and call sequences declare their own registers and .params
                ++depth;
                continue;
            }
            if (token.kind == Token::Kind::Word && peek(1).kind == Token::Kind::Punct && peek(1).text == ":" &&
                !token.text.starts_with('.') && !token.text.starts_with('%')) {
                const std::string label(token.text);
                if (function.labels.contains(label))
                    fail("label " + label + " is defined twice");
                function.labels[label] = static_cast<std::int32_t>(function.instructions.size());
                next();
                next();
                continue;
            }
            if (token.kind == Token::Kind::Word && token.text.starts_with('.')) {
                parseBodyDirective(function);
                continue;
            }
            parseInstruction(function);
        }
    }

    void parseBodyDirective(Function& function)
    {
        const Token& token = peek();
        const int line = token.line;
        const std::string_view word = token.text;
        if (word == ".loc") {
            next();
            SourceLocation location;
            location.file = static_cast<std::int32_t>(expectInteger("a .loc file index"));
            location.line = static_cast<std::int32_t>(expectInteger("a .loc line"));
            location.column = static_cast<std::int32_t>(expectInteger("a .loc column"));
            const SourceLocation written = location;
            // ", function_name $L__info_stringN, inlined_at F L C": the user's line is the call site.
            // A call site inside inlined code was itself named by an earlier .loc with its own
            // inlined_at: follow the chain out to the user's line.
            while (accept(",")) {
                const std::string_view key = expectWord("a .loc attribute");
                if (key == "inlined_at") {
                    location.file = static_cast<std::int32_t>(expectInteger("an inlined_at file index"));
                    location.line = static_cast<std::int32_t>(expectInteger("an inlined_at line"));
                    location.column = static_cast<std::int32_t>(expectInteger("an inlined_at column"));
                    if (auto outer = m_inlinedAt.find(locationKey(location)); outer != m_inlinedAt.end())
                        location = outer->second;
                } else {
                    expectWord("a .loc attribute value");
                }
            }
            m_inlinedAt[locationKey(written)] = location;
            m_current = location;
            skipRestOfLine(line);
            return;
        }
        if (word == ".reg" || word.starts_with(".reg.")) {
            next();
            // ".reg.b16 x;" (no space, as some inline asm in cuda_fp16.hpp writes it) is one word.
            const Type type = parseTypeDirective(word.size() > 4 ? word.substr(4) : expectWord("a register type"));
            do {
                const std::string_view name = expectWord("a register name");
                if (accept("<")) {
                    const std::uint64_t count = expectInteger("a register count");
                    expect(">", "after the register count");
                    if (count > 65536)
                        fail("too many registers declared: " + std::to_string(count));
                    for (std::uint64_t i = 0; i < count; ++i)
                        declareRegister(function, std::string(name) + std::to_string(i), type);
                } else {
                    declareRegister(function, std::string(name), type);
                }
            } while (accept(","));
            expect(";", "after a register declaration");
            return;
        }
        if (word == ".shared" || word == ".local" || word == ".param") {
            if (std::optional<Symbol> symbol = parseVariable(false)) {
                declareSymbol(symbol->name, static_cast<std::int32_t>(function.symbols.size()), line);
                function.symbols.push_back(std::move(*symbol));
            }
            return;
        }
        if (word == ".pragma") {
            next();
            while (!atEnd() && !accept(";"))
                next();
            return;
        }
        fail("unsupported directive '" + std::string(word) + "' in the body of " + function.name);
    }

    // --- scopes: a function's parameters, its body, and every { } inside it (inline asm, call
    // sequences) may declare registers and variables; an inner one may reuse an outer one's name.
    struct ScopedName {
        std::int32_t index = -1;
        int depth = 0;
    };
    struct Scope {
        std::vector<std::pair<std::string, ScopedName>> shadowedRegisters, shadowedSymbols; // to restore
    };
    void pushScope() { m_scopes.emplace_back(); }
    void popScope()
    {
        if (m_scopes.empty())
            return;
        Scope& scope = m_scopes.back();
        auto restore = [](std::unordered_map<std::string, ScopedName>& names,
                          std::vector<std::pair<std::string, ScopedName>>& shadowed) {
            for (auto it = shadowed.rbegin(); it != shadowed.rend(); ++it) {
                if (it->second.index < 0)
                    names.erase(it->first);
                else
                    names[it->first] = it->second;
            }
        };
        restore(m_registerIndex, scope.shadowedRegisters);
        restore(m_symbolIndex, scope.shadowedSymbols);
        m_scopes.pop_back();
    }
    // Declares `name` in the innermost scope; twice in the same scope is an error.
    void declareScoped(std::unordered_map<std::string, ScopedName>& names, bool isRegister, const std::string& name,
                       std::int32_t index, int line)
    {
        const int depth = static_cast<int>(m_scopes.size());
        auto found = names.find(name);
        if (found != names.end() && found->second.depth == depth)
            throw PtxError((isRegister ? "register " : "variable ") + name + " is declared twice", line);
        auto& shadowed = isRegister ? m_scopes.back().shadowedRegisters : m_scopes.back().shadowedSymbols;
        shadowed.emplace_back(name, found == names.end() ? ScopedName{} : found->second);
        names[name] = ScopedName{index, depth};
    }
    void declareSymbol(const std::string& name, std::int32_t index, int line)
    {
        declareScoped(m_symbolIndex, false, name, index, line);
    }

    void declareRegister(Function& function, std::string name, Type type)
    {
        declareScoped(m_registerIndex, true, name, static_cast<std::int32_t>(function.registers.size()), peek().line);
        function.registers.push_back({std::move(name), type});
    }

    std::int32_t registerIndex(std::string_view name)
    {
        auto found = m_registerIndex.find(std::string(name));
        if (found == m_registerIndex.end())
            fail("register " + std::string(name) + " is not declared");
        return found->second.index;
    }

    // The index of a symbol in the function's table, adding module-scope variables on first use.
    std::optional<std::int32_t> symbolIndex(Function& function, std::string_view name)
    {
        const std::string key(name);
        if (auto found = m_symbolIndex.find(key); found != m_symbolIndex.end())
            return found->second.index;
        if (auto found = m_globalSymbolIndex.find(key); found != m_globalSymbolIndex.end())
            return found->second;
        for (std::size_t i = 0; i < m_module.globals.size(); ++i) {
            if (m_module.globals[i].name == name) {
                Symbol symbol = m_module.globals[i];
                symbol.moduleIndex = static_cast<std::int32_t>(i);
                function.symbols.push_back(std::move(symbol));
                const auto index = static_cast<std::int32_t>(function.symbols.size() - 1);
                m_globalSymbolIndex.emplace(key, index);
                return index;
            }
        }
        return std::nullopt;
    }

    // Valid PTX the simulator cannot run: noted on the function being parsed (or the module), so
    // that only kernels reaching it are refused.
    void recordUnsupported(std::string construct, std::string kind, int line)
    {
        UnsupportedConstruct record;
        record.construct = std::move(construct);
        record.kind = std::move(kind);
        record.ptxLine = line;
        record.source = m_function ? m_current : SourceLocation{};
        if (m_function) {
            record.function = m_function->name;
            m_function->unsupported.push_back(std::move(record));
        } else {
            m_module.unsupported.push_back(std::move(record));
        }
    }

    // Skips the rest of a statement, to and including its ';' (brackets may nest inside it).
    void skipStatement()
    {
        int depth = 0;
        while (true) {
            if (atEnd())
                fail("expected ';' to end the statement");
            const Token& token = peek();
            if (token.kind == Token::Kind::Punct) {
                if (token.text == "{" || token.text == "(" || token.text == "[") {
                    ++depth;
                } else if (token.text == "}" || token.text == ")" || token.text == "]") {
                    if (depth == 0)
                        fail("unexpected " + describe(token) + " before ';'");
                    --depth;
                } else if (token.text == ";" && depth == 0) {
                    next();
                    return;
                }
            }
            next();
        }
    }

    void parseInstruction(Function& function)
    {
        Instruction instruction;
        instruction.ptxLine = peek().line;
        instruction.source = m_current;
        const std::size_t firstToken = m_pos;
        if (accept("@")) {
            instruction.guardNegated = accept("!");
            const std::string_view name = expectWord("a guard predicate");
            instruction.guard = registerIndex(name);
            if (function.registers[instruction.guard].type != Type::Pred)
                fail("guard " + std::string(name) + " is not a predicate register");
        }
        if (peek().kind != Token::Kind::Word)
            fail("expected an instruction, found " + describe(peek()));
        const std::string_view opcode = next().text;
        try {
            decodeOpcode(opcode, instruction);
            if (instruction.op == Op::Call) {
                parseCall(function, instruction);
            } else if (!accept(";")) {
                do {
                    if (instruction.operandCount == instruction.operands.size())
                        fail("too many operands for '" + std::string(opcode) + "'");
                    instruction.operands[instruction.operandCount++] = parseOperand(function, instruction);
                } while (accept(","));
                expect(";", "after the operands of '" + std::string(opcode) + "'");
            }
        } catch (const PtxError& error) {
            if (!error.isUnsupported())
                throw;
            // Valid PTX the simulator cannot run: noted, and the statement skipped. Only kernels
            // that can reach this function are refused (Module::unsupportedFor).
            recordUnsupported(error.construct(), error.kind(), instruction.ptxLine);
            skipStatement();
            return;
        }
        // Keep the instruction's text for display.
        std::string text;
        for (std::size_t i = firstToken; i < m_pos - 1; ++i) {
            const Token& token = m_tokens[i];
            const bool glue = token.kind == Token::Kind::Punct && (token.text == "," || token.text == "]" ||
                                                                  token.text == "|" || token.text == "+");
            const Token* previous = i > firstToken ? &m_tokens[i - 1] : nullptr;
            const bool afterGlue = previous && previous->kind == Token::Kind::Punct &&
                                   (previous->text == "[" || previous->text == "|" || previous->text == "+" ||
                                    previous->text == "@" || previous->text == "!" || previous->text == "-" ||
                                    previous->text == "{");
            if (!text.empty() && !glue && !afterGlue && !(token.kind == Token::Kind::Punct && token.text == "}"))
                text += ' ';
            text += token.text;
        }
        instruction.text = std::move(text);
        validateOperands(function, instruction, opcode);
        function.instructions.push_back(std::move(instruction));
    }

    // call{.uni} [(results),] callee [, (arguments)] ; -- the opcode is already read.
    void parseCall(Function& function, Instruction& instruction)
    {
        CallSite site;
        auto parseList = [&](std::vector<Operand>& into, std::string_view what) {
            if (accept(")"))
                return;
            do into.push_back(parseOperand(function, instruction)); while (accept(","));
            expect(")", "to close the " + std::string(what));
        };
        if (accept("(")) {
            parseList(site.results, "return values of the call");
            expect(",", "after the return values of the call");
        }
        const int calleeLine = peek().line;
        const std::string_view callee = expectWord("the name of the function to call");
        if (callee.starts_with('%'))
            throw PtxError::unsupported("call through a function pointer", calleeLine, "construct");
        site.callee = std::string(callee);
        if (accept(",")) {
            expect("(", "to open the arguments of the call");
            parseList(site.arguments, "arguments of the call");
            if (accept(","))
                throw PtxError::unsupported("call with a prototype or call targets", calleeLine, "construct");
        }
        expect(";", "after the call");
        for (const Operand& result : site.results)
            if (result.kind != Operand::Kind::Symbol)
                fail("the return values of a call must be .param variables");
        if (std::find(function.callees.begin(), function.callees.end(), site.callee) == function.callees.end())
            function.callees.push_back(site.callee);
        instruction.call = static_cast<std::int32_t>(function.calls.size());
        function.calls.push_back(std::move(site));
    }

    Operand parseOperand(Function& function, const Instruction& instruction)
    {
        Operand operand;
        if (accept("[")) {
            operand.kind = Operand::Kind::Address;
            if (peek().kind == Token::Kind::Number) {
                operand.offset = static_cast<std::int64_t>(expectInteger("an address"));
            } else {
                const std::string_view base = expectWord("an address base");
                if (base.starts_with('%') || m_registerIndex.contains(std::string(base))) {
                    operand.reg = registerIndex(base);
                } else if (auto symbol = symbolIndex(function, base)) {
                    operand.symbol = *symbol;
                    operand.symbolSpace = function.symbols[*symbol].space;
                } else {
                    fail("unknown variable '" + std::string(base) + "' in an address");
                }
            }
            if (accept("+")) {
                const bool negative = accept("-");
                const std::int64_t offset = static_cast<std::int64_t>(expectInteger("an address offset"));
                operand.offset += negative ? -offset : offset;
            } else if (accept("-")) {
                operand.offset -= static_cast<std::int64_t>(expectInteger("an address offset"));
            }
            expect("]", "to close an address");
            return operand;
        }
        if (accept("{")) {
            operand.kind = Operand::Kind::Vector;
            do {
                if (operand.vectorCount == 4)
                    fail("a vector operand has at most four registers");
                if (accept("_")) {
                    operand.vector[operand.vectorCount++] = kSink;
                    continue;
                }
                if (peek().kind == Token::Kind::Number) { // mov.b32 %f1, {0, %rs1}: a constant half
                    const auto value = parseIntegerLiteral(peek().text);
                    if (!value)
                        fail("bad integer " + describe(peek()) + " in a vector");
                    next();
                    operand.vectorImm[operand.vectorCount] = *value;
                    operand.vector[operand.vectorCount++] = kVectorImmediate;
                    continue;
                }
                operand.vector[operand.vectorCount++] = registerIndex(expectWord("a register in a vector"));
            } while (accept(","));
            expect("}", "to close a vector operand");
            return operand;
        }
        if (accept("!")) {
            operand.kind = Operand::Kind::Reg;
            operand.negate = true;
            operand.reg = registerIndex(expectWord("a predicate after '!'"));
            return operand;
        }
        if (peek().kind == Token::Kind::Number || peek().text == "-") {
            const bool negative = accept("-");
            if (peek().kind != Token::Kind::Number)
                fail("expected a number after '-'");
            const std::string_view text = next().text;
            operand.kind = Operand::Kind::Imm;
            const Type type = instruction.op == Op::Cvt ? instruction.type2 : instruction.type;
            std::optional<std::uint64_t> value;
            if (isFloat(type) && (text.starts_with("0f") || text.starts_with("0F") || text.starts_with("0d") ||
                                  text.starts_with("0D") || text.find('.') != std::string_view::npos))
                value = parseFloatLiteral(text, type);
            else
                value = parseIntegerLiteral(text);
            if (!value)
                fail("bad immediate '" + std::string(text) + "'");
            if (negative)
                *value = isFloat(type) && !parseIntegerLiteral(text) ? *value ^ (std::uint64_t{1} << (typeBits(type) - 1))
                                                                     : ~*value + 1;
            operand.imm = *value;
            return operand;
        }
        const std::string_view word = expectWord("an operand");
        if (word == "_") {
            operand.kind = Operand::Kind::Sink;
            return operand;
        }
        if (word == "WARP_SZ") { // the predefined constant warpSize compiles to (PTX ISA, "Identifiers")
            operand.kind = Operand::Kind::Imm;
            operand.imm = 32;
            return operand;
        }
        if (word.starts_with('%') || m_registerIndex.contains(std::string(word))) { // inline asm names some without %
            if (auto special = specialFromName(word)) {
                operand.kind = Operand::Kind::Special;
                operand.special = *special;
                return operand;
            }
            if (word.starts_with("%envreg") || word.starts_with("%pm") || word.starts_with("%dynamic_smem") ||
                word.starts_with("%total_smem") || word.starts_with("%aggr_smem") || word.starts_with("%cluster") ||
                word.starts_with("%nclusterid") || word.starts_with("%clusterid") || word.starts_with("%is_explicit") ||
                word.starts_with("%reserved_smem") || word.starts_with("%current_graph_exec"))
                throw PtxError::unsupported(std::string(word), peek().line, "special register");
            operand.kind = Operand::Kind::Reg;
            operand.reg = registerIndex(word);
            if (accept("|")) {
                operand.pairReg = registerIndex(expectWord("a predicate after '|'"));
            }
            return operand;
        }
        if (instruction.op == Op::Bra) {
            operand.kind = Operand::Kind::Label;
            m_pendingLabels.push_back({std::string(word), static_cast<int>(peek().line)});
            operand.target = -2 - static_cast<std::int32_t>(m_pendingLabels.size() - 1); // resolved later
            return operand;
        }
        if (auto symbol = symbolIndex(function, word)) {
            operand.kind = Operand::Kind::Symbol;
            operand.symbol = *symbol;
            operand.symbolSpace = function.symbols[*symbol].space;
            if (accept("+"))
                operand.offset = static_cast<std::int64_t>(expectInteger("a symbol offset"));
            return operand;
        }
        fail("unknown name '" + std::string(word) + "'");
    }

    void finishFunction(Function& function)
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

    struct PendingLabel {
        std::string name;
        int line = 0;
    };

    std::vector<Token> m_tokens;
    std::size_t m_pos = 0;
    Module m_module;
    Function* m_function = nullptr;
    std::unordered_map<std::string, ScopedName> m_registerIndex;
    std::unordered_map<std::string, ScopedName> m_symbolIndex;       // the function's own variables, scoped
    std::unordered_map<std::string, std::int32_t> m_globalSymbolIndex; // module variables it has used
    std::vector<Scope> m_scopes;
    // Each .loc's (file, line, column) -> the user's location it stands for (itself unless inlined).
    std::unordered_map<std::uint64_t, SourceLocation> m_inlinedAt;
    static std::uint64_t locationKey(const SourceLocation& location)
    {
        return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(location.file)) << 48) ^
               (static_cast<std::uint64_t>(static_cast<std::uint32_t>(location.line)) << 16) ^
               static_cast<std::uint64_t>(static_cast<std::uint32_t>(location.column));
    }
    std::vector<PendingLabel> m_pendingLabels;
    SourceLocation m_current;
};

} // namespace

Module parseModule(std::string_view text)
{
    return Parser(text).parse();
}

} // namespace warpscope::ptx
