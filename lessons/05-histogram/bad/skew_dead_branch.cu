// SPDX-License-Identifier: MIT
// Known-bad 05.3: a copy of the bins per lane, but only in a branch never taken at run
// time. It stands for an outside submission of issue #32: the kernel holds the reference's
// counting loop into 32 lane copies under `if (blockDim.x == 7)`, which no launch of 512
// threads takes; every block counts its bytes with plain shared atomics into one copy
// instead, the lanes of a warp meeting on one word when the input is skewed. The compiled
// kernel has a lane-indexed shared atomic, so the old rule held; but the input loop that
// runs counts every byte with a plain atomic: rejected [technique] (aggregated-input-loop).
#include <cuda_runtime.h>

#include <algorithm>

#include "histogram.cuh"

namespace {

constexpr int kBlock = 512;
constexpr int kCopies = 32;

__global__ void __launch_bounds__(kBlock)
    histogram_dead_branch_kernel(const unsigned char* __restrict__ in, size_t n, unsigned int* __restrict__ bins) {
    __shared__ unsigned int s[kHistogramBins * kCopies];
    for (int k = threadIdx.x; k < kHistogramBins * kCopies; k += blockDim.x) s[k] = 0;
    __syncthreads();
    const size_t stride = size_t(gridDim.x) * blockDim.x;
    const size_t first = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (blockDim.x == 7) {  // never: the lane copies
        unsigned int* mine = s + threadIdx.x % kCopies;
        for (size_t i = first; i < n; i += stride) atomicAdd(&mine[in[i] * kCopies], 1u);
    } else {  // always: copy 0 alone, plain atomics
        for (size_t i = first; i < n; i += stride) atomicAdd(&s[in[i] * kCopies], 1u);
    }
    __syncthreads();
    for (int v = threadIdx.x; v < kHistogramBins; v += blockDim.x) {
        unsigned int count = 0;
        for (int c = 0; c < kCopies; ++c) count += s[v * kCopies + c];
        if (count > 0) atomicAdd(&bins[v], count);
    }
}

int resident_blocks() {
    static int blocks = 0;
    if (blocks == 0) {
        int device = 0, sms = 0, per_sm = 0;
        cudaGetDevice(&device);
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, histogram_dead_branch_kernel, kBlock, 0);
        blocks = sms * std::max(per_sm, 1);
    }
    return blocks;
}

}  // namespace

void histogram_skew_resistant(const unsigned char* in, size_t n, unsigned int* bins) {
    cudaMemsetAsync(bins, 0, kHistogramBins * sizeof(unsigned int), 0);
    if (n == 0) return;
    const size_t blocks = std::min(n / kBlock + 1, size_t(resident_blocks()));
    histogram_dead_branch_kernel<<<unsigned(blocks), kBlock>>>(in, n, bins);
}
