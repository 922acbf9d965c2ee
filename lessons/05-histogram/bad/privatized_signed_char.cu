// SPDX-License-Identifier: MIT
// Known-bad 05.1: the byte is read into a signed char, as the notes read it into a `char`
// (signed on x86-64; spelled `signed char` here so that the variant is the same on
// AArch64, where `char` is unsigned): the values 128–255 become −128 … −1 and index
// before the shared bins. Those bytes are lost, or the access faults. Must be rejected:
// wrong, or fault.
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
    if (i < n) {
        const signed char c = static_cast<signed char>(in[i]);  // the bug: 200 becomes -56
        atomicAdd(&s[c], 1u);
    }
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
