// SPDX-License-Identifier: MIT
// Known-bad 05.3: correct, without the technique. 05.2's kernel as it is — one copy of the
// bins per block, interleaved 16-byte loads — submitted for 05.3. When 90 % of the bytes
// hold one value, most lanes of a warp update one shared word in one instruction; on the
// H100 and H200 that did not slow it down (theory.md, "Skewed inputs"), so 05.3's speed
// threshold overlaps it and speed cannot reject it there. Its machine code has neither a
// shared atomic at a lane-dependent address nor a __match_any_sync: rejected [technique].
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
    histogram_one_copy_kernel(const unsigned char* __restrict__ in, size_t n, unsigned int* __restrict__ bins) {
    __shared__ unsigned int s[kHistogramBins];
    for (int v = threadIdx.x; v < kHistogramBins; v += blockDim.x) s[v] = 0;
    __syncthreads();
    const uint4* in16 = reinterpret_cast<const uint4*>(in);
    const size_t n16 = n / 16, stride = size_t(gridDim.x) * blockDim.x;
    const size_t first = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    size_t i = first;
    for (; i + stride < n16; i += 2 * stride) {  // two 16-byte loads in flight, as 05.2 does
        const uint4 a = in16[i], b = in16[i + stride];
        count16(s, a);
        count16(s, b);
    }
    if (i < n16) count16(s, in16[i]);
    if (first < n % 16) atomicAdd(&s[in[16 * n16 + first]], 1u);
    __syncthreads();
    for (int v = threadIdx.x; v < kHistogramBins; v += blockDim.x)
        if (s[v] > 0) atomicAdd(&bins[v], s[v]);
}

int resident_blocks() {
    static int blocks = 0;
    if (blocks == 0) {
        int device = 0, sms = 0, per_sm = 0;
        cudaGetDevice(&device);
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, histogram_one_copy_kernel, kBlock, 0);
        blocks = sms * std::max(per_sm, 1);
    }
    return blocks;
}

}  // namespace

void histogram_skew_resistant(const unsigned char* in, size_t n, unsigned int* bins) {
    cudaMemsetAsync(bins, 0, kHistogramBins * sizeof(unsigned int), 0);
    if (n == 0) return;
    const size_t blocks = std::min(n / 16 / kBlock + 1, size_t(resident_blocks()));
    histogram_one_copy_kernel<<<unsigned(blocks), kBlock>>>(in, n, bins);
}
