// Matrix transpose, out = in^T for a square n x n float matrix in row-major order. Every kernel
// works on 32 x 32 tiles with blocks of 32 x 8 threads: each thread moves four elements, rows
// threadIdx.y, +8, +16 and +24 of its tile. Bounds checks make any n work; the launches use a
// multiple of 32 so every tile is full.

#define TILE 32
#define BLOCK_ROWS 8

// Reads are coalesced (a warp reads 32 consecutive floats of one row), but writes are not: the same
// warp writes one float into each of 32 different rows of `out`, 32 separate sectors per store.
extern "C" __global__ void transpose_naive(const float* in, float* out, int n)
{
    const int x = blockIdx.x * TILE + threadIdx.x;
    const int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += BLOCK_ROWS) {
        if (x < n && y + j < n)
            out[x * n + (y + j)] = in[(y + j) * n + x];
    }
}

// Stage the tile in shared memory: read rows of `in`, write rows of `out`, so both global accesses
// are coalesced. The transposed read tile[threadIdx.x][...] walks down a column: 32 lanes, addresses
// 32 words apart, all in the same bank, a 32-way bank conflict on every read.
extern "C" __global__ void transpose_tiled(const float* in, float* out, int n)
{
    __shared__ float tile[TILE][TILE];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += BLOCK_ROWS) {
        if (x < n && y + j < n)
            tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
    }
    __syncthreads();

    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += BLOCK_ROWS) {
        if (x < n && y + j < n)
            out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
    }
}

// One unused column of padding: rows are 33 words long, so the 32 elements of a column fall into
// 32 different banks and the column read is conflict free. Same code otherwise.
extern "C" __global__ void transpose_padded(const float* in, float* out, int n)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += BLOCK_ROWS) {
        if (x < n && y + j < n)
            tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
    }
    __syncthreads();

    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += BLOCK_ROWS) {
        if (x < n && y + j < n)
            out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
    }
}
