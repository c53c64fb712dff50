// Files written as QSaveFile writes them, for the Qt-free command line and core: into a new
// temporary file in the target's folder, renamed over the target only once every byte is written
// and synced. A reader never sees half a file, and a write that fails (a missing or read-only
// folder, a full disk) leaves the file that was there before exactly as it was.
#pragma once

#include <fstream>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>

namespace warpscope {

class AtomicFileWriter {
public:
    explicit AtomicFileWriter(std::string path);
    ~AtomicFileWriter(); // an uncommitted temporary file is removed; the target is untouched
    AtomicFileWriter(const AtomicFileWriter&) = delete;
    AtomicFileWriter& operator=(const AtomicFileWriter&) = delete;

    // Creates the temporary file beside the target. False, with error() saying why, when it cannot.
    bool open();
    std::ostream& stream() { return m_stream; }
    // Flushes, syncs and renames the temporary file over the target (keeping an existing target's
    // permissions). False, with error(), when any write failed; the target is then as it was.
    bool commit();
    // Removes the temporary file; the target stays as it was.
    void discard();

    const std::string& path() const { return m_path; }
    const std::string& error() const { return m_error; } // the system's reason ("Permission denied")

private:
    std::string m_path;
    std::string m_target;    // m_path, or the file it links to
    std::string m_temporary;
    std::string m_error;
    std::ofstream m_stream;
    int m_fd = -1; // the temporary file, kept open to sync it
};

// Writes `bytes` to `path` with an AtomicFileWriter: the reason it failed, or nullopt.
std::optional<std::string> writeFileAtomically(const std::string& path, std::string_view bytes);

} // namespace warpscope
