// SPDX-License-Identifier: MIT
// Known-bad 05.1: no __syncthreads() between zeroing the shared bins and counting into
// them. Threads 256 … 1023 do not zero anything and count at once, possibly into a bin
// that a thread of the first 256 zeroes afterwards, erasing the count. The zero store
// usually wins the race, so the counts are usually right: racecheck sees the unordered
// accesses. Its test runs under racecheck. Must be rejected: fault (or wrong).
#include <cuda_runtime.h>

#include "histogram.cuh"

namespace {

constexpr int kBlock = 1024;

__global__ void __launch_bounds__(kBlock)
    histogram_privatized_kernel(const unsigned char* __restrict__ in, size_t n, unsigned int* __restrict__ bins) {
    __shared__ unsigned int s[kHistogramBins];  // this block's private bins
    for (int v = threadIdx.x; v < kHistogramBins; v += blockDim.x) s[v] = 0;
    // the bug: no barrier here
    const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&s[in[i]], 1u);  // in[i] is an unsigned char: 0 … 255
    __syncthreads();  // every count is in before the bins are read
    for (int v = threadIdx.x; v < kHistogramBins; v += blockDim.x) {
        const unsigned int count = s[v];
        if (count > 0) atomicAdd(&bins[v], count);  // other blocks add to the same bins
    }
}

}  // namespace

void histogram_privatized(const unsigned char* in, size_t n, unsigned int* bins) {
    // The kernel only adds to bins: they start at zero on every call, on the same stream.
    cudaMemsetAsync(bins, 0, kHistogramBins * sizeof(unsigned int), 0);
    if (n == 0) return;  // a grid of 0 blocks is a launch error
    histogram_privatized_kernel<<<unsigned((n + kBlock - 1) / kBlock), kBlock>>>(in, n, bins);
}
