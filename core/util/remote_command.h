// Running a program on another machine through ssh, safely: the host cannot be read as an ssh
// option, and every argument reaches the remote program as it was given, whatever quotes, spaces
// or `$(...)` it holds (ssh hands the command to the remote shell as one string, so each word is
// quoted for it). Used by `warpscope profile --remote` and the Profile dock's Remote field.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace warpscope {

// `word` in single quotes for a POSIX shell, each ' written as '\'' : it's -> 'it'\''s'.
std::string shellQuote(std::string_view word);

// Throws InputError unless `host` is [USER@]HOST made of letters, digits and . _ - : [ ] %, with at
// most one @, not empty and not starting with '-' (ssh would take that as an option). `what` names
// the field in the message ("--remote").
void checkRemoteHost(std::string_view host, std::string_view what);

// The argument list for ssh (found on PATH) that runs `remoteArgv` on `host`: no password prompt
// (BatchMode: keys or an agent only, so a prompt can never hang a run), keep-alives so that a lost
// connection is noticed within a minute, no terminal, and the remote command as one quoted string.
std::vector<std::string> sshCommand(std::string_view host, const std::vector<std::string>& remoteArgv);

// ssh's own exit status for a connection that failed or was lost (the remote program's status
// otherwise passes through).
inline constexpr int kSshConnectionFailed = 255;

} // namespace warpscope
