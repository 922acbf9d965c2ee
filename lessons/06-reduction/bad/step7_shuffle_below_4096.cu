// SPDX-License-Identifier: MIT
// Known-bad 06.7: the technique only at small n. The launcher picks its kernel on the host:
// below n = 4096 the reference's kernel, whose block sum goes through warp shuffles; from
// 4096 on the same grid-stride loop followed by a shared-memory tree, one barrier a level,
// with no value passed between lanes in registers (the known-bad shared-tree's). Both are
// correct, and on some GPUs equally fast. The compiled file holds a kernel with the warp
// exchange, so a check that reads every compiled kernel passes it; but the timed n is
// millions of values, and no timed call runs the shuffle kernel. Must be rejected
// [technique] from the kernels the timed calls ran (or slow, where speed separates them).
#include <cuda_runtime.h>

#include <algorithm>

#include "reduction.cuh"

namespace {

constexpr int kUnroll = 4;          // 16-byte loads each thread keeps in flight
constexpr int kFinalBlock = 1024;   // threads of the one-block final pass
constexpr size_t kSmall = 4096;     // below it, the shuffles; every timed n is far larger

template <class T> struct Vector4;
template <> struct Vector4<float> { using type = float4; };
template <> struct Vector4<int> { using type = int4; };

template <class T>
__device__ __forceinline__ T warp_sum(T v) {
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}

// The block's sum in thread 0: through shuffles, or through a shared-memory tree.
template <class T, bool kShuffles>
__device__ T block_sum(T v) {
    if (kShuffles) {
        __shared__ T warp_sums[32];
        const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
        v = warp_sum(v);
        if (lane == 0) warp_sums[warp] = v;
        __syncthreads();
        if (warp == 0) v = warp_sum(lane < blockDim.x / 32 ? warp_sums[lane] : T(0));
        return v;
    }
    __shared__ T s[1024];
    s[threadIdx.x] = v;
    __syncthreads();
    unsigned half = 1;
    while (2 * half < blockDim.x) half *= 2;
    for (unsigned stride = half; stride > 0; stride /= 2) {
        if (threadIdx.x < stride && threadIdx.x + stride < blockDim.x) s[threadIdx.x] += s[threadIdx.x + stride];
        __syncthreads();
    }
    return s[0];
}

template <class T, bool kShuffles>
__global__ void reduce_kernel(const T* __restrict__ in, size_t n, T* __restrict__ out) {
    using V = typename Vector4<T>::type;
    const V* in4 = reinterpret_cast<const V*>(in);  // cudaMalloc'd: 16-byte aligned
    const size_t n4 = n / 4, stride = size_t(gridDim.x) * blockDim.x;
    const size_t first = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    T acc[kUnroll] = {};
    size_t i = first;
    for (; i + (kUnroll - 1) * stride < n4; i += kUnroll * stride) {
        V x[kUnroll];
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) x[u] = in4[i + u * stride];  // all loads first
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) acc[u] += (x[u].x + x[u].y) + (x[u].z + x[u].w);
    }
    for (; i < n4; i += stride) {
        const V x = in4[i];
        acc[0] += (x.x + x.y) + (x.z + x.w);
    }
    T sum = (acc[0] + acc[1]) + (acc[2] + acc[3]);
    if (first < n % 4) sum += in[4 * n4 + first];  // the last n mod 4 values
    sum = block_sum<T, kShuffles>(sum);
    if (threadIdx.x == 0) out[blockIdx.x] = sum;
}

// Blocks that fit on the GPU at once for this block size, asked once per block size.
int resident_blocks(int block) {
    static int cache[11] = {};
    int log2 = 0;
    while ((1 << log2) < block && log2 < 10) ++log2;
    if (cache[log2] == 0) {
        int device = 0, sms = 0, per_sm = 0;
        cudaGetDevice(&device);
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, reduce_kernel<float, false>, block, 0);
        cache[log2] = sms * (per_sm > 0 ? per_sm : 1);
    }
    return cache[log2];
}

template <class T, bool kShuffles>
void run(const T* in, size_t n, T* out, T* scratch, int block) {
    const size_t useful = (n / 4 + block - 1) / block;
    const size_t blocks = std::max<size_t>(1, std::min<size_t>(useful, size_t(resident_blocks(block))));
    if (blocks == 1) {
        reduce_kernel<T, kShuffles><<<1, block>>>(in, n, out);
        return;
    }
    reduce_kernel<T, kShuffles><<<unsigned(blocks), block>>>(in, n, scratch);
    reduce_kernel<T, kShuffles><<<1, kFinalBlock>>>(scratch, blocks, out);  // scratch is aligned too
}

template <class T>
void run_step7(const T* in, size_t n, T* out, T* scratch, int block) {
    if (n < kSmall) run<T, true>(in, n, out, scratch, block);
    else run<T, false>(in, n, out, scratch, block);
}

}  // namespace

void reduce_step7(const float* in, size_t n, float* out, float* scratch, int block_size) {
    run_step7(in, n, out, scratch, block_size);
}
void reduce_step7(const int* in, size_t n, int* out, int* scratch, int block_size) {
    run_step7(in, n, out, scratch, block_size);
}
