// SPDX-License-Identifier: MIT
// Exercise 05.1 — reference: the notes' privatized histogram for 256 bins. Each block of
// 1024 threads counts its 1024 bytes into its own bins in shared memory, where atomics
// stay inside the SM, and then adds each non-zero bin to the global bins with one atomic:
// at most 256 global atomics per 1024 bytes instead of 1024, and never more than one per
// block on a bin, however often its value occurs.
#include <cuda_runtime.h>

#include "histogram.cuh"

namespace {

constexpr int kBlock = 1024;

//! [privatized]
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
        if (count > 0) atomicAdd(&bins[v], count);  // other blocks add to the same bins
    }
}
//! [privatized]

}  // namespace

//! [launcher]
void histogram_privatized(const unsigned char* in, size_t n, unsigned int* bins) {
    // The kernel only adds to bins: they start at zero on every call, on the same stream.
    cudaMemsetAsync(bins, 0, kHistogramBins * sizeof(unsigned int), 0);
    if (n == 0) return;  // a grid of 0 blocks is a launch error
    histogram_privatized_kernel<<<unsigned((n + kBlock - 1) / kBlock), kBlock>>>(in, n, bins);
}
//! [launcher]
