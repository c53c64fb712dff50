// Independent thread scheduling (Volta and later): code whose outcome depends on how the lanes of a
// warp take turns. Run each under both warp models (warpscope sim --warp-model stack|its).

// A spin lock inside a warp. Every thread takes the lock in turn and adds i + 1 to the total while it
// holds it, so the total is n (n + 1) / 2. One lane of a warp wins the compare-and-swap; the others
// loop. Under the pre-Volta reconvergence stack the warp runs the looping lanes until they leave the
// loop, and the winner waits where they would rejoin it, so it never releases the lock: a livelock.
// With independent thread scheduling the winner gets its turn, releases the lock, and the loop ends.
extern "C" __global__ void warp_spin_lock(int* lock, int* total, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    while (atomicCAS(lock, 0, 1) != 0) {
        // spin until the lock is ours
    }
    volatile int* sum = total;
    *sum = *sum + i + 1; // the critical section: one thread at a time
    __threadfence();     // the sum is written before the lock is seen free
    atomicExch(lock, 0);
}

// The last warp of a reduction the pre-Volta way: without __syncwarp, relying on the 32 lanes to run
// in lockstep. `volatile` makes every access a real shared-memory load or store, but nothing orders
// one lane's store before another lane's load: since Volta the lanes may run apart, and this is a race
// (reduce_unroll_last_warp in the reduction topic is the safe version). Same launch and result.
extern "C" __global__ void reduce_warp_synchronous(const float* in, float* out, int n)
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
        v[tid] += v[tid + 32];
        v[tid] += v[tid + 16];
        v[tid] += v[tid + 8];
        v[tid] += v[tid + 4];
        v[tid] += v[tid + 2];
        v[tid] += v[tid + 1];
    }
    if (tid == 0)
        out[blockIdx.x] = sdata[0];
}
