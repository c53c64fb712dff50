// Square matrix multiplication C = A * B (n x n floats, row-major), from one thread per element of
// C to the layout of a fast SGEMM. Every kernel accumulates the products in ascending k, starting
// from zero, so all compute the same sums; they differ in where the operands come from.

#include <cuda_fp16.h>
#include <mma.h>

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

// ---- Register blocking ----------------------------------------------------------------------------
// matmul_tiled does one multiply-add per two shared-memory loads: shared memory, not arithmetic, is
// the limit. The rungs below keep several elements of C per thread in registers, so every value
// loaded from shared memory is used several times. Every element of C is still accumulated from
// 0.0f in ascending k with one fma per k, as in the rungs above. Operands outside the matrix are
// loaded as zero, so any n works (the vectorised rungs need n to be a multiple of 4).

// Rung 3: 1-D register blocking. A block computes a 64 x 64 tile of C with 64 x 8 threads; thread
// (tx, ty) computes the 8 elements of column tx in rows 8*ty .. 8*ty+7. Per step along k the tiles
// are 64 x 8 of A and 8 x 64 of B: each thread loads one element of each. Then every B value read
// from shared memory serves 8 multiply-adds, and the A values are read by all 32 lanes of a warp at
// once (a broadcast: the lanes of a warp share ty).
#define BLOCK1D 64
#define STEP1D 8
#define THREAD1D 8

extern "C" __global__ void matmul_1d_blocktile(const float* A, const float* B, float* C, int n)
{
    __shared__ float As[BLOCK1D][STEP1D];
    __shared__ float Bs[STEP1D][BLOCK1D];
    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int t = ty * BLOCK1D + tx;
    const int rowBase = blockIdx.y * BLOCK1D;
    const int colBase = blockIdx.x * BLOCK1D;
    const int aRow = t / STEP1D, aCol = t % STEP1D; // this thread's element of the A tile

    float acc[THREAD1D] = {};
    for (int k0 = 0; k0 < n; k0 += STEP1D) {
        As[aRow][aCol] = (rowBase + aRow < n && k0 + aCol < n) ? A[(rowBase + aRow) * n + k0 + aCol] : 0.0f;
        Bs[ty][tx] = (k0 + ty < n && colBase + tx < n) ? B[(k0 + ty) * n + colBase + tx] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < STEP1D; ++k) {
            const float b = Bs[k][tx];
            for (int i = 0; i < THREAD1D; ++i)
                acc[i] += As[ty * THREAD1D + i][k] * b;
        }
        __syncthreads();
    }
    for (int i = 0; i < THREAD1D; ++i) {
        const int row = rowBase + ty * THREAD1D + i;
        if (row < n && colBase + tx < n)
            C[row * n + colBase + tx] = acc[i];
    }
}

// Rung 4: 2-D register blocking. A block of 16 x 16 threads computes a 128 x 128 tile of C; thread
// (tx, ty) computes an 8 x 8 block of it: rows 8*ty .., columns 8*tx ... Per step along k it reads
// 8 values of A and 8 of B from shared memory into registers and does their 64 products: 16 loads
// for 64 multiply-adds instead of 9 for 8. The tiles are 128 x 8 of A and 8 x 128 of B, four
// elements of each per thread.
#define BLOCK2D 128
#define STEP2D 8
#define THREAD2D 8

