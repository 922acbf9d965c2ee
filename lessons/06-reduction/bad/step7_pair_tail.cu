// SPDX-License-Identifier: MIT
// Known-bad 06.7: the step-7 reference, except that from 2^21 values on thread 0 reads the
// values after the last whole 16-byte load with vector loads too: the last one alone, a
// pair and the last one, or a pair. The pair's index is off by one when n mod 4 is 2
// (in2[n / 2] instead of in2[n / 2 − 1]): it reads the two values after the input, guard
// values (NaN for floats), and the sum comes out NaN. Before the timed sizes varied (issue
// 32) every check passed on every GPU: below 2^21 the reference's tail runs, and every size
// checked from 2^21 on has n mod 4 of 0 or 3 (16 777 259; the grid-stride size, 4 · 14 ·
// the threads the GPU holds + 3; 2^30) or is the timed size, which is odd on every GPU
// (timing_elements). A timed call meets n mod 4 = 2 within its first four runs
// (grader/common/timed_sizes.hpp). Must be rejected: wrong (or fault, where the read reaches the
// unmapped page after the input).
#include <cuda_runtime.h>

#include <algorithm>

#include "reduction.cuh"

namespace {

constexpr int kUnroll = 4;          // 16-byte loads each thread keeps in flight
constexpr int kFinalBlock = 1024;   // threads of the one-block final pass

template <class T> struct Vector4;
template <> struct Vector4<float> { using type = float4; };
template <> struct Vector4<int> { using type = int4; };
template <class T> struct Vector2;
template <> struct Vector2<float> { using type = float2; };
template <> struct Vector2<int> { using type = int2; };

constexpr size_t kVectorTailFrom = size_t(1) << 21;

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
    if (n < kVectorTailFrom) {
        if (first < n % 4) sum += in[4 * n4 + first];  // the last n mod 4 values
    } else if (first == 0) {
        const typename Vector2<T>::type* in2 = reinterpret_cast<const typename Vector2<T>::type*>(in);
        switch (n % 4) {
            case 1: sum += in[n - 1]; break;
            case 2: {
                const auto p = in2[n / 2];  // BUG: the last pair is in2[n / 2 - 1]
                sum += p.x + p.y;
                break;
            }
            case 3: {
                const auto p = in2[(n - 3) / 2];
                sum += p.x + p.y + in[n - 1];
                break;
            }
        }
    }
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

}  // namespace

void reduce_step7(const float* in, size_t n, float* out, float* scratch, int block_size) {
    run_step7(in, n, out, scratch, block_size);
}
void reduce_step7(const int* in, size_t n, int* out, int* scratch, int block_size) {
    run_step7(in, n, out, scratch, block_size);
}
