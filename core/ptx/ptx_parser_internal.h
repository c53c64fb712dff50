// The PTX parser's one class, shared by the files that implement it (index of what each holds):
//   ptx_parser.cpp              module directives, variables, types, function headers and parameters,
//                               and finishing a function (labels, memory layout, control flow)
//   ptx_parser_body.cpp         function bodies: labels, .loc, .reg and variable directives, scopes,
//                               register and symbol lookup, unsupported constructs
//   ptx_parser_instruction.cpp  instructions, their operands and call sequences
// Internal to core/ptx: the interface is parseModule() in ptx_parser.h.
#pragma once

#include "ptx/ptx_error.h"
#include "ptx/ptx_ir.h"
#include "ptx/ptx_lexer.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace warpscope::ptx::detail {

class Parser {
public:
    explicit Parser(std::string_view text) : m_tokens(tokenize(text)) {}

    Module parse();

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

    // --- module level (ptx_parser.cpp) -----------------------------------------------------------
    void parseModuleStatement();
    // .global/.const/.shared/.local/.param [.align N] .type name[[N]] [= {...}] ; nullopt for a
    // variable of a type the simulator does not model (.texref ...), recorded as unsupported.
    std::optional<Symbol> parseVariable(bool isExtern);
    // .align N: a power of two from 1 to 4096 (larger would never be honoured by the layout).
    std::uint32_t parseAlignment();
    // count x element bytes, rejecting predicates (no memory size) and sizes past 2^40 bytes.
    std::uint64_t variableBytes(const Symbol& symbol, std::uint64_t count, int line);
    Type parseTypeDirective(std::string_view word);
    void parseFunction(bool isExtern);
    void parseParam(Function& function, bool returnValue);
    void finishFunction(Function& function);

    // --- function bodies (ptx_parser_body.cpp) ---------------------------------------------------
    void parseBody(Function& function);
    void parseBodyDirective(Function& function);

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
    void popScope();
    // Declares `name` in the innermost scope; twice in the same scope is an error.
    void declareScoped(std::unordered_map<std::string, ScopedName>& names, bool isRegister, const std::string& name,
                       std::int32_t index, int line);
    void declareSymbol(const std::string& name, std::int32_t index, int line);
    void declareRegister(Function& function, std::string name, Type type);
    std::int32_t registerIndex(std::string_view name);
    // The index of a symbol in the function's table, adding module-scope variables on first use.
    std::optional<std::int32_t> symbolIndex(Function& function, std::string_view name);
    // Valid PTX the simulator cannot run: noted on the function being parsed (or the module), so
    // that only kernels reaching it are refused.
    void recordUnsupported(std::string construct, std::string kind, int line);
    // Skips the rest of a statement, to and including its ';' (brackets may nest inside it).
    void skipStatement();

    // --- instructions (ptx_parser_instruction.cpp) -----------------------------------------------
    void parseInstruction(Function& function);
    // call{.uni} [(results),] callee [, (arguments)] ; -- the opcode is already read.
    void parseCall(Function& function, Instruction& instruction);
    Operand parseOperand(Function& function, const Instruction& instruction);

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
    // Inlined code (issue 29, section 7): each inlined .loc's places, innermost first, out to the
    // kernel's own line; the chain each instruction was written under, by function and PTX line.
    // Resolved by resolveLearnerLines once the .file table (nvcc writes it last) is known.
    std::vector<std::vector<SourceLocation>> m_chains;
    std::unordered_map<std::uint64_t, std::int32_t> m_chainOfWritten; // a .loc's place -> its chain
    std::int32_t m_currentChain = -1;
    std::unordered_map<std::string, std::unordered_map<std::int32_t, std::int32_t>> m_instructionChains;
    // Each instruction in inlined code gets the innermost place in a file the learner wrote (not a
    // toolkit header), else keeps the kernel's own line.
    void resolveLearnerLines();
};

} // namespace warpscope::ptx::detail
