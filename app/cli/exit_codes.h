// The process exit codes of `warpscope`, each with the message a user sees.
#pragma once

namespace warpscope::cli {

enum class ExitCode : int {
    Ok = 0,       // the command did what was asked
    Failure = 1,  // it could not (a file could not be written, the window could not render)
    BadInput = 2, // a flag, value or file was wrong; one line on stderr says which and what is allowed
};

inline const char* exitCodeMessage(ExitCode code)
{
    switch (code) {
    case ExitCode::Ok: return "success";
    case ExitCode::Failure: return "the command failed";
    case ExitCode::BadInput: return "bad input";
    }
    return "unknown";
}

inline int toInt(ExitCode code) { return static_cast<int>(code); }

} // namespace warpscope::cli