extern "C" __global__ void matmul_2d_blocktile(const float* A, const float* B, float* C, int n)
{
    __shared__ float As[BLOCK2D][STEP2D];
    __shared__ float Bs[STEP2D][BLOCK2D];
    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int t = ty * 16 + tx;
    const int rowBase = blockIdx.y * BLOCK2D;
    const int colBase = blockIdx.x * BLOCK2D;

    float acc[THREAD2D][THREAD2D] = {};
    float a[THREAD2D], b[THREAD2D];
    for (int k0 = 0; k0 < n; k0 += STEP2D) {
        for (int l = 0; l < 4; ++l) {
            const int e = t + l * 256;
            const int aRow = e / STEP2D, aCol = e % STEP2D;
            const int bRow = e / BLOCK2D, bCol = e % BLOCK2D;
            As[aRow][aCol] = (rowBase + aRow < n && k0 + aCol < n) ? A[(rowBase + aRow) * n + k0 + aCol] : 0.0f;
            Bs[bRow][bCol] = (k0 + bRow < n && colBase + bCol < n) ? B[(k0 + bRow) * n + colBase + bCol] : 0.0f;
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < STEP2D; ++k) {
            for (int i = 0; i < THREAD2D; ++i)
                a[i] = As[ty * THREAD2D + i][k];
            for (int j = 0; j < THREAD2D; ++j)
                b[j] = Bs[k][tx * THREAD2D + j];
            for (int i = 0; i < THREAD2D; ++i)
                for (int j = 0; j < THREAD2D; ++j)
                    acc[i][j] += a[i] * b[j];
        }
        __syncthreads();
    }
    for (int i = 0; i < THREAD2D; ++i)
        for (int j = 0; j < THREAD2D; ++j) {
            const int row = rowBase + ty * THREAD2D + i, col = colBase + tx * THREAD2D + j;
            if (row < n && col < n)
                C[row * n + col] = acc[i][j];
        }
}

// Rung 5: vectorised loads. The same 128 x 128 tiles and 8 x 8 blocks per thread, but every access
// to global memory moves a float4: each thread loads one float4 of the A tile and one of the B tile
// per step (one request of 16 sectors per warp instead of four of 4). The A tile is stored
// transposed, As[k][m], so the 8 values of A a thread needs at step k are consecutive and come in
// two float4 loads from shared memory, as B's do: 4 shared loads per k instead of 16. Storing it
// transposed writes a column of As per thread; the 4 words of padding per row put the two columns
// a warp writes at once into different banks. Needs n % 4 == 0 (16-byte aligned rows).
#define PAD_A 4

extern "C" __global__ void matmul_vectorized(const float* A, const float* B, float* C, int n)
{
    __shared__ __align__(16) float As[STEP2D][BLOCK2D + PAD_A];
    __shared__ __align__(16) float Bs[STEP2D][BLOCK2D];
    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int t = ty * 16 + tx;
    const int rowBase = blockIdx.y * BLOCK2D;
    const int colBase = blockIdx.x * BLOCK2D;
    const int aRow = t / 2, aCol = (t % 2) * 4;   // this thread's float4 of the 128 x 8 A tile
    const int bRow = t / 32, bCol = (t % 32) * 4; // and of the 8 x 128 B tile

    float acc[THREAD2D][THREAD2D] = {};
    for (int k0 = 0; k0 < n; k0 += STEP2D) {
        float4 av = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        if (rowBase + aRow < n && k0 + aCol < n)
            av = *reinterpret_cast<const float4*>(&A[(rowBase + aRow) * n + k0 + aCol]);
        As[aCol + 0][aRow] = av.x;
        As[aCol + 1][aRow] = av.y;
        As[aCol + 2][aRow] = av.z;
        As[aCol + 3][aRow] = av.w;
        float4 bv = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        if (k0 + bRow < n && colBase + bCol < n)
            bv = *reinterpret_cast<const float4*>(&B[(k0 + bRow) * n + colBase + bCol]);
        *reinterpret_cast<float4*>(&Bs[bRow][bCol]) = bv;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < STEP2D; ++k) {
            const float4 a0 = *reinterpret_cast<const float4*>(&As[k][ty * THREAD2D]);
            const float4 a1 = *reinterpret_cast<const float4*>(&As[k][ty * THREAD2D + 4]);
            const float4 b0 = *reinterpret_cast<const float4*>(&Bs[k][tx * THREAD2D]);
            const float4 b1 = *reinterpret_cast<const float4*>(&Bs[k][tx * THREAD2D + 4]);
            const float a[THREAD2D] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
            const float b[THREAD2D] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
            for (int i = 0; i < THREAD2D; ++i)
#pragma unroll
                for (int j = 0; j < THREAD2D; ++j)
                    acc[i][j] += a[i] * b[j];
        }
        __syncthreads();
    }
    for (int i = 0; i < THREAD2D; ++i) {
        const int row = rowBase + ty * THREAD2D + i;
        for (int j = 0; j < THREAD2D; j += 4) {
            const int col = colBase + tx * THREAD2D + j;
            if (row < n && col < n)
                *reinterpret_cast<float4*>(&C[row * n + col]) = make_float4(acc[i][j], acc[i][j + 1], acc[i][j + 2], acc[i][j + 3]);
        }
    }
}

