// The toolkit's offline tools behind SASS: ptxas (PTX to a cubin for one GPU, and its resource report)
// and nvdisasm (the cubin's machine code with source lines). Neither needs a GPU. Where they are, and
// running one as a child process with its output captured. Qt-free.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace warpscope::ptx {

struct ToolRun {
    bool started = false;  // the program was found and spawned
    std::string startError; // when !started: why (strerror of posix_spawn)
    int exitStatus = -1;    // the program's exit status; 128 + N when signal N ended it
    std::string out;        // everything it wrote on standard output
    std::string err;        // and on standard error
};

// Runs argv[0] (a path) with argv, standard input from /dev/null, and waits for it. The outputs go
// through temporary files, so a tool that writes megabytes cannot block on a full pipe.
ToolRun runTool(const std::vector<std::string>& argv);

// ptxas: $CUDA_HOME/bin, then the toolkit this build found, then PATH. nullopt when none is there.
std::optional<std::filesystem::path> findPtxas();

// nvdisasm: $CUDA_HOME/bin, then the toolkit this build found, then PATH, then where scripts/setup.sh
// puts NVIDIA's PyPI package of it (nvdisasmSetupFolder()/bin). nullopt when none is there.
std::optional<std::filesystem::path> findNvdisasm();

// $XDG_DATA_HOME/warpscope/nvdisasm, else ~/.local/share/warpscope/nvdisasm: the folder setup.sh
// installs the nvidia-cuda-nvdisasm package into (pip --target), with bin/nvdisasm linked to it.
std::filesystem::path nvdisasmSetupFolder();

// One line for a learner: where nvdisasm was looked for and how to get it.
std::string nvdisasmMissingMessage();
// The same for ptxas.
std::string ptxasMissingMessage();

// "<path> <size> <mtime>": changes when the tool is replaced, for cache keys (empty for no file).
std::string toolIdentity(const std::filesystem::path& tool);

} // namespace warpscope::ptx
