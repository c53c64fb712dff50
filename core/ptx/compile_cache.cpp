#include "ptx/compile_cache.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <system_error>
#include <unistd.h>

namespace warpscope::ptx {

namespace {

constexpr std::size_t kMemoryEntries = 64;
constexpr std::string_view kFileHeader = "warpscope-nvrtc-cache 1\n";

std::uint64_t fnv1a(std::string_view text, std::uint64_t hash)
{
    for (unsigned char c : text) {
        hash ^= c;
        hash *= 1099511628211ull;
    }
    return hash;
}

struct MemoryCache {
    std::mutex mutex;
    std::map<std::string, CachedCompile> entries;
    std::deque<std::string> order; // oldest first
};

MemoryCache& memory()
{
    static MemoryCache cache;
    return cache;
}

bool cacheEnabled()
{
    const char* setting = std::getenv("WARPSCOPE_COMPILE_CACHE");
    return !(setting && (std::string_view(setting) == "off" || std::string_view(setting) == "0"));
}

void remember(const std::string& key, const CachedCompile& compile)
{
    MemoryCache& cache = memory();
    std::lock_guard lock(cache.mutex);
    if (cache.entries.emplace(key, compile).second) {
        cache.order.push_back(key);
        if (cache.order.size() > kMemoryEntries) {
            cache.entries.erase(cache.order.front());
            cache.order.pop_front();
        }
    }
}

} // namespace

std::string compileCacheKey(std::string_view source, std::string_view name, const std::vector<std::string>& arguments)
{
    if (source.find("#include \"") != std::string_view::npos || source.find("#include\"") != std::string_view::npos)
        return {};
    std::string material = "warpscope-nvrtc-cache 1";
    material += '\0';
    material += name;
    for (const std::string& argument : arguments) {
        material += '\0';
        material += argument;
    }
    material += '\0';
    material += source;
    // Two independent 64-bit hashes: a collision would need both to agree.
    char key[40];
    std::snprintf(key, sizeof key, "%016llx%016llx",
                  static_cast<unsigned long long>(fnv1a(material, 14695981039346656037ull)),
                  static_cast<unsigned long long>(fnv1a(material, 0x84222325cbf29ce4ull ^ material.size())));
    return key;
}

std::filesystem::path compileCacheDirectory()
{
    if (!cacheEnabled())
        return {};
    if (const char* folder = std::getenv("WARPSCOPE_CACHE_DIR"); folder && *folder)
        return std::filesystem::path(folder);
    if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
        return std::filesystem::path(xdg) / "warpscope" / "nvrtc";
    if (const char* home = std::getenv("HOME"); home && *home)
        return std::filesystem::path(home) / ".cache" / "warpscope" / "nvrtc";
    return {};
}

std::optional<CachedCompile> findCachedCompile(const std::string& key)
{
    if (key.empty() || !cacheEnabled())
        return std::nullopt;
    {
        MemoryCache& cache = memory();
        std::lock_guard lock(cache.mutex);
        if (auto found = cache.entries.find(key); found != cache.entries.end())
            return found->second;
    }
    const std::filesystem::path folder = compileCacheDirectory();
    if (folder.empty())
        return std::nullopt;
    std::ifstream file(folder / (key + ".nvrtc"), std::ios::binary);
    if (!file)
        return std::nullopt;
    std::stringstream contents;
    contents << file.rdbuf();
    const std::string text = contents.str();
    // header, the log's length on a line, the log, the PTX.
    if (!text.starts_with(kFileHeader))
        return std::nullopt;
    const std::size_t lineEnd = text.find('\n', kFileHeader.size());
    if (lineEnd == std::string::npos)
        return std::nullopt;
    char* end = nullptr;
    const std::string lengthText = text.substr(kFileHeader.size(), lineEnd - kFileHeader.size());
    const unsigned long long logLength = std::strtoull(lengthText.c_str(), &end, 10);
    if (end == lengthText.c_str() || *end != '\0' || lineEnd + 1 + logLength > text.size())
        return std::nullopt;
    CachedCompile compile;
    compile.log = text.substr(lineEnd + 1, logLength);
    compile.ptx = text.substr(lineEnd + 1 + logLength);
    if (compile.ptx.find(".version") == std::string::npos)
        return std::nullopt; // not PTX: a damaged file
    remember(key, compile);
    return compile;
}

void storeCachedCompile(const std::string& key, const CachedCompile& compile)
{
    if (key.empty() || !cacheEnabled())
        return;
    remember(key, compile);
    const std::filesystem::path folder = compileCacheDirectory();
    if (folder.empty())
        return;
    std::error_code error;
    std::filesystem::create_directories(folder, error);
    const std::filesystem::path target = folder / (key + ".nvrtc");
    const std::filesystem::path temporary =
        folder / (key + ".tmp" + std::to_string(static_cast<long long>(::getpid())));
    {
        std::ofstream file(temporary, std::ios::binary | std::ios::trunc);
        if (!file)
            return; // a cache that cannot be written is only slower
        file << kFileHeader << compile.log.size() << "\n" << compile.log << compile.ptx;
        if (!file)
            return;
    }
    std::filesystem::rename(temporary, target, error);
    if (error)
        std::filesystem::remove(temporary, error);
}

void clearMemoryCompileCache()
{
    MemoryCache& cache = memory();
    std::lock_guard lock(cache.mutex);
    cache.entries.clear();
    cache.order.clear();
}

} // namespace warpscope::ptx
