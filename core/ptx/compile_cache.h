// The NVRTC output cache: a kernel compiled once is not compiled again while its source, options
// and NVRTC stay the same (the playground recompiles on every run; NVRTC spends over a second on the
// cooperative-groups headers alone). Kept in memory for the process and on disk between processes.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace warpscope::ptx {

// One file a compile read besides its source: a header, named as NVRTC reported it (relative names
// are relative to the working folder, as NVRTC resolved them), and what it held.
struct CompileDependency {
    std::string path;
    std::string contentHash; // fileContentHash(path) when the compile was stored
};

struct CachedCompile {
    std::string ptx;
    std::string log;                            // NVRTC's log (warnings) as it was
    std::vector<CompileDependency> dependencies; // every header the compile read
};

// The key of one compile: a hash of the program's name, every option (the caller includes NVRTC's
// version and the toolkit's include folder among them) and the source. The headers the source
// includes are not in the key: an entry lists them (CachedCompile::dependencies) and is stale once
// one of them changes.
std::string compileCacheKey(std::string_view source, std::string_view name, const std::vector<std::string>& arguments);

// 32 hex digits for the file's contents; "absent" when it cannot be read (NVRTC's built-in headers
// have names but no file).
std::string fileContentHash(const std::filesystem::path& path);

// The folder of the disk cache: $WARPSCOPE_CACHE_DIR, else $XDG_CACHE_HOME/warpscope/nvrtc, else
// ~/.cache/warpscope/nvrtc. Empty when WARPSCOPE_COMPILE_CACHE=off (then nothing is cached at all).
std::filesystem::path compileCacheDirectory();

// A cached successful compile, from memory or disk (nullopt when there is none, the file is damaged,
// or one of its dependencies no longer hashes as it did).
std::optional<CachedCompile> findCachedCompile(const std::string& key);
// Remembers a successful compile in memory and, where the folder can be written, on disk (atomically:
// a temporary file renamed into place, so parallel processes never read half a file). Replaces an
// older entry under the same key (one whose headers have since changed).
void storeCachedCompile(const std::string& key, const CachedCompile& compile);
// Forgets what this process remembers (the disk cache stays).
void clearMemoryCompileCache();

// The same cache for other compiles' text (ptxas and nvdisasm's output for the SASS view): `kind`
// names the artifact ("sass"), and is both the file's extension and part of its header line, so an
// entry of one kind is never read as another. The caller's key holds everything the text depends on
// (the input, the options and the tools' identities).
std::optional<std::string> findCachedText(const std::string& key, std::string_view kind);
void storeCachedText(const std::string& key, std::string_view kind, const std::string& text);

} // namespace warpscope::ptx