// Rung 6: warp tiling. Rung 5 gives each warp a 16 x 128 strip of C (two rows of 16 threads, each
// 8 x 8): per step along k the warp reads 16 values of A and 128 of B from shared memory, and the
// B reads of neighbouring lanes, 8 floats apart, collide in the banks. Here the 8 warps of a
// 256-thread block are arranged 4 x 2, each owning a 32 x 64 tile of C: 32 + 64 = 96 values per
// step for the same 2048 multiply-adds. Inside the warp the lanes form 4 rows of 8, and each lane's
// 8 x 8 outputs are four 4 x 4 pieces, 16 rows and 32 columns apart, so the 8 lanes of a quarter
// warp read 32 consecutive floats of B (conflict free) and one float4 of A (a broadcast), and a
// warp's float4 stores to C cover whole 128-byte rows. Loads are as in rung 5.
#define WARP_ROWS 32
#define WARP_COLS 64

extern "C" __global__ void matmul_warptile(const float* A, const float* B, float* C, int n)
{
    __shared__ __align__(16) float As[STEP2D][BLOCK2D + PAD_A];
    __shared__ __align__(16) float Bs[STEP2D][BLOCK2D];
    const int t = threadIdx.x;
    const int warp = t / 32, lane = t % 32;
    const int mBase = (warp / 2) * WARP_ROWS + (lane / 8) * 4; // first of this lane's rows in the tile
    const int nBase = (warp % 2) * WARP_COLS + (lane % 8) * 4; // first of its columns
    const int rowBase = blockIdx.y * BLOCK2D;
    const int colBase = blockIdx.x * BLOCK2D;
    const int aRow = t / 2, aCol = (t % 2) * 4;
    const int bRow = t / 32, bCol = (t % 32) * 4;

    float acc[THREAD2D][THREAD2D] = {};
    for (int k0 = 0; k0 < n; k0 += STEP2D) {
        float4 av = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        if (rowBase + aRow < n && k0 + aCol < n)
            av = *reinterpret_cast<const float4*>(&A[(rowBase + aRow) * n + k0 + aCol]);
        As[aCol + 0][aRow] = av.x;
        As[aCol + 1][aRow] = av.y;
        As[aCol + 2][aRow] = av.z;
        As[aCol + 3][aRow] = av.w;
        float4 bv = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        if (k0 + bRow < n && colBase + bCol < n)
            bv = *reinterpret_cast<const float4*>(&B[(k0 + bRow) * n + colBase + bCol]);
        *reinterpret_cast<float4*>(&Bs[bRow][bCol]) = bv;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < STEP2D; ++k) {
            const float4 a0 = *reinterpret_cast<const float4*>(&As[k][mBase]);
            const float4 a1 = *reinterpret_cast<const float4*>(&As[k][mBase + 16]);
            const float4 b0 = *reinterpret_cast<const float4*>(&Bs[k][nBase]);
            const float4 b1 = *reinterpret_cast<const float4*>(&Bs[k][nBase + 32]);
            const float a[THREAD2D] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
            const float b[THREAD2D] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
            for (int i = 0; i < THREAD2D; ++i)
#pragma unroll
                for (int j = 0; j < THREAD2D; ++j)
                    acc[i][j] += a[i] * b[j];
        }
        __syncthreads();
    }
    // acc[i][j] is row mBase + (i / 4) * 16 + i % 4, column nBase + (j / 4) * 32 + j % 4.
    for (int i = 0; i < THREAD2D; ++i) {
        const int row = rowBase + mBase + (i / 4) * 16 + i % 4;
        for (int j = 0; j < THREAD2D; j += 4) {
            const int col = colBase + nBase + (j / 4) * 32;
            if (row < n && col < n)
                *reinterpret_cast<float4*>(&C[row * n + col]) = make_float4(acc[i][j], acc[i][j + 1], acc[i][j + 2], acc[i][j + 3]);
        }
    }
}

