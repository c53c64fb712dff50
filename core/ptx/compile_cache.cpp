#include "ptx/compile_cache.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <system_error>
#include <unistd.h>

namespace warpscope::ptx {

namespace {

constexpr std::size_t kMemoryEntries = 64;
// 2: the entry lists the headers the compile read and their hashes.
constexpr std::string_view kFileHeader = "warpscope-nvrtc-cache 2\n";
constexpr std::string_view kAbsent = "absent";

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

// Two independent 64-bit hashes: a collision would need both to agree.
std::string hash128(std::string_view text)
{
    char digits[40];
    std::snprintf(digits, sizeof digits, "%016llx%016llx",
                  static_cast<unsigned long long>(fnv1a(text, 14695981039346656037ull)),
                  static_cast<unsigned long long>(fnv1a(text, 0x84222325cbf29ce4ull ^ text.size())));
    return digits;
}

bool dependenciesUnchanged(const CachedCompile& compile)
{
    for (const CompileDependency& dependency : compile.dependencies)
        if (fileContentHash(dependency.path) != dependency.contentHash)
            return false;
    return true;
}

// "<count>\n" then "<hash> <path>\n" per dependency; false when the text is not in that shape.
bool parseDependencies(std::string_view text, std::size_t& at, std::vector<CompileDependency>& dependencies)
{
    const std::size_t countEnd = text.find('\n', at);
    if (countEnd == std::string_view::npos)
        return false;
    const std::string countText(text.substr(at, countEnd - at));
    char* end = nullptr;
    const unsigned long long count = std::strtoull(countText.c_str(), &end, 10);
    if (end == countText.c_str() || *end != '\0')
        return false;
    at = countEnd + 1;
    for (unsigned long long i = 0; i < count; ++i) {
        const std::size_t lineEnd = text.find('\n', at);
        if (lineEnd == std::string_view::npos)
            return false;
        const std::string_view line = text.substr(at, lineEnd - at);
        const std::size_t space = line.find(' ');
        if (space == std::string_view::npos || space == 0 || space + 1 == line.size())
            return false;
        dependencies.push_back({std::string(line.substr(space + 1)), std::string(line.substr(0, space))});
        at = lineEnd + 1;
    }
    return true;
}

void remember(const std::string& key, const CachedCompile& compile)
{
    MemoryCache& cache = memory();
    std::lock_guard lock(cache.mutex);
    if (cache.entries.insert_or_assign(key, compile).second) {
        cache.order.push_back(key);
        if (cache.order.size() > kMemoryEntries) {
            cache.entries.erase(cache.order.front());
            cache.order.pop_front();
        }
    }
}

struct TextCache {
    std::mutex mutex;
    std::map<std::string, std::string> entries; // "<kind>:<key>"
    std::deque<std::string> order;              // oldest first
};

TextCache& textMemory()
{
    static TextCache cache;
    return cache;
}

void rememberText(const std::string& memoryKey, const std::string& text)
{
    TextCache& cache = textMemory();
    std::lock_guard lock(cache.mutex);
    if (cache.entries.insert_or_assign(memoryKey, text).second) {
        cache.order.push_back(memoryKey);
        if (cache.order.size() > kMemoryEntries) {
            cache.entries.erase(cache.order.front());
            cache.order.pop_front();
        }
    }
}

// A complete file starts with this line; a damaged or foreign one does not.
std::string textFileHeader(std::string_view kind) { return "warpscope-" + std::string(kind) + "-cache 1\n"; }

} // namespace

std::string compileCacheKey(std::string_view source, std::string_view name, const std::vector<std::string>& arguments)
{
    std::string material = "warpscope-nvrtc-cache 1";
    material += '\0';
    material += name;
    for (const std::string& argument : arguments) {
        material += '\0';
        material += argument;
    }
    material += '\0';
    material += source;
    return hash128(material);
}

std::string fileContentHash(const std::filesystem::path& path)
{
    std::ifstream file(path, std::ios::binary);
    if (!file)
        return std::string(kAbsent);
    std::stringstream contents;
    contents << file.rdbuf();
    if (file.bad())
        return std::string(kAbsent);
    return hash128(contents.str());
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
    std::optional<CachedCompile> remembered;
    {
        MemoryCache& cache = memory();
        std::lock_guard lock(cache.mutex);
        if (auto found = cache.entries.find(key); found != cache.entries.end())
            remembered = found->second;
    }
    // Headers are read outside the lock. One that changed: another process may have stored a newer
    // entry on disk; else the next store replaces this one.
    if (remembered && dependenciesUnchanged(*remembered))
        return remembered;
    const std::filesystem::path folder = compileCacheDirectory();
    if (folder.empty())
        return std::nullopt;
    std::ifstream file(folder / (key + ".nvrtc"), std::ios::binary);
    if (!file)
        return std::nullopt;
    std::stringstream contents;
    contents << file.rdbuf();
    const std::string text = contents.str();
    // header, the dependencies, the log's length on a line, the log, the PTX.
    if (!text.starts_with(kFileHeader))
        return std::nullopt;
    CachedCompile compile;
    std::size_t at = kFileHeader.size();
    if (!parseDependencies(text, at, compile.dependencies))
        return std::nullopt;
    const std::size_t lineEnd = text.find('\n', at);
    if (lineEnd == std::string::npos)
        return std::nullopt;
    char* end = nullptr;
    const std::string lengthText = text.substr(at, lineEnd - at);
    const unsigned long long logLength = std::strtoull(lengthText.c_str(), &end, 10);
    if (end == lengthText.c_str() || *end != '\0' || lineEnd + 1 + logLength > text.size())
        return std::nullopt;
    compile.log = text.substr(lineEnd + 1, logLength);
    compile.ptx = text.substr(lineEnd + 1 + logLength);
    if (compile.ptx.find(".version") == std::string::npos)
        return std::nullopt; // not PTX: a damaged file
    if (!dependenciesUnchanged(compile))
        return std::nullopt;
    remember(key, compile);
    return compile;
}

void storeCachedCompile(const std::string& key, const CachedCompile& compile)
{
    if (key.empty() || !cacheEnabled())
        return;
    for (const CompileDependency& dependency : compile.dependencies)
        if (dependency.path.find('\n') != std::string::npos || dependency.contentHash.empty())
            return; // not representable in the file's line format; a rare name, so simply not cached
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
        file << kFileHeader << compile.dependencies.size() << "\n";
        for (const CompileDependency& dependency : compile.dependencies)
            file << dependency.contentHash << ' ' << dependency.path << "\n";
        file << compile.log.size() << "\n" << compile.log << compile.ptx;
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
    TextCache& texts = textMemory();
    std::lock_guard textLock(texts.mutex);
    texts.entries.clear();
    texts.order.clear();
}

std::optional<std::string> findCachedText(const std::string& key, std::string_view kind)
{
    if (key.empty() || kind.empty() || !cacheEnabled())
        return std::nullopt;
    const std::string memoryKey = std::string(kind) + ":" + key;
    {
        TextCache& cache = textMemory();
        std::lock_guard lock(cache.mutex);
        if (auto found = cache.entries.find(memoryKey); found != cache.entries.end())
            return found->second;
    }
    const std::filesystem::path folder = compileCacheDirectory();
    if (folder.empty())
        return std::nullopt;
    std::ifstream file(folder / (key + "." + std::string(kind)), std::ios::binary);
    if (!file)
        return std::nullopt;
    std::stringstream contents;
    contents << file.rdbuf();
    const std::string text = contents.str();
    const std::string header = textFileHeader(kind);
    if (!text.starts_with(header))
        return std::nullopt;
    std::string body = text.substr(header.size());
    rememberText(memoryKey, body);
    return body;
}

void storeCachedText(const std::string& key, std::string_view kind, const std::string& text)
{
    if (key.empty() || kind.empty() || !cacheEnabled())
        return;
    rememberText(std::string(kind) + ":" + key, text);
    const std::filesystem::path folder = compileCacheDirectory();
    if (folder.empty())
        return;
    std::error_code error;
    std::filesystem::create_directories(folder, error);
    const std::filesystem::path target = folder / (key + "." + std::string(kind));
    const std::filesystem::path temporary =
        folder / (key + ".tmp" + std::string(kind) + std::to_string(static_cast<long long>(::getpid())));
    {
        std::ofstream file(temporary, std::ios::binary | std::ios::trunc);
        if (!file)
            return; // a cache that cannot be written is only slower
        file << textFileHeader(kind) << text;
        if (!file)
            return;
    }
    std::filesystem::rename(temporary, target, error);
    if (error)
        std::filesystem::remove(temporary, error);
}

} // namespace warpscope::ptx
