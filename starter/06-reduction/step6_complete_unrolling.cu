// SPDX-License-Identifier: MIT
// Contract: lessons/06-reduction/contract/reduction.cuh · test: meson test -C build lesson06 --test-args='-tc=06.6*'
// Exercise 06.6 — step 6: complete unrolling (read lessons/06-reduction/theory.md, "Step 6:
// complete unrolling with a block-size template"). This is step 5's kernel: the levels
// above the last warp still run as a loop whose length depends on blockDim.x, a value
// the compiler cannot know.
#include "kernel_decomposition.cuh"
#include "reduction.cuh"

namespace {

template <class T>
__device__ __forceinline__ void publish(T* s, unsigned tid, T v) {
    __syncwarp();
    s[tid] = v;
    __syncwarp();
}

// TODO(06.6): make the block size a template parameter, template <unsigned kBlock, class T>,
// and use kBlock wherever blockDim.x appears (a static __shared__ T s[kBlock] can then
// replace the dynamic array). Write the loop's levels out, one line per stride from 512
// down to 64, each as `if (kBlock >= 2 * stride) { if (tid < stride) …; __syncthreads(); }`;
// the compiler drops the ones a given kBlock does not need. In run_step6, switch on
// `block` (32, 64, …, 1024) to launch the matching instantiation.
template <class T>
__global__ void reduce_step6_kernel(const T* in, size_t n, T* out) {
    extern __shared__ __align__(16) unsigned char shared_bytes[];
    T* s = reinterpret_cast<T*>(shared_bytes);
    const unsigned tid = threadIdx.x;
    const size_t i = size_t(blockIdx.x) * (2 * blockDim.x) + tid;
    T v = i < n ? in[i] : T(0);
    if (i + blockDim.x < n) v += in[i + blockDim.x];
    s[tid] = v;
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 32; stride /= 2) {
        if (tid < stride) s[tid] += s[tid + stride];
        __syncthreads();
    }
    if (tid < 32) {
        v = s[tid];
        if (blockDim.x >= 64) v += s[tid + 32];
        publish(s, tid, v);
        if (tid < 16) v += s[tid + 16];
        publish(s, tid, v);
        if (tid < 8) v += s[tid + 8];
        publish(s, tid, v);
        if (tid < 4) v += s[tid + 4];
        publish(s, tid, v);
        if (tid < 2) v += s[tid + 2];
        publish(s, tid, v);
        if (tid < 1) v += s[tid + 1];
        if (tid == 0) out[blockIdx.x] = v;
    }
}

template <class T>
void run_step6(const T* in, size_t n, T* out, T* scratch, int block) {
    reduce_in_passes(in, n, out, scratch, 2 * size_t(block), [&](const T* src, size_t count, T* dst, size_t blocks) {
        reduce_step6_kernel<<<unsigned(blocks), block, block * sizeof(T)>>>(src, count, dst);
    });
}

}  // namespace

void reduce_step6(const float* in, size_t n, float* out, float* scratch, int block_size) {
    run_step6(in, n, out, scratch, block_size);
}
void reduce_step6(const int* in, size_t n, int* out, int* scratch, int block_size) {
    run_step6(in, n, out, scratch, block_size);
}
