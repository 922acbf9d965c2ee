// SPDX-License-Identifier: MIT
// Known-bad 06.6: the template without the unrolling. The block size is a template
// parameter, as step 6 asks, but the levels above the last warp still run as a loop, kept
// one by `#pragma unroll 1`: its counter, its exit test and its branch stay, with a
// __syncthreads() inside. Correct; step 6 gains too little over step 5 for speed to reject
// it (theory.md, "Step 6"). Its machine code has a block-wide barrier inside a loop:
// rejected [technique].
#include "kernel_decomposition.cuh"
#include "reduction.cuh"

namespace {

template <class T>
__device__ __forceinline__ void publish(T* s, unsigned tid, T v) {
    __syncwarp();
    s[tid] = v;
    __syncwarp();
}

template <unsigned kBlock, class T>
__global__ void __launch_bounds__(kBlock) reduce_step6_loop_kernel(const T* in, size_t n, T* out) {
    __shared__ T s[kBlock];
    const unsigned tid = threadIdx.x;
    const size_t i = size_t(blockIdx.x) * (2 * kBlock) + tid;
    T v = i < n ? in[i] : T(0);
    if (i + kBlock < n) v += in[i + kBlock];
    s[tid] = v;
    __syncthreads();
#pragma unroll 1
    for (unsigned stride = kBlock / 2; stride > 32; stride /= 2) {  // the defect: still a loop
        if (tid < stride) s[tid] += s[tid + stride];
        __syncthreads();
    }
    if (tid < 32) {
        v = s[tid];
        if (kBlock >= 64) v += s[tid + 32];
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
void launch(const T* src, size_t count, T* dst, unsigned blocks, int block) {
    switch (block) {
        case 1024: reduce_step6_loop_kernel<1024><<<blocks, 1024>>>(src, count, dst); break;
        case 512: reduce_step6_loop_kernel<512><<<blocks, 512>>>(src, count, dst); break;
        case 256: reduce_step6_loop_kernel<256><<<blocks, 256>>>(src, count, dst); break;
        case 128: reduce_step6_loop_kernel<128><<<blocks, 128>>>(src, count, dst); break;
        case 64: reduce_step6_loop_kernel<64><<<blocks, 64>>>(src, count, dst); break;
        default: reduce_step6_loop_kernel<32><<<blocks, 32>>>(src, count, dst); break;
    }
}

template <class T>
void run_step6(const T* in, size_t n, T* out, T* scratch, int block) {
    reduce_in_passes(in, n, out, scratch, 2 * size_t(block), [&](const T* src, size_t count, T* dst, size_t blocks) {
        launch(src, count, dst, unsigned(blocks), block);
    });
}

}  // namespace

void reduce_step6(const float* in, size_t n, float* out, float* scratch, int block_size) {
    run_step6(in, n, out, scratch, block_size);
}
void reduce_step6(const int* in, size_t n, int* out, int* scratch, int block_size) {
    run_step6(in, n, out, scratch, block_size);
}
