// Square matrix multiplication C = A * B (n x n floats, row-major), one thread per element of C.
// Both kernels accumulate the products in ascending k, starting from zero, so they compute the same
// sums; they differ only in where the operands come from.

#define TILE 16

// Every thread reads a full row of A and a full column of B from global memory: 2n loads for n
// multiply-adds. The 16 lanes of a half-warp share one row of A (a broadcast) and read neighbouring
// elements of B (coalesced), but nothing is reused between threads.
extern "C" __global__ void matmul_naive(const float* A, const float* B, float* C, int n)
{
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < n && col < n) {
        float acc = 0.0f;
        for (int k = 0; k < n; ++k)
            acc += A[row * n + k] * B[k * n + col];
        C[row * n + col] = acc;
    }
}

// The block walks along k one 16 x 16 tile at a time: each thread loads one element of A and one of
// B into shared memory, the block synchronises, and every thread then does 16 multiply-adds from
// shared memory. Global loads drop by a factor of 16. The second barrier keeps the next tile from
// overwriting values other threads are still reading. Blocks must be TILE x TILE threads.
extern "C" __global__ void matmul_tiled(const float* A, const float* B, float* C, int n)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int row = blockIdx.y * TILE + ty;
    const int col = blockIdx.x * TILE + tx;

    float acc = 0.0f;
    for (int t = 0; t < n; t += TILE) {
        // Elements outside the matrix are loaded as zero, so partial tiles need no special case.
        As[ty][tx] = (row < n && t + tx < n) ? A[row * n + t + tx] : 0.0f;
        Bs[ty][tx] = (t + ty < n && col < n) ? B[(t + ty) * n + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < n && col < n)
        C[row * n + col] = acc;
}
