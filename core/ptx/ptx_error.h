// PtxError: PTX the front end cannot read or the simulator cannot run, always with the PTX line.
#pragma once

#include "util/input_error.h"

#include <string>

namespace warpscope::ptx {

class PtxError : public InputError {
public:
    PtxError(const std::string& message, int line)
        : InputError(line > 0 ? "PTX line " + std::to_string(line) + ": " + message : "PTX: " + message),
          m_line(line)
    {
    }
    static PtxError unsupported(const std::string& opcode, int line)
    {
        PtxError error(line);
        error.m_message = "unsupported PTX instruction '" + opcode + "' at line " + std::to_string(line);
        return error;
    }
    const char* what() const noexcept override
    {
        return m_message.empty() ? InputError::what() : m_message.c_str();
    }
    int line() const { return m_line; }

private:
    explicit PtxError(int line) : InputError("unsupported PTX instruction"), m_line(line) {}
    int m_line = 0;
    std::string m_message;
};

} // namespace warpscope::ptx
