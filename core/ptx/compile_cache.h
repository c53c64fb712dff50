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

struct CachedCompile {
    std::string ptx;
    std::string log; // NVRTC's log (warnings) as it was
};

// The key of one compile: a hash of the program's name, every option (the caller includes NVRTC's
// version and the toolkit's include folder among them) and the source. Empty when the result can depend on something else: a source that includes its own files
// (#include "..."), which the cache cannot see change.
std::string compileCacheKey(std::string_view source, std::string_view name, const std::vector<std::string>& arguments);

// The folder of the disk cache: $WARPSCOPE_CACHE_DIR, else $XDG_CACHE_HOME/warpscope/nvrtc, else
// ~/.cache/warpscope/nvrtc. Empty when WARPSCOPE_COMPILE_CACHE=off (then nothing is cached at all).
std::filesystem::path compileCacheDirectory();

// A cached successful compile, from memory or disk (nullopt when there is none or the file is damaged).
std::optional<CachedCompile> findCachedCompile(const std::string& key);
// Remembers a successful compile in memory and, where the folder can be written, on disk (atomically:
// a temporary file renamed into place, so parallel processes never read half a file).
void storeCachedCompile(const std::string& key, const CachedCompile& compile);
// Forgets what this process remembers (the disk cache stays).
void clearMemoryCompileCache();

} // namespace warpscope::ptx
