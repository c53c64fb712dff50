// AtomicFileWriter, the command line's QSaveFile: a file appears whole or not at all, a write that
// fails leaves the earlier file as it was (and no temporary file beside it), a replaced file keeps
// its permissions, and a link is followed rather than replaced.
#include "util/atomic_file.h"

#include <gtest/gtest.h>

#include <sys/fsuid.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <set>
#include <string>

namespace fs = std::filesystem;
using warpscope::AtomicFileWriter;
using warpscope::writeFileAtomically;

namespace {

class AtomicFile : public ::testing::Test {
protected:
    void SetUp() override
    {
        m_folder = fs::path(testing::TempDir()) /
                   ("atomic_file_" + std::to_string(::getpid()) + "_" + testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(m_folder);
        fs::create_directories(m_folder);
    }
    void TearDown() override
    {
        std::error_code error;
        fs::permissions(m_folder, fs::perms::owner_all, error);
        fs::remove_all(m_folder, error);
    }
    std::string path(const std::string& name) const { return (m_folder / name).string(); }
    std::set<std::string> entries() const
    {
        std::set<std::string> names;
        for (const auto& entry : fs::directory_iterator(m_folder))
            names.insert(entry.path().filename().string());
        return names;
    }
    fs::path m_folder;
};

std::string readAll(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

void writePlain(const std::string& path, const std::string& text)
{
    std::ofstream(path, std::ios::binary) << text;
}

} // namespace

TEST_F(AtomicFile, TheTargetAppearsOnlyAtCommit)
{
    const std::string target = path("out.txt");
    writePlain(target, "earlier");
    AtomicFileWriter writer(target);
    ASSERT_TRUE(writer.open()) << writer.error();
    writer.stream() << "new contents";
    writer.stream().flush();
    EXPECT_EQ(readAll(target), "earlier"); // written, not committed: the earlier file is still whole
    EXPECT_EQ(entries().size(), 2u);        // the target and the temporary file beside it
    ASSERT_TRUE(writer.commit()) << writer.error();
    EXPECT_EQ(readAll(target), "new contents");
    EXPECT_EQ(entries(), std::set<std::string>{"out.txt"});
}

TEST_F(AtomicFile, DiscardKeepsTheEarlierFileAndLeavesNothingBehind)
{
    const std::string target = path("out.txt");
    writePlain(target, "earlier");
    {
        AtomicFileWriter writer(target);
        ASSERT_TRUE(writer.open());
        writer.stream() << "half a fi";
    } // destroyed without commit, as when an exception passes
    EXPECT_EQ(readAll(target), "earlier");
    EXPECT_EQ(entries(), std::set<std::string>{"out.txt"});
    AtomicFileWriter writer(target);
    ASSERT_TRUE(writer.open());
    writer.discard();
    EXPECT_EQ(entries(), std::set<std::string>{"out.txt"});
}

TEST_F(AtomicFile, AMissingFolderOrAFolderAsTargetSaysWhy)
{
    EXPECT_EQ(writeFileAtomically(path("no/such/folder/out.txt"), "x"), std::optional<std::string>("No such file or directory"));
    EXPECT_EQ(writeFileAtomically(m_folder.string(), "x"), std::optional<std::string>("it is a folder"));
    EXPECT_EQ(writeFileAtomically(m_folder.string() + "/", "x"), std::optional<std::string>("the path names a folder, not a file"));
    EXPECT_TRUE(entries().empty());
}

TEST_F(AtomicFile, AReplacedFileKeepsItsPermissionsAndANewOneFollowsTheUmask)
{
    const std::string target = path("kept.txt");
    writePlain(target, "earlier");
    fs::permissions(target, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
    ASSERT_EQ(writeFileAtomically(target, "replaced"), std::nullopt);
    EXPECT_EQ(readAll(target), "replaced");
    EXPECT_EQ(fs::status(target).permissions() & fs::perms::all, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);

    const mode_t mask = ::umask(0);
    ::umask(mask);
    const std::string fresh = path("fresh.txt");
    ASSERT_EQ(writeFileAtomically(fresh, "new"), std::nullopt);
    EXPECT_EQ(static_cast<mode_t>(fs::status(fresh).permissions() & fs::perms::all), static_cast<mode_t>(0666 & ~mask));
}

TEST_F(AtomicFile, ALinkIsFollowedNotReplaced)
{
    const std::string real = path("real.txt");
    const std::string link = path("link.txt");
    writePlain(real, "earlier");
    fs::create_symlink(real, link);
    ASSERT_EQ(writeFileAtomically(link, "through the link"), std::nullopt);
    EXPECT_TRUE(fs::is_symlink(link));
    EXPECT_EQ(readAll(real), "through the link");
}

TEST_F(AtomicFile, AReadOnlyFolderKeepsTheEarlierFile)
{
    const std::string target = path("earlier.txt");
    writePlain(target, "earlier");
    fs::permissions(target, fs::perms::all); // the file itself may be written; only the folder may not
    fs::permissions(m_folder, fs::perms::owner_read | fs::perms::owner_exec | fs::perms::group_read | fs::perms::group_exec |
                                  fs::perms::others_read | fs::perms::others_exec);
    // Root ignores permission bits: write as an unprivileged user on this thread (setfsuid).
    const bool asRoot = ::geteuid() == 0;
    if (asRoot)
        ::setfsuid(65534);
    const std::optional<std::string> error = writeFileAtomically(target, "new");
    if (asRoot)
        ::setfsuid(0);
    EXPECT_EQ(error, std::optional<std::string>("Permission denied"));
    EXPECT_EQ(readAll(target), "earlier");
    EXPECT_EQ(entries(), std::set<std::string>{"earlier.txt"});
}
