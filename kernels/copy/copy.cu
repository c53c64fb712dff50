// Memory coalescing: three copies that move the same number of useful bytes but ask the memory
// system for very different numbers of 32-byte sectors. A warp's 32 loads of 4 bytes fit exactly
// into four sectors when they are consecutive and start on a sector boundary (8 floats).

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
