// Branch divergence: a warp issues one instruction for all of its 32 lanes, so when lanes disagree
// about a branch the warp runs both sides one after the other, with the lanes of the other side
// masked off. All arithmetic is on unsigned integers, where wrap-around is well defined.

// Odd and even lanes take different paths: every warp executes both bodies, each with half of its
// lanes active, so the warp does the work of both branches for every element.
extern "C" __global__ void divergence_odd_even(const unsigned int* in, unsigned int* out, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned int v = in[i];
    if ((threadIdx.x & 1u) != 0) {
        // Odd lanes: a multiply-xorshift mix.
        v *= 0x9e3779b1u;
        v ^= v >> 15;
        v *= 0x85ebca77u;
        v ^= v >> 13;
        v *= 0xc2b2ae3du;
        v ^= v >> 16;
    } else {
        // Even lanes: an add-shift-xor mix.
        v += 0x7f4a7c15u;
        v ^= v << 7;
        v += 0x165667b1u;
        v ^= v >> 11;
        v += 0x27d4eb2fu;
        v ^= v << 5;
    }
    out[i] = v;
}

// Each element asks for count[i] rounds of a linear congruential step. A warp keeps looping until
// its longest-running lane is done; lanes that finished early sit idle, so the warp's cost is set
// by the maximum count in the warp, not the average.
extern "C" __global__ void divergence_data_loop(const int* count, unsigned int* out, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned int v = static_cast<unsigned int>(i);
    const int rounds = count[i];
    // Kept as a plain loop (one multiply-add per round) so the per-round cost is easy to read.
#pragma unroll 1
    for (int r = 0; r < rounds; ++r)
        v = v * 1664525u + 1013904223u;
    out[i] = v;
}