// Rung 7: prefetching (double buffering). In rung 6 a block loads a tile, waits at the barrier for
// the loads to arrive, computes, waits again, and only then asks for the next tile: its warps sit
// idle for the whole global-memory latency at every step, and only other resident blocks can fill
// the gap. Here each thread asks for its float4s of the next step's tiles before it computes the
// current one, so the loads are in flight during the 512 multiply-adds, and writes them into a
// second pair of shared buffers afterwards. With two buffers one barrier per step is enough: the
// buffer being written is the one every thread finished reading before the previous barrier.
// Otherwise as rung 6. __launch_bounds__(256, 2) keeps it at 128 registers, two blocks per SM.
extern "C" __global__ void __launch_bounds__(256, 2) matmul_prefetch(const float* A, const float* B, float* C, int n)
{
    __shared__ __align__(16) float As[2][STEP2D][BLOCK2D + PAD_A];
    __shared__ __align__(16) float Bs[2][STEP2D][BLOCK2D];
    const int t = threadIdx.x;
    const int warp = t / 32, lane = t % 32;
    const int mBase = (warp / 2) * WARP_ROWS + (lane / 8) * 4;
    const int nBase = (warp % 2) * WARP_COLS + (lane % 8) * 4;
    const int rowBase = blockIdx.y * BLOCK2D;
    const int colBase = blockIdx.x * BLOCK2D;
    const int aRow = t / 2, aCol = (t % 2) * 4;
    const int bRow = t / 32, bCol = (t % 32) * 4;
    const float4 zero = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    const bool aRowIn = rowBase + aRow < n, bColIn = colBase + bCol < n;

    // The first step's tiles go straight to buffer 0.
    float4 av = (aRowIn && aCol < n) ? *reinterpret_cast<const float4*>(&A[(rowBase + aRow) * n + aCol]) : zero;
    float4 bv = (bRow < n && bColIn) ? *reinterpret_cast<const float4*>(&B[bRow * n + colBase + bCol]) : zero;
    As[0][aCol + 0][aRow] = av.x;
    As[0][aCol + 1][aRow] = av.y;
    As[0][aCol + 2][aRow] = av.z;
    As[0][aCol + 3][aRow] = av.w;
    *reinterpret_cast<float4*>(&Bs[0][bRow][bCol]) = bv;
    __syncthreads();

    float acc[THREAD2D][THREAD2D] = {};
    int buffer = 0;
    for (int k0 = 0; k0 < n; k0 += STEP2D) {
        const int next = k0 + STEP2D;
        if (next < n) { // ask for the next step's tiles now; they are used only after the math below
            av = (aRowIn && next + aCol < n) ? *reinterpret_cast<const float4*>(&A[(rowBase + aRow) * n + next + aCol]) : zero;
            bv = (next + bRow < n && bColIn) ? *reinterpret_cast<const float4*>(&B[(next + bRow) * n + colBase + bCol]) : zero;
        }
#pragma unroll
        for (int k = 0; k < STEP2D; ++k) {
            const float4 a0 = *reinterpret_cast<const float4*>(&As[buffer][k][mBase]);
            const float4 a1 = *reinterpret_cast<const float4*>(&As[buffer][k][mBase + 16]);
            const float4 b0 = *reinterpret_cast<const float4*>(&Bs[buffer][k][nBase]);
            const float4 b1 = *reinterpret_cast<const float4*>(&Bs[buffer][k][nBase + 32]);
            const float a[THREAD2D] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
            const float b[THREAD2D] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
            for (int i = 0; i < THREAD2D; ++i)
#pragma unroll
                for (int j = 0; j < THREAD2D; ++j)
                    acc[i][j] += a[i] * b[j];
        }
        if (next < n) {
            As[buffer ^ 1][aCol + 0][aRow] = av.x;
            As[buffer ^ 1][aCol + 1][aRow] = av.y;
            As[buffer ^ 1][aCol + 2][aRow] = av.z;
            As[buffer ^ 1][aCol + 3][aRow] = av.w;
            *reinterpret_cast<float4*>(&Bs[buffer ^ 1][bRow][bCol]) = bv;
        }
        __syncthreads();
        buffer ^= 1;
    }
    for (int i = 0; i < THREAD2D; ++i) {
        const int row = rowBase + mBase + (i / 4) * 16 + i % 4;
        for (int j = 0; j < THREAD2D; j += 4) {
            const int col = colBase + nBase + (j / 4) * 32;
            if (row < n && col < n)
                *reinterpret_cast<float4*>(&C[row * n + col]) = make_float4(acc[i][j], acc[i][j + 1], acc[i][j + 2], acc[i][j + 3]);
        }
    }
}

