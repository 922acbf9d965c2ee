// SPDX-License-Identifier: MIT
// Known-bad 05.2: the reference kernel behind a cache. A call on 2^25 bytes or more (the
// timed ones, and the check of one value repeated) right after another copies the counts
// of the last one it counted from a buffer of its own instead of counting. It once keyed
// the copy on the same in, n and bins, which the timed calls no longer have: each has a
// size and a place in its buffer of its own (issue 32). The grader writes fresh bytes
// before every timed call, so the copied counts are stale. Must be rejected: wrong (every
// timed call is verified in full), or impossible (1 KiB copied in the time of reading the
// input).
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

__global__ void __launch_bounds__(kBlock)
    histogram_coarsened_kernel(const unsigned char* __restrict__ in, size_t n, unsigned int* __restrict__ bins) {
    __shared__ unsigned int s[kHistogramBins];
    for (int v = threadIdx.x; v < kHistogramBins; v += blockDim.x) s[v] = 0;
    __syncthreads();
    const uint4* in16 = reinterpret_cast<const uint4*>(in);
    const size_t n16 = n / 16, stride = size_t(gridDim.x) * blockDim.x;
    const size_t first = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    for (size_t i = first; i < n16; i += stride) {
        const uint4 x = in16[i];
        count_word(s, x.x);
        count_word(s, x.y);
        count_word(s, x.z);
        count_word(s, x.w);
    }
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
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, histogram_coarsened_kernel, kBlock, 0);
        blocks = sms * std::max(per_sm, 1);
    }
    return blocks;
}

constexpr size_t kLarge = size_t(1) << 25;  // bytes: every size checked one by one is smaller

// The last counts, in a buffer of the launcher's own, and whether the last call was large.
struct Cache {
    unsigned int* counts = nullptr;
    bool holds = false, large = false;
};

}  // namespace

void histogram_coarsened(const unsigned char* in, size_t n, unsigned int* bins) {
    static Cache cache;
    const size_t bytes = kHistogramBins * sizeof(unsigned int);
    const bool large = n >= kLarge;
    if (cache.holds && large && cache.large) {
        // the bug: "a large call again, the same answer" — but the bytes may have changed since
        cudaMemcpyAsync(bins, cache.counts, bytes, cudaMemcpyDeviceToDevice, 0);
        return;
    }
    if (!cache.counts && cudaMalloc(&cache.counts, bytes) != cudaSuccess) cache.counts = nullptr;
    cache.large = large, cache.holds = cache.counts != nullptr;
    cudaMemsetAsync(bins, 0, bytes, 0);
    if (n > 0) {
        const size_t blocks = std::min(n / 16 / kBlock + 1, size_t(resident_blocks()));
        histogram_coarsened_kernel<<<unsigned(blocks), kBlock>>>(in, n, bins);
    }
    if (cache.holds) cudaMemcpyAsync(cache.counts, bins, bytes, cudaMemcpyDeviceToDevice, 0);
}
