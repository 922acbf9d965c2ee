// SPDX-License-Identifier: MIT
// Known-bad 06.1: step 1 with the notes' load, which has no bound check: the last block
// reads up to blockDim.x - 1 values past the end of its input. Within the guard bytes
// (n = 1 at block size 32 or 64) they are 0x7F7F7F7F as ints, NaN as floats; further on
// they are the unmapped page (n = 1 at 128 and up). Must be rejected: wrong or fault.
#include "kernel_decomposition.cuh"
#include "reduction.cuh"

namespace {

template <class T>
__global__ void reduce_step1_kernel(const T* in, size_t n, T* out) {
    extern __shared__ __align__(16) unsigned char shared_bytes[];
    T* s = reinterpret_cast<T*>(shared_bytes);
    const unsigned tid = threadIdx.x;
    const size_t i = size_t(blockIdx.x) * blockDim.x + tid;
    s[tid] = in[i];  // no `i < n`
    __syncthreads();
    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        if (tid % (2 * stride) == 0) s[tid] += s[tid + stride];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = s[0];
}

template <class T>
void run_step1(const T* in, size_t n, T* out, T* scratch, int block) {
    reduce_in_passes(in, n, out, scratch, size_t(block), [&](const T* src, size_t count, T* dst, size_t blocks) {
        reduce_step1_kernel<<<unsigned(blocks), block, block * sizeof(T)>>>(src, count, dst);
    });
}

}  // namespace

void reduce_step1(const float* in, size_t n, float* out, float* scratch, int block_size) {
    run_step1(in, n, out, scratch, block_size);
}
void reduce_step1(const int* in, size_t n, int* out, int* scratch, int block_size) {
    run_step1(in, n, out, scratch, block_size);
}
