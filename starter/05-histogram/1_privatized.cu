// SPDX-License-Identifier: MIT
// Contract: lessons/05-histogram/contract/histogram.cuh · test: meson test -C build lesson05 --test-args='-tc=05.1*'
// Exercise 05.1 — privatization (read lessons/05-histogram/theory.md, "Atomic operations",
// "Contention" and "Privatization"). The starting point is the simplest correct histogram:
// one thread per byte, each adding 1 to its bin in global memory with atomicAdd. Every
// byte is one atomic in the L2, and the bytes of a frequent value all queue at one address.
#include <cuda_runtime.h>

#include "histogram.cuh"

namespace {

constexpr int kBlock = 1024;

__global__ void histogram_global_kernel(const unsigned char* in, size_t n, unsigned int* bins) {
    // TODO(05.1): count into private bins first:
    //   - declare __shared__ unsigned int s[kHistogramBins] and let the threads of the
    //     block set every entry to 0 (blockDim.x may be more or less than 256);
    //   - __syncthreads(), so that no thread counts into a bin before it is zero;
    //   - count this thread's byte with atomicAdd(&s[in[i]], 1u) (a shared-memory atomic);
    //   - __syncthreads(), so that every count is in;
    //   - add each non-zero s[v] to bins[v] with one atomicAdd (other blocks add to bins too).
    const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&bins[in[i]], 1u);  // in[i] is an unsigned char: 0 … 255
}

}  // namespace

void histogram_privatized(const unsigned char* in, size_t n, unsigned int* bins) {
    // The kernel only adds to bins: they start at zero on every call, on the same stream.
    cudaMemsetAsync(bins, 0, kHistogramBins * sizeof(unsigned int), 0);
    if (n == 0) return;  // a grid of 0 blocks is a launch error
    histogram_global_kernel<<<unsigned((n + kBlock - 1) / kBlock), kBlock>>>(in, n, bins);
}
