// InputError: bad user input (a flag, a link parameter, a field), with a message that names what was
// wrong, where, and what is allowed. The command line prints it on one line and exits 2; the window
// shows it in a message.
#pragma once

#include <stdexcept>
#include <string>

namespace warpscope {

class InputError : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

} // namespace warpscope
