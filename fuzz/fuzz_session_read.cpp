// libFuzzer target: the session reader (core/session/session_io). A .wsprof file or a probe's stream
// may come from anyone: any bytes are read without throwing, each problem becomes one line, and what
// was read survives being saved and opened again: formatting the session, reading that text back and
// formatting it again gives the same text (nothing changes on a save and reopen).
#include "session/session_io.h"

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

using namespace warpscope;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
    const session::SessionReadResult read = session::readSession(in);
    if (!read.headerSeen)
        return 0;
    const std::string saved = session::formatSession(read.session);
    std::istringstream savedIn(saved);
    const session::SessionReadResult reopened = session::readSession(savedIn);
    if (!reopened.headerSeen || session::formatSession(reopened.session) != saved)
        __builtin_trap(); // a saved session does not read back as itself
    return 0;
}
