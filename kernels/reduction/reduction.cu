// Parallel reduction, step by step: the ladder of "Optimizing Parallel Reduction in CUDA" (Mark
// Harris). Every kernel sums a float array block by block and writes one partial sum per block to
// out[blockIdx.x]; no atomics, so the result is the same on every run. Each rung changes one thing:
// which threads work, how they address shared memory, how much each thread loads, and finally how
// the last warp exchanges values.
//
// Block sizes must be powers of two, at least 64 for rung 5; the launches use 256.

// Rung 1: interleaved addressing. In step s only threads whose index is a multiple of 2*s add, so
// every warp stays busy with a shrinking number of active lanes: heavy divergence, and `%` is slow.
extern "C" __global__ void reduce_interleaved_divergent(const float* in, float* out, int n)
{
    extern __shared__ float sdata[];
    const unsigned int tid = threadIdx.x;
    const unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (i < static_cast<unsigned int>(n)) ? in[i] : 0.0f;
    __syncthreads();

    for (unsigned int s = 1; s < blockDim.x; s *= 2) {
        if (tid % (2 * s) == 0)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = sdata[0];
}

// Rung 2: the same pairs, but thread tid works on index 2*s*tid, so the active threads are packed
// into the first warps and whole warps retire. The strided index makes lanes of a warp hit the same
// shared-memory bank: bank conflicts grow with s.
extern "C" __global__ void reduce_interleaved_bank_conflicts(const float* in, float* out, int n)
{
    extern __shared__ float sdata[];
    const unsigned int tid = threadIdx.x;
    const unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (i < static_cast<unsigned int>(n)) ? in[i] : 0.0f;
    __syncthreads();

    for (unsigned int s = 1; s < blockDim.x; s *= 2) {
        const unsigned int index = 2 * s * tid;
        if (index < blockDim.x)
            sdata[index] += sdata[index + s];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = sdata[0];
}

// Rung 3: sequential addressing. Thread tid adds the element s places above it, with s halving from
// blockDim.x/2: consecutive lanes touch consecutive words (no bank conflicts), but half the threads
// are idle from the very first step.
extern "C" __global__ void reduce_sequential(const float* in, float* out, int n)
{
    extern __shared__ float sdata[];
    const unsigned int tid = threadIdx.x;
    const unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (i < static_cast<unsigned int>(n)) ? in[i] : 0.0f;
    __syncthreads();

    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = sdata[0];
}

// Rung 4: first add during load. Each block covers 2*blockDim.x elements and every thread adds two
// of them while loading, so the grid is half as large and no thread is idle in the first step.
extern "C" __global__ void reduce_first_add_during_load(const float* in, float* out, int n)
{
    extern __shared__ float sdata[];
    const unsigned int tid = threadIdx.x;
    const unsigned int count = static_cast<unsigned int>(n);
    const unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
    float sum = (i < count) ? in[i] : 0.0f;
    if (i + blockDim.x < count)
        sum += in[i + blockDim.x];
    sdata[tid] = sum;
    __syncthreads();

    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = sdata[0];
}

// Rung 5: unroll the last warp. Once 32 or fewer threads are active they are all in warp 0, so the
// block-wide barrier is replaced by __syncwarp(). The classic version relied on the warp executing
// in lockstep; since Volta, threads of a warp are scheduled independently, so each step reads into a
// register, synchronises the warp, writes, and synchronises again. `volatile` keeps every access a
// real shared-memory load or store.
extern "C" __global__ void reduce_unroll_last_warp(const float* in, float* out, int n)
{
    extern __shared__ float sdata[];
    const unsigned int tid = threadIdx.x;
    const unsigned int count = static_cast<unsigned int>(n);
    const unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
    float sum = (i < count) ? in[i] : 0.0f;
    if (i + blockDim.x < count)
        sum += in[i + blockDim.x];
    sdata[tid] = sum;
    __syncthreads();

    for (unsigned int s = blockDim.x / 2; s > 32; s >>= 1) {
        if (tid < s)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid < 32) {
        volatile float* v = sdata;
        float x = v[tid];
        x += v[tid + 32]; __syncwarp(); v[tid] = x; __syncwarp();
        x += v[tid + 16]; __syncwarp(); v[tid] = x; __syncwarp();
        x += v[tid + 8];  __syncwarp(); v[tid] = x; __syncwarp();
        x += v[tid + 4];  __syncwarp(); v[tid] = x; __syncwarp();
        x += v[tid + 2];  __syncwarp(); v[tid] = x; __syncwarp();
        x += v[tid + 1];
        if (tid == 0)
            out[blockIdx.x] = x;
    }
}

// Rung 6: warp shuffles. Lanes exchange registers directly with __shfl_down_sync, so a warp reduces
// its 32 values without touching shared memory; only one value per warp goes through shared memory,
// and warp 0 reduces those the same way.
extern "C" __global__ void reduce_warp_shuffle(const float* in, float* out, int n)
{
    __shared__ float warpSums[32];
    const unsigned int tid = threadIdx.x;
    const unsigned int lane = tid % 32;
    const unsigned int warp = tid / 32;
    const unsigned int count = static_cast<unsigned int>(n);
    const unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
    float sum = (i < count) ? in[i] : 0.0f;
    if (i + blockDim.x < count)
        sum += in[i + blockDim.x];

#pragma unroll
    for (int offset = 16; offset > 0; offset /= 2)
        sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (lane == 0)
        warpSums[warp] = sum;
    __syncthreads();

    if (warp == 0) {
        sum = (lane < blockDim.x / 32) ? warpSums[lane] : 0.0f;
#pragma unroll
        for (int offset = 16; offset > 0; offset /= 2)
            sum += __shfl_down_sync(0xffffffffu, sum, offset);
        if (lane == 0)
            out[blockIdx.x] = sum;
    }
}

// Rung 7: vectorised grid-stride loads. Rungs 1 to 6 give every thread one or two elements, so the
// grid has a block for every 256 or 512 of them and most of the time goes to starting blocks and to
// their reduction trees. Here a fixed grid of a few blocks per SM walks the whole array: each thread
// reads float4s (16 bytes per load, 16 sectors per warp request) a grid apart and adds them in a
// register, so the tree runs once per block instead of once per 512 elements. The last n % 4
// floats are added by the first threads of the grid. Then warp shuffles and one value per warp in
// shared memory, as in rung 6. `in` must be 16-byte aligned, as cudaMalloc's pointers are; out gets
// one partial sum per block, in a fixed order, so the result is the same on every run.
extern "C" __global__ void reduce_vec4_grid_stride(const float* __restrict__ in, float* __restrict__ out, int n)
{
    __shared__ float warpSums[32];
    const unsigned int tid = threadIdx.x;
    const unsigned int lane = tid % 32;
    const unsigned int warp = tid / 32;
    const int vectors = n / 4;
    const int first = blockIdx.x * blockDim.x + tid;
    const int stride = gridDim.x * blockDim.x;
    const float4* in4 = reinterpret_cast<const float4*>(in);

    // Unrolled four times. With signed indices the compiler may assume i += stride never wraps (signed
    // overflow is undefined), so it counts the iterations up front and the four loads of an unrolled
    // step sit together, independent of the sums: all four are in flight before the first add waits
    // for its data. With unsigned indices it keeps an exit test, and a branch, between the loads.
    float sum = 0.0f;
#pragma unroll 4
    for (int i = first; i < vectors; i += stride) {
        const float4 v = in4[i];
        sum += (v.x + v.y) + (v.z + v.w);
    }
    if (vectors * 4 + first < n)
        sum += in[vectors * 4 + first];

#pragma unroll
    for (int offset = 16; offset > 0; offset /= 2)
        sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (lane == 0)
        warpSums[warp] = sum;
    __syncthreads();

    if (warp == 0) {
        sum = (lane < blockDim.x / 32) ? warpSums[lane] : 0.0f;
#pragma unroll
        for (int offset = 16; offset > 0; offset /= 2)
            sum += __shfl_down_sync(0xffffffffu, sum, offset);
        if (lane == 0)
            out[blockIdx.x] = sum;
    }
}
