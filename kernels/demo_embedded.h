// One demo topic as compiled into the program: its PTX (nvcc -ptx at build time), its CUDA source
// and its manifest, as text.
#pragma once

namespace warpscope::kernels::embedded {

struct EmbeddedTopic {
    const char* topic;
    const char* ptx;
    const char* cudaSource;
    const char* manifest;
};

} // namespace warpscope::kernels::embedded
