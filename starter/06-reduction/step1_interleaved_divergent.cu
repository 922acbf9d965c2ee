// SPDX-License-Identifier: MIT
// Contract: lessons/06-reduction/contract/reduction.cuh · test: meson test -C build lesson06 --test-args='-tc=06.1*'
// Exercise 06.1 — step 1: interleaved addressing (read lessons/06-reduction/theory.md,
// "Step 1: interleaved addressing and divergence"). The starting point is the simplest
// correct sum: every thread adds its value into the result with one atomicAdd. All those
// additions queue at one address, one after another.
#include "kernel_decomposition.cuh"
#include "reduction.cuh"

namespace {

template <class T>
__global__ void reduce_step1_kernel(const T* in, size_t n, T* out) {
    const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(out, in[i]);
}

template <class T>
void run_step1(const T* in, size_t n, T* out, T* scratch, int block) {
    // TODO(06.1): sum each block in shared memory instead, along a tree, and write one
    // partial sum per block:
    //   - declare the block's shared array (block * sizeof(T) bytes, the launch's third
    //     argument) and let each thread load in[i] into s[tid], or 0 when i >= n;
    //   - for stride = 1, 2, 4, … below blockDim.x: threads with tid % (2 * stride) == 0
    //     add s[tid + stride] to s[tid]; every thread then waits at __syncthreads();
    //   - thread 0 writes s[0] to out[blockIdx.x].
    // Then let reduce_in_passes (kernel_decomposition.cuh) launch it on the partial sums
    // until one value is left; it also uses `scratch`:
    //   reduce_in_passes(in, n, out, scratch, size_t(block),
    //                    [&](const T* src, size_t count, T* dst, size_t blocks) { launch here });
    (void)scratch;
    cudaMemsetAsync(out, 0, sizeof(T));  // atomics add to what is there: start from 0
    reduce_step1_kernel<<<unsigned((n + block - 1) / block), block>>>(in, n, out);
}

}  // namespace

void reduce_step1(const float* in, size_t n, float* out, float* scratch, int block_size) {
    run_step1(in, n, out, scratch, block_size);
}
void reduce_step1(const int* in, size_t n, int* out, int* scratch, int block_size) {
    run_step1(in, n, out, scratch, block_size);
}
