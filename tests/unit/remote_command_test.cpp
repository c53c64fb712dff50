// ssh command lines for a remote probe (core/util/remote_command.h): quoting for the remote shell,
// and hosts that ssh could read as options.
#include "util/input_error.h"
#include "util/remote_command.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace warpscope;

TEST(RemoteCommand, QuotesEveryWordForAPosixShell)
{
    EXPECT_EQ(shellQuote("plain"), "'plain'");
    EXPECT_EQ(shellQuote(""), "''");
    EXPECT_EQ(shellQuote("it's"), "'it'\\''s'");
    EXPECT_EQ(shellQuote("$(id) `id` \"x\" a b"), "'$(id) `id` \"x\" a b'");
}

TEST(RemoteCommand, SshGetsTheHostThenTheCommandAsOneQuotedString)
{
    const std::vector<std::string> argv = sshCommand("ada@gpu", {"warpscope-probe", "--arg", "n=i32:4", "my file.cu"});
    ASSERT_GE(argv.size(), 3u);
    EXPECT_EQ(argv.front(), "ssh");
    EXPECT_EQ(argv[argv.size() - 2], "ada@gpu");
    EXPECT_EQ(argv.back(), "'warpscope-probe' '--arg' 'n=i32:4' 'my file.cu'");
    // No password prompt can hang a run.
    bool batch = false;
    for (std::size_t i = 0; i + 1 < argv.size(); ++i)
        batch = batch || (argv[i] == "-o" && argv[i + 1] == "BatchMode=yes");
    EXPECT_TRUE(batch);
}

TEST(RemoteCommand, HostsAreUserAtHostAndNeverAnOption)
{
    for (const char* good : {"gpu", "ada@gpu-box.example.org", "node_7", "[fe80::1%eth0]", "10.0.0.5"})
        EXPECT_NO_THROW(checkRemoteHost(good, "--remote")) << good;
    for (const char* bad : {"", "-oProxyCommand=x", "a b", "a@b@c", "@gpu", "gpu@", "host;id", "h$(id)", "h\nx"})
        EXPECT_THROW(checkRemoteHost(bad, "--remote"), InputError) << bad;
}
