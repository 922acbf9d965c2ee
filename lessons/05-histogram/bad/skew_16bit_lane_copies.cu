// SPDX-License-Identifier: MIT
// Known-bad 05.3: the reference's 32 copies of the bins per block, one per lane, with two
// 16-bit counters packed in each 32-bit word of shared memory (bin v of copy l in half
// v & 1 of word (v / 2) · 32 + l): 16 KiB per block instead of 32. Right as long as no copy
// counts more than 65 535 copies of one value; then its count carries into the next bin.
// Each copy counts a 32nd of its block's bytes: on a GPU of 132 SMs (528 blocks of 512
// threads) the check with one value repeated 65 536 × the blocks the GPU holds at once
// gives a copy about 16 400 of them and the timed 90 % skewed bytes (at most 2^30 + 1)
// about 57 000; n = 2^31 − 1, the contract's largest, mostly one value, about 127 000. On
// a GPU of fewer than about 70 SMs the timed skewed bytes already overflow a copy. Must be
// rejected: wrong (the check at n = 2^31 − 1).
#include <cuda_runtime.h>

#include <algorithm>

#include "histogram.cuh"

namespace {

constexpr int kBlock = 512;
constexpr int kCopies = 32;  // one per lane: 256 × 32 × 2 bytes = 16 KiB of shared memory per block

// `mine` is this lane's copy: bin v in half v & 1 of mine[(v / 2) * kCopies].
__device__ __forceinline__ void count_byte(unsigned int* mine, unsigned int v) {
    atomicAdd(&mine[(v >> 1) * kCopies], 1u << (16 * (v & 1)));
}

__device__ __forceinline__ void count_word(unsigned int* mine, unsigned int w) {
    count_byte(mine, w & 0xFFu);
    count_byte(mine, (w >> 8) & 0xFFu);
    count_byte(mine, (w >> 16) & 0xFFu);
    count_byte(mine, w >> 24);
}

__device__ __forceinline__ void count16(unsigned int* mine, uint4 x) {
    count_word(mine, x.x);
    count_word(mine, x.y);
    count_word(mine, x.z);
    count_word(mine, x.w);
}

__global__ void __launch_bounds__(kBlock)
    histogram_skew_resistant_kernel(const unsigned char* __restrict__ in, size_t n, unsigned int* __restrict__ bins) {
    __shared__ unsigned int s[kHistogramBins / 2 * kCopies];
    for (int k = threadIdx.x; k < kHistogramBins / 2 * kCopies; k += blockDim.x) s[k] = 0;
    __syncthreads();
    unsigned int* mine = s + threadIdx.x % kCopies;
    const uint4* in16 = reinterpret_cast<const uint4*>(in);
    const size_t n16 = n / 16, stride = size_t(gridDim.x) * blockDim.x;
    const size_t first = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    size_t i = first;
    for (; i + stride < n16; i += 2 * stride) {
        const uint4 a = in16[i], b = in16[i + stride];
        count16(mine, a);
        count16(mine, b);
    }
    if (i < n16) count16(mine, in16[i]);
    if (first < n % 16) count_byte(mine, in[16 * n16 + first]);
    __syncthreads();
    // Thread v adds the copies of bin v, starting at copy v % 32.
    for (int v = threadIdx.x; v < kHistogramBins; v += blockDim.x) {
        unsigned int count = 0;
        for (int c = 0; c < kCopies; ++c) count += (s[(v >> 1) * kCopies + (c + v) % kCopies] >> (16 * (v & 1))) & 0xFFFFu;
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
