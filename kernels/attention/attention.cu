// One attention head, O = softmax(Q K^T / sqrt(d)) V, two ways. Q, K, V and O are n x HEAD_DIM
// floats per head, heads one after another; blockIdx.z (unfused) or blockIdx.y (fused) picks the head.
//
// The scores are kept in base 2: s = (q . k) * scale_log2 with scale_log2 = log2(e) / sqrt(d), so
// that exp2(s - max) equals exp(q . k / sqrt(d) - max') and softmax can use the GPU's ex2 instruction
// directly (FlashAttention's kernels do the same).
//
// The unfused path is three kernels that pass the n x n matrix through global memory:
// attention_scores writes S, attention_softmax reads S and writes P, attention_pv reads P. The fused
// kernel computes the same O without ever writing S or P, keeping a running maximum and sum per row
// (online softmax).
#define HEAD_DIM 16
#define TILE_KEYS 32

// Unfused 1/3: S[i][j] = (Q[i] . K[j]) * scale_log2, one thread per score.
extern "C" __global__ void attention_scores(const float* __restrict__ Q, const float* __restrict__ K,
                                            float* __restrict__ S, int n, int heads, float scale_log2)
{
    const int key = blockIdx.x * blockDim.x + threadIdx.x;
    const int query = blockIdx.y * blockDim.y + threadIdx.y;
    const int head = blockIdx.z;
    if (head >= heads || query >= n || key >= n)
        return;
    const float* q = Q + ((size_t)head * n + query) * HEAD_DIM;
    const float* k = K + ((size_t)head * n + key) * HEAD_DIM;
    float dot = 0.0f;
    for (int c = 0; c < HEAD_DIM; ++c)
        dot += q[c] * k[c];
    S[((size_t)head * n + query) * n + key] = dot * scale_log2;
}

// Unfused 2/3: P = softmax of each row of S, one warp per row (blockDim.x must be 32). The lanes take
// every 32nd score; the row's maximum and sum are combined across the warp with shuffles.
extern "C" __global__ void attention_softmax(const float* __restrict__ S, float* __restrict__ P, int n, int heads)
{
    const int query = blockIdx.x * blockDim.y + threadIdx.y;
    const int head = blockIdx.y;
    if (head >= heads || query >= n)
        return; // the whole warp: it holds one row
    const float* s = S + ((size_t)head * n + query) * n;
    float* p = P + ((size_t)head * n + query) * n;

    float rowMax = -INFINITY;
    for (int j = threadIdx.x; j < n; j += 32)
        rowMax = fmaxf(rowMax, s[j]);
    for (int offset = 16; offset > 0; offset /= 2)
        rowMax = fmaxf(rowMax, __shfl_xor_sync(0xffffffffu, rowMax, offset));

    float rowSum = 0.0f;
    for (int j = threadIdx.x; j < n; j += 32)
        rowSum += exp2f(s[j] - rowMax);
    for (int offset = 16; offset > 0; offset /= 2)
        rowSum += __shfl_xor_sync(0xffffffffu, rowSum, offset);

    for (int j = threadIdx.x; j < n; j += 32)
        p[j] = exp2f(s[j] - rowMax) / rowSum;
}

// Unfused 3/3: O[i][c] = sum over j of P[i][j] * V[j][c], one thread per output (blockDim.x = HEAD_DIM).
extern "C" __global__ void attention_pv(const float* __restrict__ P, const float* __restrict__ V,
                                        float* __restrict__ O, int n, int heads)
{
    const int c = threadIdx.x;
    const int query = blockIdx.x * blockDim.y + threadIdx.y;
    const int head = blockIdx.y;
    if (head >= heads || query >= n || c >= HEAD_DIM)
        return;
    const float* p = P + ((size_t)head * n + query) * n;
    const float* v = V + (size_t)head * n * HEAD_DIM;
    float acc = 0.0f;
    for (int j = 0; j < n; ++j)
        acc += p[j] * v[j * HEAD_DIM + c];
    O[((size_t)head * n + query) * HEAD_DIM + c] = acc;
}

