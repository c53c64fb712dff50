#include "util/remote_command.h"

#include "util/input_error.h"

#include <cctype>

namespace warpscope {

std::string shellQuote(std::string_view word)
{
    std::string quoted = "'";
    for (const char c : word) {
        if (c == '\'')
            quoted += "'\\''";
        else
            quoted += c;
    }
    return quoted + "'";
}

void checkRemoteHost(std::string_view host, std::string_view what)
{
    const std::string shown(host);
    if (host.empty())
        throw InputError(std::string(what) + ": the host is empty (allowed: [USER@]HOST)");
    if (host.front() == '-')
        throw InputError(std::string(what) + ": '" + shown + "' starts with '-', which ssh would read as an option "
                         "(allowed: [USER@]HOST)");
    int ats = 0;
    for (const char c : host) {
        const auto u = static_cast<unsigned char>(c);
        if (c == '@') {
            ++ats;
            continue;
        }
        if (!std::isalnum(u) && c != '.' && c != '_' && c != '-' && c != ':' && c != '[' && c != ']' && c != '%')
            throw InputError(std::string(what) + ": '" + shown + "' holds a character a host name cannot have (allowed: "
                             "[USER@]HOST of letters, digits and . _ - : [ ] %)");
    }
    if (ats > 1 || host.back() == '@' || host.front() == '@')
        throw InputError(std::string(what) + ": '" + shown + "' is not [USER@]HOST");
}

std::vector<std::string> sshCommand(std::string_view host, const std::vector<std::string>& remoteArgv)
{
    std::string command;
    for (const std::string& word : remoteArgv) {
        if (!command.empty())
            command += ' ';
        command += shellQuote(word);
    }
    return {"ssh",
            "-o", "BatchMode=yes",
            "-o", "ServerAliveInterval=15",
            "-o", "ServerAliveCountMax=4",
            "-T",
            std::string(host),
            command};
}

} // namespace warpscope
