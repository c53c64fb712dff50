// PtxError: PTX the front end cannot read (bad input, always with the PTX line). UnsupportedPtx:
// valid PTX the simulator cannot run yet (a failure of the simulator, not of the input).
#pragma once

#include "ptx/ptx_ir.h"
#include "util/input_error.h"

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace warpscope::ptx {

class PtxError : public InputError {
public:
    PtxError(const std::string& message, int line)
        : InputError(line > 0 ? "PTX line " + std::to_string(line) + ": " + message : "PTX: " + message),
          m_line(line)
    {
    }
    // Valid PTX the simulator does not support: the parser records it as an UnsupportedConstruct
    // instead of failing (ptx_parser.cpp); anywhere else it is an error naming the construct.
    static PtxError unsupported(const std::string& construct, int line, const std::string& kind = "instruction")
    {
        PtxError error(line);
        error.m_construct = construct;
        error.m_kind = kind;
        error.m_message = "unsupported PTX " + kind + " '" + construct + "' at line " + std::to_string(line);
        return error;
    }
    const char* what() const noexcept override
    {
        return m_message.empty() ? InputError::what() : m_message.c_str();
    }
    int line() const { return m_line; }
    bool isUnsupported() const { return !m_construct.empty(); }
    const std::string& construct() const { return m_construct; } // unsupported(): what was not supported
    const std::string& kind() const { return m_kind; }

private:
    explicit PtxError(int line) : InputError("unsupported PTX instruction"), m_line(line) {}
    int m_line = 0;
    std::string m_message;
    std::string m_construct;
    std::string m_kind;
};

// A kernel that needs constructs the simulator does not support yet. what() is one line naming the
// first, with its PTX line and source line; constructs() lists all of them.
class UnsupportedPtx : public std::runtime_error {
public:
    UnsupportedPtx(const std::string& message, std::vector<UnsupportedConstruct> constructs)
        : std::runtime_error(message), m_constructs(std::move(constructs))
    {
    }
    const std::vector<UnsupportedConstruct>& constructs() const { return m_constructs; }

private:
    std::vector<UnsupportedConstruct> m_constructs;
};

// Throws UnsupportedPtx when `entry` (or a function it calls) uses a construct the simulator does not
// support yet. `prefix` ("kernel.cu: ") starts the message.
void requireSupported(const Module& module, const Function& entry, const std::string& prefix = {});

} // namespace warpscope::ptx
