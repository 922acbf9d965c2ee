// SPDX-License-Identifier: MIT
// Contract: lessons/06-reduction/contract/reduction.cuh · test: meson test -C build lesson06 --test-args='-tc=06.5*'
// Exercise 06.5 — step 5: unrolling the last warp (read lessons/06-reduction/theory.md,
// "Step 5: unrolling the last warp" and "Independent thread scheduling and warp-synchronous
// code"). This is step 4's kernel: for the last six levels only warp 0 adds, yet every
// warp of the block runs the loop and waits at __syncthreads() each time.
#include "kernel_decomposition.cuh"
#include "reduction.cuh"

namespace {

template <class T>
__global__ void reduce_step5_kernel(const T* in, size_t n, T* out) {
    extern __shared__ __align__(16) unsigned char shared_bytes[];
    T* s = reinterpret_cast<T*>(shared_bytes);
    const unsigned tid = threadIdx.x;
    const size_t i = size_t(blockIdx.x) * (2 * blockDim.x) + tid;
    T v = i < n ? in[i] : T(0);
    if (i + blockDim.x < n) v += in[i + blockDim.x];
    s[tid] = v;
    __syncthreads();
    // TODO(06.5): stop this loop while stride > 32, then let warp 0 (tid < 32) do the last
    // six levels (strides 32, 16, 8, 4, 2, 1) written out, with no __syncthreads(). The
    // lanes of a warp do not run in step on Volta and later: between a lane writing its
    // partial sum to s[tid] and another lane reading it, call __syncwarp() — and again
    // before a slot is overwritten that another lane still has to read. A 32-thread block
    // has no s[32 …]: guard that first level with blockDim.x >= 64.
    for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (tid < stride) s[tid] += s[tid + stride];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = s[0];
}

template <class T>
void run_step5(const T* in, size_t n, T* out, T* scratch, int block) {
    reduce_in_passes(in, n, out, scratch, 2 * size_t(block), [&](const T* src, size_t count, T* dst, size_t blocks) {
        reduce_step5_kernel<<<unsigned(blocks), block, block * sizeof(T)>>>(src, count, dst);
    });
}

}  // namespace

void reduce_step5(const float* in, size_t n, float* out, float* scratch, int block_size) {
    run_step5(in, n, out, scratch, block_size);
}
void reduce_step5(const int* in, size_t n, int* out, int* scratch, int block_size) {
    run_step5(in, n, out, scratch, block_size);
}
