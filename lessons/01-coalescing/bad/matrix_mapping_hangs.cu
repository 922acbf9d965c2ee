// SPDX-License-Identifier: MIT
// Known-bad 01.1: a grid-stride loop that never advances its index never ends. Must be
// rejected: hang (the grader stops the exercise's process after --timeout seconds).
#include "coalescing.cuh"

namespace {
__global__ void add_kernel(const float* a, const float* b, float* c, size_t n) {
    for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;) c[i] = a[i] + b[i];
}
}  // namespace

void add_matrices(const float* a, const float* b, float* c, int rows, int cols) {
    add_kernel<<<32, 256>>>(a, b, c, size_t(rows) * cols);
}
