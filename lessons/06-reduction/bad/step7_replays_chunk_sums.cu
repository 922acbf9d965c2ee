// SPDX-License-Identifier: MIT
// Known-bad 06.7: the step-7 reference, but on more than 2^25 floats (the grader's timed
// size) it sums chunks of 2^20 values one block each and keeps every chunk's sum in device
// memory, keyed by the chunk and a cheap digest of the chunk: the sign of its first value.
// A later call whose chunk has the same digest gets the kept sum instead of its own. The
// first large call is right; from the second on about half the chunks are stale (each timed
// call's values are new). It once kept the sums by n too, which the timed calls no longer
// share: each has an n of its own (issue 32). Must be rejected: wrong (every timed call is
// checked in full).
#include <cuda_runtime.h>

#include <algorithm>

#include "reduction.cuh"

namespace {

constexpr int kUnroll = 4;          // 16-byte loads each thread keeps in flight
constexpr int kFinalBlock = 1024;   // threads of the one-block final pass

template <class T> struct Vector4;
template <> struct Vector4<float> { using type = float4; };
template <> struct Vector4<int> { using type = int4; };

// After the five steps, lane 0 holds the sum of the 32 lanes' values. Each
// __shfl_down_sync reads a register of lane + offset and waits for every lane named in the
// mask, so no shared memory and no separate barrier are involved.
template <class T>
__device__ __forceinline__ T warp_sum(T v) {
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}

// The sum of v over the block, valid in thread 0. blockDim.x is a multiple of 32.
template <class T>
__device__ T block_sum(T v) {
    __shared__ T warp_sums[32];
    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    v = warp_sum(v);
    if (lane == 0) warp_sums[warp] = v;
    __syncthreads();
    if (warp == 0) v = warp_sum(lane < blockDim.x / 32 ? warp_sums[lane] : T(0));
    return v;
}

template <class T>
__global__ void reduce_step7_kernel(const T* __restrict__ in, size_t n, T* __restrict__ out) {
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
    sum = block_sum(sum);
    if (threadIdx.x == 0) out[blockIdx.x] = sum;
}

// Blocks that fit on the GPU at once for this block size; asked once per block size (the
// answer does not change, and the timed call should not pay for the question).
int resident_blocks(int block) {
    static int cache[11] = {};
    int log2 = 0;
    while ((1 << log2) < block && log2 < 10) ++log2;
    if (cache[log2] == 0) {
        int device = 0, sms = 0, per_sm = 0;
        cudaGetDevice(&device);
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, reduce_step7_kernel<float>, block, 0);
        cache[log2] = sms * (per_sm > 0 ? per_sm : 1);
    }
    return cache[log2];
}

template <class T>
void run_step7(const T* in, size_t n, T* out, T* scratch, int block) {
    // Enough blocks to fill the GPU, but none without at least one 16-byte load per thread.
    const size_t useful = (n / 4 + block - 1) / block;
    const size_t blocks = std::max<size_t>(1, std::min<size_t>(useful, size_t(resident_blocks(block))));
    if (blocks == 1) {
        reduce_step7_kernel<<<1, block>>>(in, n, out);
        return;
    }
    reduce_step7_kernel<<<unsigned(blocks), block>>>(in, n, scratch);
    reduce_step7_kernel<<<1, kFinalBlock>>>(scratch, blocks, out);  // scratch is aligned too
}

constexpr size_t kChunk = size_t(1) << 20;  // values per chunk
constexpr int kMaxChunks = 1024;            // 2^30 values, the contract's largest n
constexpr int kChunkBlock = 1024;

// The kept sums, by digest and chunk, and the n each was made at (0: none).
__device__ float g_kept[2][kMaxChunks];
__device__ unsigned long long g_kept_n[2][kMaxChunks];

__global__ void chunk_sums(const float* __restrict__ in, size_t n, float* __restrict__ partial) {
    const size_t chunk = blockIdx.x, begin = chunk * kChunk, end = begin + kChunk < n ? begin + kChunk : n;
    const int digest = in[begin] < 0.f;  // the bug: one bit stands for a million values
    if (g_kept_n[digest][chunk] != 0) {   // kept at any n; the same for every thread of the block
        if (threadIdx.x == 0) partial[chunk] = g_kept[digest][chunk];
        return;
    }
    float sum = 0.f;
    for (size_t i = begin + threadIdx.x; i < end; i += blockDim.x) sum += in[i];
    sum = block_sum(sum);
    if (threadIdx.x == 0) partial[chunk] = g_kept[digest][chunk] = sum, g_kept_n[digest][chunk] = n;
}

}  // namespace

void reduce_step7(const float* in, size_t n, float* out, float* scratch, int block_size) {
    if (n > (size_t(1) << 25)) {
        const size_t chunks = (n + kChunk - 1) / kChunk;  // at most kMaxChunks, within scratch
        chunk_sums<<<unsigned(chunks), kChunkBlock>>>(in, n, scratch);
        reduce_step7_kernel<<<1, kFinalBlock>>>(scratch, chunks, out);
        return;
    }
    run_step7(in, n, out, scratch, block_size);
}
void reduce_step7(const int* in, size_t n, int* out, int* scratch, int block_size) {
    run_step7(in, n, out, scratch, block_size);
}
