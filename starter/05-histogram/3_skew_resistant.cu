// SPDX-License-Identifier: MIT
// Contract: lessons/05-histogram/contract/histogram.cuh · test: meson test -C build lesson05 --test-args='-tc=05.3*'
// Exercise 05.3 — skewed inputs (read lessons/05-histogram/theory.md, "Skewed inputs").
// This is 05.2's kernel: one copy of the bins per block. When 90 % of the bytes hold one
// value, most lanes of every warp add to the same shared-memory word in one instruction;
// a GPU that applies those updates one after another slows down. The H200 did not (this
// kernel passes 05.3 there, with a note): your 05.0 table shows what yours does. A copy of
// the bins per lane was faster on uniform bytes too, on the H200 by 1.6 times (05.0 table).
#include <cuda_runtime.h>

#include <algorithm>

#include "histogram.cuh"

namespace {

constexpr int kBlock = 512;

__device__ __forceinline__ void count_word(unsigned int* s, unsigned int w) {
    atomicAdd(&s[w & 0xFFu], 1u);
    atomicAdd(&s[(w >> 8) & 0xFFu], 1u);
    atomicAdd(&s[(w >> 16) & 0xFFu], 1u);
    atomicAdd(&s[w >> 24], 1u);
}

__device__ __forceinline__ void count16(unsigned int* s, uint4 x) {
    count_word(s, x.x);
    count_word(s, x.y);
    count_word(s, x.z);
    count_word(s, x.w);
}

__global__ void __launch_bounds__(kBlock)
    histogram_skew_resistant_kernel(const unsigned char* __restrict__ in, size_t n, unsigned int* __restrict__ bins) {
    // TODO(05.3): spread the updates of one value over several words. One way: 32 copies
    // of the bins, one per lane (unsigned int s[kHistogramBins * 32], bin v of copy l at
    // word v * 32 + l, lane l = threadIdx.x % 32 counting into copy l), so the lanes of a
    // warp never share a word or a bank; zero all copies, and at the end let thread v add
    // the 32 copies of bin v before its one global atomicAdd. Another: __match_any_sync,
    // so that the lanes holding the same value add their number once (on the H200 its 16
    // matches per uint4 made it slower than CUB on every input). Whatever you choose must
    // stay fast on uniform bytes too (05.3 times both).
    __shared__ unsigned int s[kHistogramBins];
    for (int v = threadIdx.x; v < kHistogramBins; v += blockDim.x) s[v] = 0;
    __syncthreads();
    const uint4* in16 = reinterpret_cast<const uint4*>(in);
    const size_t n16 = n / 16, stride = size_t(gridDim.x) * blockDim.x;
    const size_t first = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    size_t i = first;
    for (; i + stride < n16; i += 2 * stride) {
        const uint4 a = in16[i], b = in16[i + stride];
        count16(s, a);
        count16(s, b);
    }
    if (i < n16) count16(s, in16[i]);
    if (first < n % 16) atomicAdd(&s[in[16 * n16 + first]], 1u);
    __syncthreads();
    for (int v = threadIdx.x; v < kHistogramBins; v += blockDim.x) {
        const unsigned int count = s[v];
        if (count > 0) atomicAdd(&bins[v], count);
    }
}

int resident_blocks() {
    static int blocks = 0;
    if (blocks == 0) {
        int device = 0, sms = 0, per_sm = 0;
        cudaGetDevice(&device);
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, histogram_skew_resistant_kernel, kBlock, 0);
        blocks = sms * std::max(per_sm, 1);
    }
    return blocks;
}

}  // namespace

void histogram_skew_resistant(const unsigned char* in, size_t n, unsigned int* bins) {
    cudaMemsetAsync(bins, 0, kHistogramBins * sizeof(unsigned int), 0);
    if (n == 0) return;
    const size_t blocks = std::min(n / 16 / kBlock + 1, size_t(resident_blocks()));
    histogram_skew_resistant_kernel<<<unsigned(blocks), kBlock>>>(in, n, bins);
}
