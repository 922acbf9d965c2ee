// SPDX-License-Identifier: MIT
// Contract: lessons/05-histogram/contract/histogram.cuh · test: meson test -C build lesson05 --test-args='-tc=05.2*'
// Exercise 05.2 — coarsening (read lessons/05-histogram/theory.md, "Coarsening and
// coalesced loads"). This is 05.1's privatized kernel: one byte per thread, so a block of
// 1024 threads zeroes 256 bins, counts 1024 bytes and then issues up to 256 global
// atomics to merge them: on uniform bytes still about one global atomic per four bytes.
#include <cuda_runtime.h>

#include "histogram.cuh"

namespace {

constexpr int kBlock = 1024;

__global__ void __launch_bounds__(kBlock)
    histogram_coarsened_kernel(const unsigned char* __restrict__ in, size_t n, unsigned int* __restrict__ bins) {
    __shared__ unsigned int s[kHistogramBins];
    for (int v = threadIdx.x; v < kHistogramBins; v += blockDim.x) s[v] = 0;
    __syncthreads();
    // TODO(05.2): let each thread count many bytes, read 16 at a time:
    //   - view the input as const uint4* (in is 256-byte aligned) with n / 16 elements;
    //   - walk them with a grid stride: thread t reads uint4 number t, then
    //     t + gridDim.x * blockDim.x, … — so the 32 lanes of a warp read 512 consecutive
    //     bytes at every step (interleaved, coalesced) — and count the 16 bytes of each;
    //     issue two loads before counting, so that more than one is on its way;
    //   - count the last n % 16 bytes one by one (threads t < n % 16 of the grid).
    const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&s[in[i]], 1u);
    __syncthreads();
    for (int v = threadIdx.x; v < kHistogramBins; v += blockDim.x) {
        const unsigned int count = s[v];
        if (count > 0) atomicAdd(&bins[v], count);
    }
}

}  // namespace

void histogram_coarsened(const unsigned char* in, size_t n, unsigned int* bins) {
    cudaMemsetAsync(bins, 0, kHistogramBins * sizeof(unsigned int), 0);
    if (n == 0) return;
    // TODO(05.2): launch only as many blocks as the GPU holds at once — the number of SMs
    // (cudaDevAttrMultiProcessorCount) times cudaOccupancyMaxActiveBlocksPerMultiprocessor
    // for this kernel, asked once — and never more than give each thread one uint4.
    histogram_coarsened_kernel<<<unsigned((n + kBlock - 1) / kBlock), kBlock>>>(in, n, bins);
}
