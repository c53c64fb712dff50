#include "ptx/sass_tools.h"

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <spawn.h>
#include <sstream>
#include <string_view>
#include <sys/wait.h>
#include <system_error>
#include <unistd.h>

extern char** environ;

// The toolkit whose headers this build compiled against (core/CMakeLists.txt); its bin/ is next to
// include/.
#ifndef WARPSCOPE_CUDA_INCLUDE_DIR
#define WARPSCOPE_CUDA_INCLUDE_DIR "/usr/local/cuda/include"
#endif

namespace warpscope::ptx {

namespace {

namespace fs = std::filesystem;

std::string readWhole(const fs::path& path)
{
    std::ifstream file(path, std::ios::binary);
    std::stringstream text;
    text << file.rdbuf();
    return text.str();
}

bool isExecutableFile(const fs::path& path)
{
    std::error_code error;
    return fs::is_regular_file(path, error) && ::access(path.c_str(), X_OK) == 0;
}

std::string environment(const char* name)
{
    const char* value = std::getenv(name);
    return value ? std::string(value) : std::string();
}

// The folders a toolkit tool is looked for in, before PATH: $CUDA_HOME/bin, then the build's toolkit.
std::vector<fs::path> toolkitBinFolders()
{
    std::vector<fs::path> folders;
    if (const std::string home = environment("CUDA_HOME"); !home.empty())
        folders.push_back(fs::path(home) / "bin");
    const fs::path built = fs::path(WARPSCOPE_CUDA_INCLUDE_DIR).parent_path() / "bin";
    if (folders.empty() || folders.front() != built)
        folders.push_back(built);
    return folders;
}

std::vector<fs::path> pathFolders()
{
    std::vector<fs::path> folders;
    const std::string path = environment("PATH");
    std::string_view rest = path;
    while (!rest.empty()) {
        const auto colon = rest.find(':');
        const std::string_view folder = rest.substr(0, colon);
        if (!folder.empty())
            folders.emplace_back(std::string(folder));
        if (colon == std::string_view::npos)
            break;
        rest.remove_prefix(colon + 1);
    }
    return folders;
}

std::optional<fs::path> findIn(const std::vector<fs::path>& folders, std::string_view name)
{
    for (const fs::path& folder : folders)
        if (const fs::path candidate = folder / name; isExecutableFile(candidate))
            return candidate;
    return std::nullopt;
}

// A temporary file for one output stream of one run.
fs::path temporaryOutput(std::string_view stream)
{
    static std::atomic<unsigned long long> counter{0};
    std::error_code error;
    fs::path folder = fs::temp_directory_path(error);
    if (error)
        folder = "/tmp";
    return folder / ("warpscope-tool-" + std::to_string(static_cast<long long>(::getpid())) + "-" +
                     std::to_string(counter++) + "." + std::string(stream));
}

} // namespace

ToolRun runTool(const std::vector<std::string>& argv)
{
    ToolRun run;
    if (argv.empty()) {
        run.startError = "no program to run";
        return run;
    }
    std::vector<std::string> words = argv;
    std::vector<char*> pointers;
    for (std::string& word : words)
        pointers.push_back(word.data());
    pointers.push_back(nullptr);

    const fs::path outPath = temporaryOutput("out");
    const fs::path errPath = temporaryOutput("err");
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, outPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, errPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    pid_t child = 0;
    const int spawned = posix_spawn(&child, pointers[0], &actions, nullptr, pointers.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (spawned != 0) {
        run.startError = std::strerror(spawned);
        std::error_code error;
        fs::remove(outPath, error);
        fs::remove(errPath, error);
        return run;
    }
    run.started = true;
    int status = 0;
    while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(status))
        run.exitStatus = WEXITSTATUS(status);
    else if (WIFSIGNALED(status))
        run.exitStatus = 128 + WTERMSIG(status);
    run.out = readWhole(outPath);
    run.err = readWhole(errPath);
    std::error_code error;
    fs::remove(outPath, error);
    fs::remove(errPath, error);
    return run;
}

std::optional<fs::path> findPtxas()
{
    if (auto found = findIn(toolkitBinFolders(), "ptxas"))
        return found;
    return findIn(pathFolders(), "ptxas");
}

fs::path nvdisasmSetupFolder()
{
    if (const std::string data = environment("XDG_DATA_HOME"); !data.empty())
        return fs::path(data) / "warpscope" / "nvdisasm";
    if (const std::string home = environment("HOME"); !home.empty())
        return fs::path(home) / ".local" / "share" / "warpscope" / "nvdisasm";
    return {};
}

std::optional<fs::path> findNvdisasm()
{
    if (auto found = findIn(toolkitBinFolders(), "nvdisasm"))
        return found;
    if (auto found = findIn(pathFolders(), "nvdisasm"))
        return found;
    if (const fs::path folder = nvdisasmSetupFolder(); !folder.empty())
        return findIn({folder / "bin"}, "nvdisasm");
    return std::nullopt;
}

std::string nvdisasmMissingMessage()
{
    std::string where;
    for (const fs::path& folder : toolkitBinFolders())
        where += folder.string() + ", ";
    const fs::path setup = nvdisasmSetupFolder();
    return "nvdisasm, which shows the SASS, was not found (looked in " + where + "PATH" +
           (setup.empty() ? std::string() : " and " + (setup / "bin").string()) +
           "): run scripts/setup.sh, which installs NVIDIA's nvidia-cuda-nvdisasm package from PyPI there, "
           "or install the CUDA toolkit's nvdisasm";
}

std::string ptxasMissingMessage()
{
    std::string where;
    for (const fs::path& folder : toolkitBinFolders())
        where += folder.string() + ", ";
    return "ptxas, which compiles PTX to SASS, was not found (looked in " + where +
           "PATH): install the CUDA toolkit at /usr/local/cuda or set CUDA_HOME";
}

std::string toolIdentity(const fs::path& tool)
{
    std::error_code error;
    const fs::path resolved = fs::canonical(tool, error);
    const fs::path& file = error ? tool : resolved;
    const auto size = fs::file_size(file, error);
    if (error)
        return {};
    const auto written = fs::last_write_time(file, error);
    if (error)
        return {};
    return file.string() + " " + std::to_string(size) + " " +
           std::to_string(static_cast<long long>(written.time_since_epoch().count()));
}

} // namespace warpscope::ptx
