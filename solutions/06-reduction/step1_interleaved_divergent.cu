// SPDX-License-Identifier: MIT
// Exercise 06.1 — reference. Each block loads one value per thread into shared memory and
// adds pairs along a tree: at stride s, threads whose index is a multiple of 2s add the
// value s to their right. Correct, but the active threads are spread over every warp.
#include "kernel_decomposition.cuh"
#include "reduction.cuh"

namespace {

//! [step1]
template <class T>
__global__ void reduce_step1_kernel(const T* in, size_t n, T* out) {
    // Dynamic shared memory has one name per program, so a template takes it as bytes
    // and views it as T (declaring `extern __shared__ T s[]` for two types is an error).
    extern __shared__ __align__(16) unsigned char shared_bytes[];
    T* s = reinterpret_cast<T*>(shared_bytes);
    const unsigned tid = threadIdx.x;
    const size_t i = size_t(blockIdx.x) * blockDim.x + tid;
    s[tid] = i < n ? in[i] : T(0);  // the last block may be partial: pad with zeros
    __syncthreads();
    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        if (tid % (2 * stride) == 0) s[tid] += s[tid + stride];
        __syncthreads();  // the next level reads what this level wrote
    }
    if (tid == 0) out[blockIdx.x] = s[0];
}
//! [step1]

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
