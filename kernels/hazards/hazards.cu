// Kernels with a deliberate bug each, to show what the simulator's hazard detector reports. Every
// one has a clean counterpart in another topic; the comment on each says what to change.

// vector_add without its bounds check. The grid is rounded up to whole blocks, so the threads past
// n read a[i] and b[i] and write c[i] beyond the end of the buffers.
// Fix: `if (i < n)` around the body, as in vector_add (n is passed but never looked at).
extern "C" __global__ void hazard_out_of_bounds(const float* a, const float* b, float* c, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    c[i] = a[i] + b[i];
}

// Rotates each block's values left by one, in place in shared memory: out[g] = in[g + 1] within the
// block, the first element wrapping round to the end. Every thread reads its right neighbour's slot
// and then overwrites its own, but nothing makes the neighbour wait until the read is done: the
// read and the write of the same slot are unordered, a shared-memory race (lane 31 of one warp
// reads the slot lane 0 of the next warp writes). Dynamic shared memory: blockDim.x floats.
// Fix: a __syncthreads() between the read and the write.
extern "C" __global__ void hazard_missing_sync(const float* in, float* out, int n)
{
    extern __shared__ float tile[];
    const unsigned int t = threadIdx.x;
    const int g = blockIdx.x * blockDim.x + threadIdx.x;
    tile[t] = (g < n) ? in[g] : 0.0f;
    __syncthreads();

    const float next = tile[t + 1 < blockDim.x ? t + 1 : 0];
    // A __syncthreads() is missing here.
    tile[t] = next;
    __syncthreads();

    if (g < n)
        out[g] = tile[t];
}

// Threads 0..15 each add up a sixteenth of the block's values (every sixteenth element), then wait
// at a barrier; afterwards every thread stores its partial sum (0 for threads 16 and up). That barrier sits inside `if (threadIdx.x < 16)`:
// __syncthreads() must be reached by every thread of the block, but only 16 of them arrive, half of
// warp 0 and none of the other warps. On hardware this is undefined behaviour (a hang, or a barrier
// that silently does not synchronise). Dynamic shared memory: blockDim.x floats.
// Fix: move the barrier out of the branch, or drop it (nothing here needs it).
extern "C" __global__ void hazard_barrier_divergence(const float* in, float* out, int n)
{
    extern __shared__ float tile[];
    const unsigned int t = threadIdx.x;
    const int g = blockIdx.x * blockDim.x + threadIdx.x;
    tile[t] = (g < n) ? in[g] : 0.0f;
    __syncthreads();

    float partial = 0.0f;
    if (t < 16) {
        for (unsigned int k = t; k < blockDim.x; k += 16)
            partial += tile[k];
        __syncthreads();
    }
    // Every thread stores: the threads that skipped the barrier carry on past it.
    if (g < n)
        out[g] = partial;
}
