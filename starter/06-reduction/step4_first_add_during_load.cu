// SPDX-License-Identifier: MIT
// Contract: lessons/06-reduction/contract/reduction.cuh · test: meson test -C build lesson06 --test-args='-tc=06.4*'
// Exercise 06.4 — step 4: first add during the load (read lessons/06-reduction/theory.md,
// "Step 4: first add during the load"). This is step 3's kernel: no divergence, no bank
// conflicts, but at the first level half of the threads only loaded a value and now
// watch the other half add.
#include "kernel_decomposition.cuh"
#include "reduction.cuh"

namespace {

template <class T>
__global__ void reduce_step4_kernel(const T* in, size_t n, T* out) {
    extern __shared__ __align__(16) unsigned char shared_bytes[];
    T* s = reinterpret_cast<T*>(shared_bytes);
    const unsigned tid = threadIdx.x;
    // TODO(06.4): let a block cover 2 * blockDim.x values: thread tid loads the value at
    // i = blockIdx.x * 2 * blockDim.x + tid and the one blockDim.x further, each only when
    // it lies below n, and stores their sum in s[tid]. In run_step4, each block then
    // covers twice as many values (the per_block argument of reduce_in_passes).
    const size_t i = size_t(blockIdx.x) * blockDim.x + tid;
    s[tid] = i < n ? in[i] : T(0);
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (tid < stride) s[tid] += s[tid + stride];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = s[0];
}

template <class T>
void run_step4(const T* in, size_t n, T* out, T* scratch, int block) {
    reduce_in_passes(in, n, out, scratch, size_t(block), [&](const T* src, size_t count, T* dst, size_t blocks) {
        reduce_step4_kernel<<<unsigned(blocks), block, block * sizeof(T)>>>(src, count, dst);
    });
}

}  // namespace

void reduce_step4(const float* in, size_t n, float* out, float* scratch, int block_size) {
    run_step4(in, n, out, scratch, block_size);
}
void reduce_step4(const int* in, size_t n, int* out, int* scratch, int block_size) {
    run_step4(in, n, out, scratch, block_size);
}
