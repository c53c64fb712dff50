// A 256-bin byte histogram with privatisation: each block counts into its own histogram in shared
// memory, where atomics are cheap and contention is limited to the block, then adds its 256 counts
// to the global bins with one atomic per non-empty bin. Integer atomics are exact, so the result
// does not depend on the order in which threads run.

#define BINS 256

extern "C" __global__ void histogram_shared_atomics(const unsigned char* data, unsigned int* bins, int n)
{
    __shared__ unsigned int local[BINS];
    for (unsigned int b = threadIdx.x; b < BINS; b += blockDim.x)
        local[b] = 0;
    __syncthreads();

    // Grid-stride loop: the grid may be smaller than the data.
    const int stride = blockDim.x * gridDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        atomicAdd(&local[data[i]], 1u);
    __syncthreads();

    for (unsigned int b = threadIdx.x; b < BINS; b += blockDim.x) {
        const unsigned int c = local[b];
        if (c != 0)
            atomicAdd(&bins[b], c);
    }
}
