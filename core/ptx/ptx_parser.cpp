// PTX text -> Module. A small tokenizer, then a statement parser for module directives and function
// bodies. Directives without a terminating ';' (.version, .target, .address_size, .file, .loc) end at
// the end of their line.
#include "ptx/ptx_parser.h"

#include "ptx/cfg.h"
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
            Symbol symbol = parseVariable(isExtern);
            m_module.globals.push_back(std::move(symbol));
            return;
        }
        fail("unexpected " + describe(peek()) + " at module scope");
    }

    // .global/.const/.shared/.local [.align N] .type name[[N]] [= {...}] ;
    Symbol parseVariable(bool isExtern)
    {
        Symbol symbol;
        const std::string_view spaceWord = next().text;
        symbol.space = spaceWord == ".global" ? Space::Global
                     : spaceWord == ".const"  ? Space::Const
                     : spaceWord == ".shared" ? Space::Shared
                                              : Space::Local;
        if (accept(".align"))
            symbol.alignment = parseAlignment();
        const int declarationLine = peek().line;
        const std::string_view typeWord = expectWord("a type such as .b8");
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
        if (!function.isEntry && peek().text == "(")
            fail("device functions with return values are not supported (kernels must be fully inlined)");
        function.name = std::string(expectWord("a function name"));
        if (accept("(")) {
            if (!accept(")")) {
                do parseParam(function); while (accept(","));
                expect(")", "to close the parameter list");
            }
        }
        // Performance directives.
        while (peek().kind == Token::Kind::Word && peek().text.starts_with('.') && peek().text != ".entry") {
            const int directiveLine = peek().line;
            const std::string_view directive = next().text;
            std::array<std::uint32_t, 3> values{0, 0, 0};
            int count = 0;
            do {
                if (count == 3)
                    fail("too many values for " + std::string(directive));
                values[count++] = static_cast<std::uint32_t>(expectInteger(std::string(directive) + " value"));
            } while (accept(","));
            if (directive == ".reqntid") function.reqntid = values;
            else if (directive == ".maxntid") function.maxntid = values;
            else if (directive != ".minnctapersm" && directive != ".maxnreg" && directive != ".maxclusterrank" &&
                     directive != ".reqnctapercluster")
                throw PtxError("unsupported function directive '" + std::string(directive) + "'", directiveLine);
        }
        if (accept(";")) {
            if (!isExtern && function.isEntry)
                throw PtxError("kernel " + function.name + " has no body", declarationLine);
            return; // a declaration only
        }
        expect("{", "to open the body of " + function.name);
        m_function = &function;
        m_registerIndex.clear();
        m_current = SourceLocation{};
        parseBody(function);
        m_function = nullptr;
        m_module.functions.push_back(std::move(function));
    }

    void parseParam(Function& function)
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
        function.paramBytes = (function.paramBytes + symbol.alignment - 1) / symbol.alignment * symbol.alignment;
        symbol.offset = function.paramBytes;
        function.paramBytes += symbol.size;
        function.params.push_back(static_cast<std::int32_t>(function.symbols.size()));
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
                if (--depth == 0)
                    return;
                continue;
            }
            if (token.kind == Token::Kind::Punct && token.text == "{") {
                next();
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
            // ", function_name $L__info_stringN, inlined_at F L C": the user's line is the call site.
            while (accept(",")) {
                const std::string_view key = expectWord("a .loc attribute");
                if (key == "inlined_at") {
                    location.file = static_cast<std::int32_t>(expectInteger("an inlined_at file index"));
                    location.line = static_cast<std::int32_t>(expectInteger("an inlined_at line"));
                    location.column = static_cast<std::int32_t>(expectInteger("an inlined_at column"));
                } else {
                    expectWord("a .loc attribute value");
                }
            }
            m_current = location;
            skipRestOfLine(line);
            return;
        }
        if (word == ".reg") {
            next();
            const Type type = parseTypeDirective(expectWord("a register type"));
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
        if (word == ".shared" || word == ".local") {
            Symbol symbol = parseVariable(false);
            function.symbols.push_back(std::move(symbol));
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

    void declareRegister(Function& function, std::string name, Type type)
    {
        if (m_registerIndex.contains(name))
            fail("register " + name + " is declared twice");
        m_registerIndex.emplace(name, static_cast<std::int32_t>(function.registers.size()));
        function.registers.push_back({std::move(name), type});
    }

    std::int32_t registerIndex(std::string_view name)
    {
        auto found = m_registerIndex.find(std::string(name));
        if (found == m_registerIndex.end())
            fail("register " + std::string(name) + " is not declared");
        return found->second;
    }

    // The index of a symbol in the function's table, adding module-scope variables on first use.
    std::optional<std::int32_t> symbolIndex(Function& function, std::string_view name)
    {
        for (std::size_t i = 0; i < function.symbols.size(); ++i)
            if (function.symbols[i].name == name)
                return static_cast<std::int32_t>(i);
        for (std::size_t i = 0; i < m_module.globals.size(); ++i) {
            if (m_module.globals[i].name == name) {
                Symbol symbol = m_module.globals[i];
                symbol.moduleIndex = static_cast<std::int32_t>(i);
                function.symbols.push_back(std::move(symbol));
                return static_cast<std::int32_t>(function.symbols.size() - 1);
            }
        }
        return std::nullopt;
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
        decodeOpcode(opcode, instruction);
        if (!accept(";")) {
            do {
                if (instruction.operandCount == instruction.operands.size())
                    fail("too many operands for '" + std::string(opcode) + "'");
                instruction.operands[instruction.operandCount++] = parseOperand(function, instruction);
            } while (accept(","));
            expect(";", "after the operands of '" + std::string(opcode) + "'");
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

    Operand parseOperand(Function& function, const Instruction& instruction)
    {
        Operand operand;
        if (accept("[")) {
            operand.kind = Operand::Kind::Address;
            if (peek().kind == Token::Kind::Number) {
                operand.offset = static_cast<std::int64_t>(expectInteger("an address"));
            } else {
                const std::string_view base = expectWord("an address base");
                if (base.starts_with('%')) {
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
                    operand.vector[operand.vectorCount++] = -1;
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
        if (word.starts_with('%')) {
            if (auto special = specialFromName(word)) {
                operand.kind = Operand::Kind::Special;
                operand.special = *special;
                return operand;
            }
            if (word.starts_with("%envreg") || word.starts_with("%pm") || word.starts_with("%dynamic_smem") ||
                word.starts_with("%total_smem") || word.starts_with("%aggr_smem") || word.starts_with("%cluster") ||
                word.starts_with("%nclusterid") || word.starts_with("%clusterid") || word.starts_with("%is_explicit"))
                fail("unsupported special register " + std::string(word));
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
        // Local memory per thread.
        std::uint64_t localEnd = 0;
        for (Symbol& symbol : function.symbols) {
            if (symbol.space != Space::Local)
                continue;
            localEnd = (localEnd + symbol.alignment - 1) / symbol.alignment * symbol.alignment;
            symbol.offset = localEnd;
            localEnd += symbol.size;
        }
        function.localBytes = localEnd;
        for (Instruction& instruction : function.instructions)
            for (int i = 0; i < instruction.operandCount; ++i) {
                Operand& operand = instruction.operands[i];
                if ((operand.kind == Operand::Kind::Address || operand.kind == Operand::Kind::Symbol) &&
                    operand.symbol >= 0) {
                    const Symbol& symbol = function.symbols[static_cast<std::size_t>(operand.symbol)];
                    if (symbol.space != Space::Global && symbol.space != Space::Const)
                        operand.offset += static_cast<std::int64_t>(symbol.offset);
                }
            }
        buildControlFlow(function);
    }

    struct PendingLabel {
        std::string name;
        int line = 0;
    };

    std::vector<Token> m_tokens;
    std::size_t m_pos = 0;
    Module m_module;
    Function* m_function = nullptr;
    std::unordered_map<std::string, std::int32_t> m_registerIndex;
    std::vector<PendingLabel> m_pendingLabels;
    SourceLocation m_current;
};

} // namespace

Module parseModule(std::string_view text)
{
    return Parser(text).parse();
}

} // namespace warpscope::ptx
