// SPDX-License-Identifier: MIT
// Known-bad 05.2: the reference, with its byte offsets held in an int (n < 2^31 fits one, so
// it looks safe). Offset b of a thread's next pair of 16-byte loads is b + 16 · stride: near
// the top of the range that sum passes 2^31 − 1 and turns negative, the loop's test
// (negative ≤ n) lets it run on, and the loads read before the input, or whatever memory
// lies there. Below 2^31 − 16 · (the grid's threads + 1) every count is right: the timed sizes
// stop at 2^30 + 1 and the check with one value repeated at 65 536 × the blocks the GPU
// holds at once (about 2.8 × 10^8 on a GPU of 132 SMs). Must be rejected: wrong or fault
// (the check at n = 2^31 − 1, the contract's largest).
#include <cuda_runtime.h>

#include <algorithm>

#include "histogram.cuh"

namespace {

constexpr int kBlock = 512;

// One shared-memory atomic per byte of a 16-byte load.
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
    histogram_coarsened_kernel(const unsigned char* __restrict__ in, size_t n, unsigned int* __restrict__ bins) {
    __shared__ unsigned int s[kHistogramBins];
    for (int v = threadIdx.x; v < kHistogramBins; v += blockDim.x) s[v] = 0;
    __syncthreads();
    // BUG: byte offsets in an int.
    const int bytes = int(n), step = 16 * int(gridDim.x * blockDim.x);
    const int first = int(blockIdx.x * blockDim.x + threadIdx.x);
    int b = 16 * first;
    for (; b + step + 16 <= bytes; b += 2 * step) {
        const uint4 x = *reinterpret_cast<const uint4*>(in + b), y = *reinterpret_cast<const uint4*>(in + (b + step));
        count16(s, x);
        count16(s, y);
    }
    if (b + 16 <= bytes) count16(s, *reinterpret_cast<const uint4*>(in + b));
    if (first < bytes % 16) atomicAdd(&s[in[bytes / 16 * 16 + first]], 1u);  // the last n mod 16 bytes
    __syncthreads();
    for (int v = threadIdx.x; v < kHistogramBins; v += blockDim.x) {
        const unsigned int count = s[v];
        if (count > 0) atomicAdd(&bins[v], count);
    }
}

// Blocks that fit on the GPU at once; asked once (the timed calls should not pay for it).
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
    cudaMemsetAsync(bins, 0, kHistogramBins * sizeof(unsigned int), 0);
    if (n == 0) return;
    // Enough blocks to fill the GPU, but none without at least one uint4 per thread.
    const size_t blocks = std::min(n / 16 / kBlock + 1, size_t(resident_blocks()));
    histogram_coarsened_kernel<<<unsigned(blocks), kBlock>>>(in, n, bins);
}
