#include "ptx/source_files.h"

#include "ptx/nvrtc_std_headers.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <string>
#include <system_error>

// The toolkit whose headers this build compiled against (core/CMakeLists.txt).
#ifndef WARPSCOPE_CUDA_INCLUDE_DIR
#define WARPSCOPE_CUDA_INCLUDE_DIR "/usr/local/cuda/include"
#endif

namespace warpscope::ptx {

namespace {

namespace fs = std::filesystem;

bool under(const std::string& path, const std::string& folder)
{
    return !folder.empty() && path.size() > folder.size() && path.starts_with(folder) && path[folder.size()] == '/';
}

} // namespace

bool isToolkitHeader(std::string_view path)
{
    if (path.empty())
        return false;
    if (std::any_of(kNvrtcStdHeaders.begin(), kNvrtcStdHeaders.end(),
                    [&](const NvrtcStdHeader& header) { return header.name == path; }))
        return true;
    // nvcc names them through its own folder: "/usr/local/cuda/bin/../targets/x86_64-linux/include/...".
    const std::string normal = fs::path(path).lexically_normal().generic_string();
    if (normal.find("/targets/") != std::string::npos && normal.find("/include/") != std::string::npos)
        return true;
    if (normal.find("/cuda/include/") != std::string::npos)
        return true;
    const std::string include = fs::path(WARPSCOPE_CUDA_INCLUDE_DIR).lexically_normal().generic_string();
    if (under(normal, include))
        return true;
    std::error_code error;
    const std::string real = fs::weakly_canonical(fs::path(normal), error).generic_string();
    const std::string realInclude = fs::weakly_canonical(fs::path(include), error).generic_string();
    return !error && under(real, realInclude);
}

} // namespace warpscope::ptx
