// SPDX-License-Identifier: MIT
// Known-bad 05.1: each block writes its bins into the global bins with a plain store
// instead of adding them. With more than one block, the last block to write a bin wins
// and the others' counts are lost. Must be rejected: wrong.
#include <cuda_runtime.h>

#include "histogram.cuh"

namespace {

constexpr int kBlock = 1024;

__global__ void __launch_bounds__(kBlock)
    histogram_privatized_kernel(const unsigned char* __restrict__ in, size_t n, unsigned int* __restrict__ bins) {
    __shared__ unsigned int s[kHistogramBins];  // this block's private bins
    for (int v = threadIdx.x; v < kHistogramBins; v += blockDim.x) s[v] = 0;
    __syncthreads();  // every bin is zero before any thread counts into it
    const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&s[in[i]], 1u);  // in[i] is an unsigned char: 0 … 255
    __syncthreads();  // every count is in before the bins are read
    for (int v = threadIdx.x; v < kHistogramBins; v += blockDim.x) {
        const unsigned int count = s[v];
        if (count > 0) bins[v] = count;  // the bug: overwrites what other blocks added
    }
}

}  // namespace

void histogram_privatized(const unsigned char* in, size_t n, unsigned int* bins) {
    // The kernel only adds to bins: they start at zero on every call, on the same stream.
    cudaMemsetAsync(bins, 0, kHistogramBins * sizeof(unsigned int), 0);
    if (n == 0) return;  // a grid of 0 blocks is a launch error
    histogram_privatized_kernel<<<unsigned((n + kBlock - 1) / kBlock), kBlock>>>(in, n, bins);
}
