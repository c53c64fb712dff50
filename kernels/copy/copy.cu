// Memory coalescing: three copies that move the same useful bytes but ask the memory system for
// very different numbers of 32-byte sectors (a warp's 32 loads of 4 bytes fit exactly into four
// when consecutive and sector-aligned), then a fourth that moves them as fast as the GPU can.

// out[i] = in[i]: consecutive threads read consecutive floats, four sectors per warp load.
extern "C" __global__ void copy_coalesced(const float* in, float* out, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i];
}

// out[i] = in[i * stride]: neighbouring threads read floats `stride` apart, so a warp's load spans
// `stride` times as many sectors and only part of every sector fetched is used.
extern "C" __global__ void copy_strided(const float* in, float* out, int n, int stride)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i * stride];
}

// out[i] = in[i + offset]: consecutive, but unless offset is a multiple of 8 floats every warp's
// load straddles a sector boundary and touches five sectors instead of four.
extern "C" __global__ void copy_offset(const float* in, float* out, int n, int offset)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i + offset];
}

// The copy at full speed: each thread moves 16 bytes per instruction (float4 loads and stores, one
// request of 16 sectors per warp instead of four requests of 4), and a grid of only a few blocks
// per SM walks the whole array in a grid-stride loop, so the blocks stay resident and no time goes
// to launching and retiring hundreds of thousands of short-lived ones. The float4 part covers the
// first n - n % 4 floats; the last n % 4 go through a scalar tail. `in` and `out` must be 16-byte
// aligned, as cudaMalloc's pointers are. __restrict__ promises the two arrays do not overlap, so the
// loads become ld.global.nc and the loads of the unrolled iterations need not wait for the stores
// before them: more bytes in flight per thread.
extern "C" __global__ void copy_vec4_grid_stride(const float* __restrict__ in, float* __restrict__ out, int n)
{
    const float4* in4 = reinterpret_cast<const float4*>(in);
    float4* out4 = reinterpret_cast<float4*>(out);
    const int vectors = n / 4;
    const int first = blockIdx.x * blockDim.x + threadIdx.x;
    const int stride = gridDim.x * blockDim.x;
    for (int i = first; i < vectors; i += stride)
        out4[i] = in4[i];

    const int tail = vectors * 4 + first;
    if (tail < n)
        out[tail] = in[tail];
}
