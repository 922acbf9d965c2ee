// SPDX-License-Identifier: MIT
// Known-bad 06.5: the last warp unrolled with no warp synchronization at all — neither
// __syncwarp() nor volatile. Nothing tells the compiler that other lanes write s[], so it
// keeps s[tid] in a register and stores it once, at the end: thread 0 reads s[16], s[8],
// s[4], s[2], s[1] before their owners stored their sums, and ends with 6 of the warp's
// 32 partial sums. Must be rejected: wrong, whatever the timing (a 32-thread block also
// reads s[32 …], past its shared array: fault).
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
    if (tid < 32) {  // the classic form: all 32 lanes add at every level
        if (blockDim.x >= 64) s[tid] += s[tid + 32];
        s[tid] += s[tid + 16];
        s[tid] += s[tid + 8];
        s[tid] += s[tid + 4];
        s[tid] += s[tid + 2];
        s[tid] += s[tid + 1];
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
