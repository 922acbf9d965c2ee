// SPDX-License-Identifier: MIT
// Known-bad 05.1: a correct histogram submitted as 05.1, but it is the starter's kernel —
// one global atomicAdd per byte, no private bins. Must be rejected: slow.
#include <cuda_runtime.h>

#include "histogram.cuh"

namespace {

constexpr int kBlock = 1024;

__global__ void histogram_global_kernel(const unsigned char* in, size_t n, unsigned int* bins) {
    const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&bins[in[i]], 1u);
}

}  // namespace

void histogram_privatized(const unsigned char* in, size_t n, unsigned int* bins) {
    cudaMemsetAsync(bins, 0, kHistogramBins * sizeof(unsigned int), 0);
    if (n == 0) return;
    histogram_global_kernel<<<unsigned((n + kBlock - 1) / kBlock), kBlock>>>(in, n, bins);
}
