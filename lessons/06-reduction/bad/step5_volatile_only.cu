// SPDX-License-Identifier: MIT
// Known-bad 06.5, caught by racecheck only: the last warp as older notes write it, with a
// volatile pointer and no __syncwarp(). volatile makes every line reload s[] and store
// its sum, so on today's GPUs, where a converged warp usually executes each line in step,
// the result is almost always right. But since Volta nothing guarantees that the lanes
// run in step: lane 0 may read s[16] before lane 16 has stored it. The results cannot
// catch a race that rarely fires; `meson test --setup racecheck` reports the hazards
// (the exercise then fails: fault). Not listed in meson.build, which runs every variant
// without a sanitizer.
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
    for (unsigned stride = blockDim.x / 2; stride > 32; stride /= 2) {
        if (tid < stride) s[tid] += s[tid + stride];
        __syncthreads();
    }
    if (tid < 32) {
        volatile T* w = s;
        if (blockDim.x >= 64) w[tid] += w[tid + 32];
        if (tid < 16) w[tid] += w[tid + 16];
        if (tid < 8) w[tid] += w[tid + 8];
        if (tid < 4) w[tid] += w[tid + 4];
        if (tid < 2) w[tid] += w[tid + 2];
        if (tid < 1) w[tid] += w[tid + 1];
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
