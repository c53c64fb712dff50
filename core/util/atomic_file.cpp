#include "util/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <climits>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>

namespace warpscope {

AtomicFileWriter::AtomicFileWriter(std::string path) : m_path(std::move(path)) {}

AtomicFileWriter::~AtomicFileWriter() { discard(); }

bool AtomicFileWriter::open()
{
    discard();
    m_error.clear();
    // A link is followed, as QSaveFile follows it: the file it points to is replaced, not the link.
    m_target = m_path;
    struct stat link {};
    char resolved[PATH_MAX];
    if (::lstat(m_path.c_str(), &link) == 0 && S_ISLNK(link.st_mode) && ::realpath(m_path.c_str(), resolved) != nullptr)
        m_target = resolved;
    const std::size_t slash = m_target.rfind('/');
    const std::string folder = slash == std::string::npos ? std::string() : m_target.substr(0, slash + 1);
    const std::string name = slash == std::string::npos ? m_target : m_target.substr(slash + 1);
    if (name.empty() || name == "." || name == "..") {
        m_error = "the path names a folder, not a file";
        return false;
    }
    struct stat existing {};
    const bool exists = ::stat(m_target.c_str(), &existing) == 0;
    if (exists && S_ISDIR(existing.st_mode)) {
        m_error = "it is a folder";
        return false;
    }
    if (exists && ::access(m_target.c_str(), W_OK) != 0) {
        m_error = std::strerror(errno); // a file made read-only is not replaced (QSaveFile refuses it too)
        return false;
    }
    // A name of our own beside the target (same file system, so the rename is atomic). O_EXCL: never
    // an existing file or a link planted there; mode 0666 lets the umask decide, as for any new file.
    static std::atomic<unsigned> counter{0};
    for (int attempt = 0; attempt < 100; ++attempt) {
        const std::string temporary =
            folder + "." + name + ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
        m_fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (m_fd >= 0) {
            m_temporary = temporary;
            break;
        }
        if (errno != EEXIST) {
            m_error = std::strerror(errno);
            return false;
        }
    }
    if (m_fd < 0) {
        m_error = "no free temporary name beside it";
        return false;
    }
    if (exists)
        static_cast<void>(::fchmod(m_fd, existing.st_mode & 07777)); // a replaced file keeps its permissions, as with QSaveFile
    m_stream.open(m_temporary, std::ios::binary | std::ios::trunc);
    if (!m_stream) {
        m_error = std::strerror(errno);
        discard();
        return false;
    }
    return true;
}

bool AtomicFileWriter::commit()
{
    if (m_fd < 0) {
        if (m_error.empty())
            m_error = "the file was not opened";
        return false;
    }
    errno = 0;
    m_stream.flush();
    const bool written = static_cast<bool>(m_stream);
    const int writeErrno = errno;
    m_stream.close();
    if (!written || !m_stream) {
        m_error = writeErrno != 0 ? std::strerror(writeErrno) : "writing failed";
        discard();
        return false;
    }
    if (::fsync(m_fd) != 0) {
        m_error = std::strerror(errno);
        discard();
        return false;
    }
    ::close(m_fd);
    m_fd = -1;
    if (std::rename(m_temporary.c_str(), m_target.c_str()) != 0) {
        m_error = std::strerror(errno);
        ::unlink(m_temporary.c_str());
        m_temporary.clear();
        return false;
    }
    m_temporary.clear();
    return true;
}

void AtomicFileWriter::discard()
{
    if (m_stream.is_open())
        m_stream.close();
    m_stream.clear();
    if (m_fd >= 0) {
        ::close(m_fd);
        m_fd = -1;
    }
    if (!m_temporary.empty()) {
        ::unlink(m_temporary.c_str());
        m_temporary.clear();
    }
}

std::optional<std::string> writeFileAtomically(const std::string& path, std::string_view bytes)
{
    AtomicFileWriter file(path);
    if (!file.open())
        return file.error();
    file.stream().write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!file.commit())
        return file.error();
    return std::nullopt;
}

} // namespace warpscope
