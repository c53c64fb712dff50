// PTX function bodies: labels, body directives (.loc, .reg, variables), the scopes of { } blocks,
// register and symbol lookup, and valid PTX the simulator cannot run (noted, then skipped).
#include "ptx/ptx_parser_internal.h"

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

void Parser::parseBody(Function& function)
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

void Parser::parseBodyDirective(Function& function)
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
        std::vector<SourceLocation> chain{written};
        // ", function_name $L__info_stringN, inlined_at F L C": the kernel's own line is the call
        // site. A call site inside inlined code was itself named by an earlier .loc with its own
        // inlined_at: follow the chain out to the kernel's line, keeping every place on the way.
        while (accept(",")) {
            const std::string_view key = expectWord("a .loc attribute");
            if (key == "inlined_at") {
                location.file = static_cast<std::int32_t>(expectInteger("an inlined_at file index"));
                location.line = static_cast<std::int32_t>(expectInteger("an inlined_at line"));
                location.column = static_cast<std::int32_t>(expectInteger("an inlined_at column"));
                if (auto outer = m_chainOfWritten.find(locationKey(location)); outer != m_chainOfWritten.end()) {
                    const std::vector<SourceLocation>& rest = m_chains[static_cast<std::size_t>(outer->second)];
                    chain.insert(chain.end(), rest.begin(), rest.end());
                } else {
                    chain.push_back(location);
                }
                if (auto outer = m_inlinedAt.find(locationKey(location)); outer != m_inlinedAt.end())
                    location = outer->second;
            } else {
                expectWord("a .loc attribute value");
            }
        }
        m_inlinedAt[locationKey(written)] = location;
        m_current = location;
        m_currentChain = -1;
        if (chain.size() > 1) {
            m_currentChain = static_cast<std::int32_t>(m_chains.size());
            m_chainOfWritten[locationKey(written)] = m_currentChain;
            m_chains.push_back(std::move(chain));
        }
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

void Parser::popScope()
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
void Parser::declareScoped(std::unordered_map<std::string, ScopedName>& names, bool isRegister, const std::string& name,
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

void Parser::declareSymbol(const std::string& name, std::int32_t index, int line)
{
    declareScoped(m_symbolIndex, false, name, index, line);
}

void Parser::declareRegister(Function& function, std::string name, Type type)
{
    declareScoped(m_registerIndex, true, name, static_cast<std::int32_t>(function.registers.size()), peek().line);
    function.registers.push_back({std::move(name), type});
}

std::int32_t Parser::registerIndex(std::string_view name)
{
    auto found = m_registerIndex.find(std::string(name));
    if (found == m_registerIndex.end())
        fail("register " + std::string(name) + " is not declared");
    return found->second.index;
}

// The index of a symbol in the function's table, adding module-scope variables on first use.
std::optional<std::int32_t> Parser::symbolIndex(Function& function, std::string_view name)
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
void Parser::recordUnsupported(std::string construct, std::string kind, int line)
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
void Parser::skipStatement()
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

} // namespace warpscope::ptx::detail
