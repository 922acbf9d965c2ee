// SPDX-License-Identifier: MIT
// Known-bad 05.3: the technique half applied. More copies of the bins — one per warp, 16 per
// block — but indexed by the warp, not the lane: when 90 % of the bytes hold one value, the
// lanes of a warp still update one word of their warp's copy in one instruction, exactly
// the contention 05.3 is about. Correct, and on the GPUs measured no slower than one copy
// per block, so speed cannot reject it there. In its machine code the lane bits of
// threadIdx.x are shifted out of every shared atomic's address: rejected [technique].
#include <cuda_runtime.h>

#include <algorithm>

#include "histogram.cuh"

namespace {

constexpr int kBlock = 512;
constexpr int kWarps = kBlock / 32;  // one copy per warp: 16 × 256 × 4 bytes = 16 KiB

__device__ __forceinline__ void count_word(unsigned int* mine, unsigned int w) {
    atomicAdd(&mine[w & 0xFFu], 1u);
    atomicAdd(&mine[(w >> 8) & 0xFFu], 1u);
    atomicAdd(&mine[(w >> 16) & 0xFFu], 1u);
    atomicAdd(&mine[w >> 24], 1u);
}

__device__ __forceinline__ void count16(unsigned int* mine, uint4 x) {
    count_word(mine, x.x);
    count_word(mine, x.y);
    count_word(mine, x.z);
    count_word(mine, x.w);
}

__global__ void __launch_bounds__(kBlock)
    histogram_per_warp_kernel(const unsigned char* __restrict__ in, size_t n, unsigned int* __restrict__ bins) {
    __shared__ unsigned int s[kWarps * kHistogramBins];
    for (int k = threadIdx.x; k < kWarps * kHistogramBins; k += blockDim.x) s[k] = 0;
    __syncthreads();
    unsigned int* mine = s + (threadIdx.x / 32) * kHistogramBins;  // this warp's copy
    const uint4* in16 = reinterpret_cast<const uint4*>(in);
    const size_t n16 = n / 16, stride = size_t(gridDim.x) * blockDim.x;
    const size_t first = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    size_t i = first;
    for (; i + stride < n16; i += 2 * stride) {  // two 16-byte loads in flight, as 05.2 does
        const uint4 a = in16[i], b = in16[i + stride];
        count16(mine, a);
        count16(mine, b);
    }
    if (i < n16) count16(mine, in16[i]);
    if (first < n % 16) atomicAdd(&mine[in[16 * n16 + first]], 1u);
    __syncthreads();
    for (int v = threadIdx.x; v < kHistogramBins; v += blockDim.x) {
        unsigned int count = 0;
        for (int w = 0; w < kWarps; ++w) count += s[w * kHistogramBins + v];
        if (count > 0) atomicAdd(&bins[v], count);
    }
}

int resident_blocks() {
    static int blocks = 0;
    if (blocks == 0) {
        int device = 0, sms = 0, per_sm = 0;
        cudaGetDevice(&device);
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, histogram_per_warp_kernel, kBlock, 0);
        blocks = sms * std::max(per_sm, 1);
    }
    return blocks;
}

}  // namespace

void histogram_skew_resistant(const unsigned char* in, size_t n, unsigned int* bins) {
    cudaMemsetAsync(bins, 0, kHistogramBins * sizeof(unsigned int), 0);
    if (n == 0) return;
    const size_t blocks = std::min(n / 16 / kBlock + 1, size_t(resident_blocks()));
    histogram_per_warp_kernel<<<unsigned(blocks), kBlock>>>(in, n, bins);
}
