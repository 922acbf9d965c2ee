// SPDX-License-Identifier: MIT
// Known-bad 05.2: the reference kernel, but a launcher that counts only part of the bytes
// on some calls. It counts calls on a large input in a row (the timed ones, after the check
// of one value repeated, the one checked input as large), and from the fourth on, every
// other one counts only the first 60 % of the bytes: the first warm-up calls are right, some
// later ones short. It once counted only calls that repeat the previous one's arguments,
// which the timed calls no longer do: each has a size and a place in its buffer of its own
// (issue 32). The bins are all written, so only the comparison of every timed call with the
// grader's own counts catches it. Must be rejected: wrong.
#include <cuda_runtime.h>

#include <algorithm>

#include "histogram.cuh"

namespace {

constexpr int kBlock = 512;
constexpr size_t kLarge = size_t(1) << 27;  // the timed inputs are larger; the checked ones, but one, smaller

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

}  // namespace

void histogram_coarsened(const unsigned char* in, size_t n, unsigned int* bins) {
    static long large_calls = 0;  // in a row
    large_calls = n >= kLarge ? large_calls + 1 : 0;
    const size_t counted = large_calls >= 4 && large_calls % 2 == 0 ? n / 10 * 6 : n;  // the bug
    cudaMemsetAsync(bins, 0, kHistogramBins * sizeof(unsigned int), 0);
    if (counted == 0) return;
    const size_t blocks = std::min(counted / 16 / kBlock + 1, size_t(resident_blocks()));
    histogram_coarsened_kernel<<<unsigned(blocks), kBlock>>>(in, counted, bins);
}
