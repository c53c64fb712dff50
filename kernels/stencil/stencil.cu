// A 1-D stencil: out[i] is the sum of in[i - RADIUS .. i + RADIUS], with elements outside the array
// taken as zero. Every input element is needed by 2 * RADIUS + 1 outputs, so each block stages its
// elements plus a halo of RADIUS on either side in shared memory and reads them from there.

#define RADIUS 3

// Dynamic shared memory: (blockDim.x + 2 * RADIUS) floats.
extern "C" __global__ void stencil_1d(const float* in, float* out, int n)
{
    extern __shared__ float tile[];
    const int g = blockIdx.x * blockDim.x + threadIdx.x;
    const int l = threadIdx.x + RADIUS;

    tile[l] = (g < n) ? in[g] : 0.0f;
    // The first RADIUS threads also load the halo: RADIUS elements left of the block and RADIUS
    // elements right of it.
    if (threadIdx.x < RADIUS) {
        const int left = g - RADIUS;
        const int right = g + blockDim.x;
        tile[l - RADIUS] = (left >= 0 && left < n) ? in[left] : 0.0f;
        tile[l + blockDim.x] = (right < n) ? in[right] : 0.0f;
    }
    __syncthreads();

    if (g < n) {
        float sum = 0.0f;
        for (int j = -RADIUS; j <= RADIUS; ++j)
            sum += tile[l + j];
        out[g] = sum;
    }
}
