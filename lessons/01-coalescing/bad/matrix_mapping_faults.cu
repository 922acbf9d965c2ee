// SPDX-License-Identifier: MIT
// Known-bad 01.1: a wild index (bytes mixed with elements, off by a huge constant) writes
// far outside any allocation: an illegal-address fault. Must be rejected: fault, and the
// other exercises must still run (each runs in its own process).
#include "coalescing.cuh"

namespace {
__global__ void add_kernel(const float* a, const float* b, float* c, size_t n) {
    size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) c[i + (size_t(1) << 40)] = a[i] + b[i];
}
}  // namespace

void add_matrices(const float* a, const float* b, float* c, int rows, int cols) {
    size_t n = size_t(rows) * cols;
    if (n) add_kernel<<<unsigned((n + 255) / 256), 256>>>(a, b, c, n);
}
