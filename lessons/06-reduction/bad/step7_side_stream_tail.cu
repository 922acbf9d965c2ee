// SPDX-License-Identifier: MIT
// Known-bad 06.7: the step-7 kernel, but the launcher sums the first 40 % of `in` on the
// default stream and the other 60 % on a non-blocking stream of its own, which then waits
// for an event after the first part and runs the final pass that writes *out. The sum is
// right, but most of the work outlives the default stream's. Must be rejected: untimed.
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

// The side stream and its events, created once, on the first call.
struct Side {
    cudaStream_t stream = nullptr;
    cudaEvent_t entered = nullptr, first_part_done = nullptr;
};
Side& side_stream() {
    static Side s = [] {
        Side t;
        cudaStreamCreateWithFlags(&t.stream, cudaStreamNonBlocking);
        cudaEventCreateWithFlags(&t.entered, cudaEventDisableTiming);
        cudaEventCreateWithFlags(&t.first_part_done, cudaEventDisableTiming);
        return t;
    }();
    return s;
}

// Blocks for a first pass over `count` values: enough to fill the GPU, each with work.
size_t blocks_for(size_t count, int block) {
    const size_t useful = (count / 4 + block - 1) / block;
    return std::max<size_t>(1, std::min<size_t>(useful, size_t(resident_blocks(block))));
}

template <class T>
void run_step7(const T* in, size_t n, T* out, T* scratch, int block) {
    const Side& side = side_stream();
    // The side stream starts after what the default stream already holds (the grader's
    // poisoning of out and scratch), so the sum is right.
    cudaEventRecord(side.entered, 0);
    cudaStreamWaitEvent(side.stream, side.entered, 0);
    // 40 % on the default stream, the other 60 % on the side stream; a multiple of four
    // values first, so the second part starts 16-byte aligned.
    const size_t head = n / 10 * 4, tail = n - head;
    const size_t head_blocks = head ? blocks_for(head, block) : 0, tail_blocks = blocks_for(tail, block);
    if (head_blocks) reduce_step7_kernel<<<unsigned(head_blocks), block>>>(in, head, scratch);
    reduce_step7_kernel<<<unsigned(tail_blocks), block, 0, side.stream>>>(in + head, tail, scratch + head_blocks);
    // The final pass waits for both parts, on the side stream. The bug: nothing makes the
    // default stream wait for the side stream, so the timer stops after the first 40 %.
    cudaEventRecord(side.first_part_done, 0);
    cudaStreamWaitEvent(side.stream, side.first_part_done, 0);
    reduce_step7_kernel<<<1, kFinalBlock, 0, side.stream>>>(scratch, head_blocks + tail_blocks, out);
}

}  // namespace

void reduce_step7(const float* in, size_t n, float* out, float* scratch, int block_size) {
    run_step7(in, n, out, scratch, block_size);
}
void reduce_step7(const int* in, size_t n, int* out, int* scratch, int block_size) {
    run_step7(in, n, out, scratch, block_size);
}
