// SPDX-License-Identifier: MIT
// Exercise 06.2 — reference. The same tree as step 1, but thread tid works on the pair at
// index 2·s·tid: the threads that add are the first ones of the block, so whole warps
// either work or skip the level. The stride between their addresses now causes
// shared-memory bank conflicts.
#include "kernel_decomposition.cuh"
#include "reduction.cuh"

namespace {

template <class T>
__global__ void reduce_step2_kernel(const T* in, size_t n, T* out) {
    extern __shared__ __align__(16) unsigned char shared_bytes[];
    T* s = reinterpret_cast<T*>(shared_bytes);
    const unsigned tid = threadIdx.x;
    const size_t i = size_t(blockIdx.x) * blockDim.x + tid;
    s[tid] = i < n ? in[i] : T(0);
    __syncthreads();
    //! [step2]
    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        const unsigned index = 2 * stride * tid;
        if (index < blockDim.x) s[index] += s[index + stride];
        __syncthreads();
    }
    //! [step2]
    if (tid == 0) out[blockIdx.x] = s[0];
}

template <class T>
void run_step2(const T* in, size_t n, T* out, T* scratch, int block) {
    reduce_in_passes(in, n, out, scratch, size_t(block), [&](const T* src, size_t count, T* dst, size_t blocks) {
        reduce_step2_kernel<<<unsigned(blocks), block, block * sizeof(T)>>>(src, count, dst);
    });
}

}  // namespace

void reduce_step2(const float* in, size_t n, float* out, float* scratch, int block_size) {
    run_step2(in, n, out, scratch, block_size);
}
void reduce_step2(const int* in, size_t n, int* out, int* scratch, int block_size) {
    run_step2(in, n, out, scratch, block_size);
}
