// SPDX-License-Identifier: MIT
// Exercise 06.5 — reference. Once 32 or fewer threads add, only warp 0 works, yet every
// warp of the block still runs the loop and waits at each __syncthreads(). Here the loop
// stops at stride 64 and warp 0 finishes the last six levels alone, written out. The
// lanes of a warp are not guaranteed to run in step (Volta and later schedule each thread
// independently), so __syncwarp() orders every write before the reads that depend on it.
#include "kernel_decomposition.cuh"
#include "reduction.cuh"

namespace {

//! [publish]
// Makes v, this lane's partial sum, visible to the other lanes of the warp: first wait
// until every lane has read the slot it needed from the previous level, then write, then
// wait until every lane has written before anyone reads again.
template <class T>
__device__ __forceinline__ void publish(T* s, unsigned tid, T v) {
    __syncwarp();
    s[tid] = v;
    __syncwarp();
}
//! [publish]

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
    //! [step5]
    for (unsigned stride = blockDim.x / 2; stride > 32; stride /= 2) {
        if (tid < stride) s[tid] += s[tid + stride];
        __syncthreads();
    }
    if (tid < 32) {  // warp 0 only: the six last levels, no block-wide barrier
        v = s[tid];
        if (blockDim.x >= 64) v += s[tid + 32];  // a 32-thread block has no s[32 …]
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
    //! [step5]
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