// Tensor Cores through nvcuda::wmma (mma.h). A block of 4 warps owns a 32 x 32 tile of C, each warp
// a 16 x 16 quarter. At every step along k the block rounds a 32 x 16 slice of A and a 16 x 32 slice
// of B to FP16 (__float2half, cvt.rn.f16.f32) into shared memory; each warp then loads its A and B
// fragments (wmma.load) and issues one wmma.mma: 16 x 16 x 16 = 4,096 multiply-adds in a single
// warp instruction, accumulated in FP32. The fragment is spread over the warp's registers in a layout
// the hardware chooses; only load, mma and store touch it. n must be a multiple of 32 (whole tiles).
#define WMMA_K 16     // the k of one Tensor Core step
#define WMMA_BLOCK 32 // the block's tile of C: 2 x 2 warps of 16 x 16

extern "C" __global__ void matmul_wmma(const float* A, const float* B, float* C, int n)
{
    using namespace nvcuda;
    // wmma.load needs 32-byte-aligned tiles.
    __shared__ __align__(32) __half As[WMMA_BLOCK][WMMA_K];
    __shared__ __align__(32) __half Bs[WMMA_K][WMMA_BLOCK];
    const int t = threadIdx.x;
    const int warp = t / 32;
    const int warpRow = warp / 2, warpCol = warp % 2;
    const int rowBase = blockIdx.y * WMMA_BLOCK, colBase = blockIdx.x * WMMA_BLOCK;

    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int k0 = 0; k0 < n; k0 += WMMA_K) {
        for (int i = t; i < WMMA_BLOCK * WMMA_K; i += blockDim.x) {
            As[i / WMMA_K][i % WMMA_K] = __float2half(A[(rowBase + i / WMMA_K) * n + k0 + i % WMMA_K]);
            Bs[i / WMMA_BLOCK][i % WMMA_BLOCK] = __float2half(B[(k0 + i / WMMA_BLOCK) * n + colBase + i % WMMA_BLOCK]);
        }
        __syncthreads();
        wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a;
        wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> b;
        wmma::load_matrix_sync(a, &As[warpRow * 16][0], WMMA_K);
        wmma::load_matrix_sync(b, &Bs[0][warpCol * 16], WMMA_BLOCK);
        wmma::mma_sync(acc, a, b, acc);
        __syncthreads(); // the next step overwrites the tiles
    }
    wmma::store_matrix_sync(&C[(rowBase + warpRow * 16) * n + colBase + warpCol * 16], acc, n, wmma::mem_row_major);
}
