// Tensor Cores without wmma: mma.sync and ldmatrix written as PTX, the instructions CUTLASS and
// cuBLAS build their matrix products from, whose fragment layouts the PTX ISA fixes lane by lane.
#include <cuda_fp16.h>

// C = A B (n x n, row-major floats) on Tensor Cores, one warp per 16 x 8 tile of C. At every step
// along k the warp rounds a 16 x 16 slice of A and a 16 x 8 slice of B to FP16 into shared memory.
// ldmatrix .x4 hands each lane its A fragment registers (lanes 0-15 give the addresses of rows 0-15
// at k 0, lanes 16-31 at k 8); ldmatrix .x2 .trans its B registers from B's rows (k). Two
// mma.sync.m16n8k8 then add 16 x 8 x 8 products each into the FP32 accumulators d0-d3 (rows lane / 4
// and lane / 4 + 8, columns 2 (lane % 4) and one more, as the ISA lays out C and D).
// m16n8k8 rather than m16n8k16: the demo kernels' PTX targets compute_75 (Turing), and the ISA
// gives m16n8k16 to sm_80 and later only. n must be a multiple of 16.
extern "C" __global__ void matmul_mma(const float* A, const float* B, float* C, int n)
{
    __shared__ __align__(16) __half As[16][16]; // rows x k
    __shared__ __align__(16) __half Bs[16][8];  // k x columns: one 16-byte row per k
    const int lane = threadIdx.x;
    const int row0 = blockIdx.y * 16, col0 = blockIdx.x * 8;
    float d0 = 0.0f, d1 = 0.0f, d2 = 0.0f, d3 = 0.0f;
    for (int k0 = 0; k0 < n; k0 += 16) {
        for (int i = lane; i < 16 * 16; i += 32)
            As[i / 16][i % 16] = __float2half(A[(row0 + i / 16) * n + k0 + i % 16]);
        for (int i = lane; i < 16 * 8; i += 32)
            Bs[i / 8][i % 8] = __float2half(B[(k0 + i / 8) * n + col0 + i % 8]);
        __syncwarp();
        unsigned a0, a1, a2, a3, b0, b1;
        const unsigned aRow = static_cast<unsigned>(__cvta_generic_to_shared(&As[lane % 16][(lane / 16) * 8]));
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                     : "=r"(a0), "=r"(a1), "=r"(a2), "=r"(a3) : "r"(aRow));
        const unsigned bRow = static_cast<unsigned>(__cvta_generic_to_shared(&Bs[lane % 16][0]));
        asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];" : "=r"(b0), "=r"(b1) : "r"(bRow));
        asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%0, %1, %2, %3};"
                     : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3) : "r"(a0), "r"(a1), "r"(b0));
        asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%0, %1, %2, %3};"
                     : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3) : "r"(a2), "r"(a3), "r"(b1));
        __syncwarp(); // the next step overwrites the tiles
    }
    const int row = row0 + lane / 4, col = col0 + 2 * (lane % 4);
    C[row * n + col] = d0;
    C[row * n + col + 1] = d1;
    C[(row + 8) * n + col] = d2;
    C[(row + 8) * n + col + 1] = d3;
}
