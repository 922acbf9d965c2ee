// SPDX-License-Identifier: MIT
// Exercise 06.3 — reference. The stride starts at half the block and halves: thread tid
// adds s[tid + stride] to s[tid]. Consecutive threads touch consecutive words (no bank
// conflicts) and the active threads stay packed into the first warps. Half of the
// threads still do nothing after the load.
#include "kernel_decomposition.cuh"
#include "reduction.cuh"

namespace {

template <class T>
__global__ void reduce_step3_kernel(const T* in, size_t n, T* out) {
    extern __shared__ __align__(16) unsigned char shared_bytes[];
    T* s = reinterpret_cast<T*>(shared_bytes);
    const unsigned tid = threadIdx.x;
    const size_t i = size_t(blockIdx.x) * blockDim.x + tid;
    s[tid] = i < n ? in[i] : T(0);
    __syncthreads();
    //! [step3]
    for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (tid < stride) s[tid] += s[tid + stride];
        __syncthreads();
    }
    //! [step3]
    if (tid == 0) out[blockIdx.x] = s[0];
}

template <class T>
void run_step3(const T* in, size_t n, T* out, T* scratch, int block) {
    reduce_in_passes(in, n, out, scratch, size_t(block), [&](const T* src, size_t count, T* dst, size_t blocks) {
        reduce_step3_kernel<<<unsigned(blocks), block, block * sizeof(T)>>>(src, count, dst);
    });
}

}  // namespace

void reduce_step3(const float* in, size_t n, float* out, float* scratch, int block_size) {
    run_step3(in, n, out, scratch, block_size);
}
void reduce_step3(const int* in, size_t n, int* out, int* scratch, int block_size) {
    run_step3(in, n, out, scratch, block_size);
}
