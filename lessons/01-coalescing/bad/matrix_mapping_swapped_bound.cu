// SPDX-License-Identifier: MIT
// Known-bad 01.1: coalesced, but the row is checked against cols: right on square
// matrices, wrong or out of bounds on the others. On a wide matrix a whole row past the
// end is read and written, which reaches the unmapped page after a and c (1 × 37 does).
// Must be rejected: fault, wrong or bounds.
#include "coalescing.cuh"

namespace {
__global__ void add_kernel(const float* a, const float* b, float* c, int rows, int cols) {
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < cols && col < cols && row < rows + 1) c[size_t(row) * cols + col] = a[size_t(row) * cols + col] + b[size_t(row) * cols + col];
}
}  // namespace

void add_matrices(const float* a, const float* b, float* c, int rows, int cols) {
    if (rows <= 0 || cols <= 0) return;
    add_kernel<<<dim3((cols + 31) / 32, (rows + 7) / 8), dim3(32, 8)>>>(a, b, c, rows, cols);
}
