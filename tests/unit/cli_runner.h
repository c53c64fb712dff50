// Runs the real warpscope binary (WARPSCOPE_BINARY) as a user would, capturing stdout, stderr and
// the exit code. Shared by the command-line tests.
#pragma once

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace warpscope::testing_support {

struct CommandResult {
    int exitCode = -1;
    std::string out;
    std::string err;
};

inline CommandResult runWarpscope(const std::string& arguments)
{
    // One file per call and process: ctest runs the tests of a binary in parallel processes.
    static int calls = 0;
    const std::string errFile = testing::TempDir() + "/warpscope_cli_stderr_" + std::to_string(getpid()) + "_" +
                                std::to_string(++calls) + ".txt";
    const std::string command = std::string(WARPSCOPE_BINARY) + " " + arguments + " 2>" + errFile;
    CommandResult result;
    FILE* pipe = popen(command.c_str(), "r");
    if (!pipe)
        return result;
    std::array<char, 4096> buffer{};
    while (std::fgets(buffer.data(), buffer.size(), pipe))
        result.out += buffer.data();
    const int status = pclose(pipe);
    result.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    if (FILE* err = std::fopen(errFile.c_str(), "r")) {
        while (std::fgets(buffer.data(), buffer.size(), err))
            result.err += buffer.data();
        std::fclose(err);
    }
    std::remove(errFile.c_str());
    return result;
}

inline int lineCount(const std::string& text)
{
    int lines = 0;
    for (char c : text)
        lines += c == '\n';
    return lines;
}

} // namespace warpscope::testing_support
