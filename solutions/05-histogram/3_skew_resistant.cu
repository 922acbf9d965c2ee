// SPDX-License-Identifier: MIT
// Exercise 05.3 — reference. 05.2's kernel with 32 copies of the bins per block, one per
// lane: lane l counts into copy l, bin v of copy l at word v * 32 + l. The 32 lanes of a
// warp then always update 32 different words in 32 different banks — also when all of
// them hold the same value — so a warp's 16 atomics per uint4 are never serialized,
// whatever the bytes are. Merging adds the 32 copies of each bin once per block. On the
// H200 one copy was not slowed by skew, but on uniform bytes it was 1.6 times slower than
// 32 copies (the 05.0 table), probably because its lanes land on random words, several
// in one bank.
#include <cuda_runtime.h>

#include <algorithm>

#include "histogram.cuh"

namespace {

constexpr int kBlock = 512;
constexpr int kCopies = 32;  // one per lane: 256 × 32 × 4 bytes = 32 KiB of shared memory per block

//! [count16]
// `mine` is this lane's copy: bin v at mine[v * kCopies].
__device__ __forceinline__ void count_word(unsigned int* mine, unsigned int w) {
    atomicAdd(&mine[(w & 0xFFu) * kCopies], 1u);
    atomicAdd(&mine[((w >> 8) & 0xFFu) * kCopies], 1u);
    atomicAdd(&mine[((w >> 16) & 0xFFu) * kCopies], 1u);
    atomicAdd(&mine[(w >> 24) * kCopies], 1u);
}

__device__ __forceinline__ void count16(unsigned int* mine, uint4 x) {
    count_word(mine, x.x);
    count_word(mine, x.y);
    count_word(mine, x.z);
    count_word(mine, x.w);
}
//! [count16]

//! [skew_resistant]
__global__ void __launch_bounds__(kBlock)
    histogram_skew_resistant_kernel(const unsigned char* __restrict__ in, size_t n, unsigned int* __restrict__ bins) {
    __shared__ unsigned int s[kHistogramBins * kCopies];
    for (int k = threadIdx.x; k < kHistogramBins * kCopies; k += blockDim.x) s[k] = 0;
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
    if (first < n % 16) atomicAdd(&mine[in[16 * n16 + first] * kCopies], 1u);
    __syncthreads();
    // Thread v adds the copies of bin v, starting at copy v % 32: at each step the threads
    // of a warp read 32 different banks.
    for (int v = threadIdx.x; v < kHistogramBins; v += blockDim.x) {
        unsigned int count = 0;
        for (int c = 0; c < kCopies; ++c) count += s[v * kCopies + (c + v) % kCopies];
        if (count > 0) atomicAdd(&bins[v], count);
    }
}
//! [skew_resistant]

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
