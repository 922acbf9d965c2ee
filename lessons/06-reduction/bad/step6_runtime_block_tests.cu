// SPDX-License-Identifier: MIT
// Known-bad 06.6: the levels written out, but each guarded by a run-time test of the block
// size. It stands for an outside submission of issue #32: one kernel, not a template, for
// every block size; the tree's levels are written out as in the reference, so no barrier is
// left inside a loop (no-barrier-in-loop holds), but each level asks blockDim.x whether it
// applies, at run time, where the template's kBlock would have decided at compile time, and
// the shared array is sized at launch. Correct, and no faster than step 5; rejected
// [technique] (no-block-size-test: "tests the block size at run time").
#include "kernel_decomposition.cuh"
#include "reduction.cuh"

namespace {

template <class T>
__device__ __forceinline__ void publish(T* s, unsigned tid, T v) {
    __syncwarp();
    s[tid] = v;
    __syncwarp();
}

template <class T>
__global__ void reduce_step6_runtime_kernel(const T* in, size_t n, T* out) {
    extern __shared__ __align__(16) unsigned char shared_bytes[];
    T* s = reinterpret_cast<T*>(shared_bytes);
    const unsigned tid = threadIdx.x, block = blockDim.x;
    const size_t i = size_t(blockIdx.x) * (2 * block) + tid;
    T v = i < n ? in[i] : T(0);
    if (i + block < n) v += in[i + block];
    s[tid] = v;
    __syncthreads();
    if (block >= 1024) { if (tid < 512) s[tid] += s[tid + 512]; __syncthreads(); }
    if (block >= 512) { if (tid < 256) s[tid] += s[tid + 256]; __syncthreads(); }
    if (block >= 256) { if (tid < 128) s[tid] += s[tid + 128]; __syncthreads(); }
    if (block >= 128) { if (tid < 64) s[tid] += s[tid + 64]; __syncthreads(); }
    if (tid < 32) {
        v = s[tid];
        if (block >= 64) v += s[tid + 32];
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
        reduce_step6_runtime_kernel<<<unsigned(blocks), block, block * sizeof(T)>>>(src, count, dst);
    });
}

}  // namespace

void reduce_step6(const float* in, size_t n, float* out, float* scratch, int block_size) {
    run_step6(in, n, out, scratch, block_size);
}
void reduce_step6(const int* in, size_t n, int* out, int* scratch, int block_size) {
    run_step6(in, n, out, scratch, block_size);
}
