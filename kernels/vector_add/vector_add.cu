// Vector addition: the smallest complete CUDA kernel. One thread per element, a grid rounded up to
// whole blocks, and a bounds check so the threads past the end of the vectors do nothing.

extern "C" __global__ void vector_add(const float* a, const float* b, float* c, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}
