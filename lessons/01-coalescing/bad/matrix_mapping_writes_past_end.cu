// SPDX-License-Identifier: MIT
// Known-bad 01.1: flattens the matrix and uses <= in the bound, so the last thread writes
// one float past the end of c. Must be rejected: bounds (the guard bytes change), or fault
// where rows × cols is a multiple of 64 and c[n] is the first byte of the unmapped page.
#include "coalescing.cuh"

namespace {
__global__ void add_kernel(const float* a, const float* b, float* c, size_t n) {
    size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i <= n) c[i] = a[i] + b[i];
}
}  // namespace

void add_matrices(const float* a, const float* b, float* c, int rows, int cols) {
    size_t n = size_t(rows) * cols;
    add_kernel<<<unsigned(n / 256 + 1), 256>>>(a, b, c, n);
}