// Fused: one thread per query row, TILE_KEYS threads per block; n must be a multiple of TILE_KEYS.
// The block walks the keys one tile at a time, staging TILE_KEYS rows of K and V in shared memory.
// Each thread keeps its row's running maximum m, running sum l and unnormalised output o in
// registers. When a tile raises the maximum, the old sum and output were scaled by 2^-m_old and must
// be rescaled by 2^(m_old - m_new) before the tile's terms are added: the online softmax. Only O is
// written to global memory.
extern "C" __global__ void attention_fused(const float* __restrict__ Q, const float* __restrict__ K,
                                           const float* __restrict__ V, float* __restrict__ O,
                                           int n, int heads, float scale_log2)
{
    __shared__ float Ks[TILE_KEYS][HEAD_DIM];
    __shared__ float Vs[TILE_KEYS][HEAD_DIM];
    // The block's query rows on their way in (Q) and out (O). One word of padding per row: thread t
    // reads row t, 17 words from its neighbour's, so the 32 lanes hit 32 different banks.
    __shared__ float Rows[TILE_KEYS][HEAD_DIM + 1];
    const int head = blockIdx.y;
    if (head >= heads)
        return; // the whole block
    const float* Kh = K + (size_t)head * n * HEAD_DIM;
    const float* Vh = V + (size_t)head * n * HEAD_DIM;

    // The block's 32 query rows are 512 consecutive floats: stage them through shared memory so the
    // loads are coalesced (a thread reading its own row would touch 32 sectors per load).
    const size_t rows = ((size_t)head * n + blockIdx.x * TILE_KEYS) * HEAD_DIM;
    for (int e = threadIdx.x; e < TILE_KEYS * HEAD_DIM; e += TILE_KEYS)
        Rows[e / HEAD_DIM][e % HEAD_DIM] = Q[rows + e];
    __syncthreads();
    float q[HEAD_DIM], o[HEAD_DIM];
    for (int c = 0; c < HEAD_DIM; ++c) {
        q[c] = Rows[threadIdx.x][c];
        o[c] = 0.0f;
    }
    float m = -INFINITY; // running maximum of the scores seen so far
    float l = 0.0f;      // running sum of 2^(s - m)

    for (int tile = 0; tile < n; tile += TILE_KEYS) {
        __syncthreads(); // every thread is done with the previous tile
        // Stage the tile: TILE_KEYS x HEAD_DIM floats of K and of V, consecutive threads on
        // consecutive floats.
        for (int e = threadIdx.x; e < TILE_KEYS * HEAD_DIM; e += TILE_KEYS) {
            Ks[e / HEAD_DIM][e % HEAD_DIM] = Kh[(size_t)tile * HEAD_DIM + e];
            Vs[e / HEAD_DIM][e % HEAD_DIM] = Vh[(size_t)tile * HEAD_DIM + e];
        }
        __syncthreads();

        float s[TILE_KEYS];
        float tileMax = -INFINITY;
        for (int j = 0; j < TILE_KEYS; ++j) {
            float dot = 0.0f;
            for (int c = 0; c < HEAD_DIM; ++c)
                dot += q[c] * Ks[j][c];
            s[j] = dot * scale_log2;
            tileMax = fmaxf(tileMax, s[j]);
        }
        // The rescale: 2^(m - mNew) is 1 when the maximum did not change, and 0 on the first tile
        // (m = -inf), where l and o are still 0. __fmul_rn keeps each rescale a multiply of its own
        // (the compiler would otherwise fold it into the first tile term's fma), so it can be stepped
        // to, and the gold reference repeats the same roundings.
        const float mNew = fmaxf(m, tileMax);
        const float rescale = exp2f(m - mNew);
        l = __fmul_rn(l, rescale);
        for (int c = 0; c < HEAD_DIM; ++c)
            o[c] = __fmul_rn(o[c], rescale);
        for (int j = 0; j < TILE_KEYS; ++j) {
            const float p = exp2f(s[j] - mNew);
            l += p;
            for (int c = 0; c < HEAD_DIM; ++c)
                o[c] += p * Vs[j][c];
        }
        m = mNew;
    }
    // Normalise, and store the block's rows through shared memory as they were loaded.
    for (int c = 0; c < HEAD_DIM; ++c)
        Rows[threadIdx.x][c] = o[c] / l;
    __syncthreads();
    for (int e = threadIdx.x; e < TILE_KEYS * HEAD_DIM; e += TILE_KEYS)
        O[rows + e] = Rows[e / HEAD_DIM][e % HEAD_DIM];
}
