// SPDX-License-Identifier: MIT
// Known-good 06.6: the reference's tree, written out for the template's block size, with
// cooperative groups: the thread's index is block.thread_rank(), which the compiler
// computes from threadIdx and blockDim (x + y · blockDim.x + …), and each barrier is
// block.sync(). A value computed from the block size and the thread's index is no test of
// the block size alone: the data-path trait no-block-size-test must accept it.
#include <cooperative_groups.h>

#include "kernel_decomposition.cuh"
#include "reduction.cuh"

namespace cg = cooperative_groups;

namespace {

template <class T>
__device__ __forceinline__ void publish(T* s, unsigned tid, T v) {
    __syncwarp();
    s[tid] = v;
    __syncwarp();
}

template <unsigned kBlock, class T>
__global__ void __launch_bounds__(kBlock) reduce_step6_cg_kernel(const T* in, size_t n, T* out) {
    __shared__ T s[kBlock];
    const cg::thread_block block = cg::this_thread_block();
    const unsigned tid = block.thread_rank();
    const size_t i = size_t(blockIdx.x) * (2 * kBlock) + tid;
    T v = i < n ? in[i] : T(0);
    if (i + kBlock < n) v += in[i + kBlock];
    s[tid] = v;
    block.sync();
    if (kBlock >= 1024) { if (tid < 512) s[tid] += s[tid + 512]; block.sync(); }
    if (kBlock >= 512) { if (tid < 256) s[tid] += s[tid + 256]; block.sync(); }
    if (kBlock >= 256) { if (tid < 128) s[tid] += s[tid + 128]; block.sync(); }
    if (kBlock >= 128) { if (tid < 64) s[tid] += s[tid + 64]; block.sync(); }
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
void run_step6(const T* in, size_t n, T* out, T* scratch, int block) {
    reduce_in_passes(in, n, out, scratch, 2 * size_t(block), [&](const T* src, size_t count, T* dst, size_t blocks) {
        const unsigned b = unsigned(blocks);
        switch (block) {
            case 1024: reduce_step6_cg_kernel<1024><<<b, 1024>>>(src, count, dst); break;
            case 512: reduce_step6_cg_kernel<512><<<b, 512>>>(src, count, dst); break;
            case 256: reduce_step6_cg_kernel<256><<<b, 256>>>(src, count, dst); break;
            case 128: reduce_step6_cg_kernel<128><<<b, 128>>>(src, count, dst); break;
            case 64: reduce_step6_cg_kernel<64><<<b, 64>>>(src, count, dst); break;
            default: reduce_step6_cg_kernel<32><<<b, 32>>>(src, count, dst); break;
        }
    });
}

}  // namespace

void reduce_step6(const float* in, size_t n, float* out, float* scratch, int block_size) {
    run_step6(in, n, out, scratch, block_size);
}
void reduce_step6(const int* in, size_t n, int* out, int* scratch, int block_size) {
    run_step6(in, n, out, scratch, block_size);
}
