// SPDX-License-Identifier: MIT
// Known-bad 01.1: correct, with threadIdx.x walking down a column (the notes' c[x][y]
// mapping) in 32 × 32 blocks. Must be rejected: slow.
#include "coalescing.cuh"

namespace {
__global__ void add_kernel(const float* a, const float* b, float* c, int rows, int cols) {
    int row = blockIdx.x * 32 + threadIdx.x;
    int col = blockIdx.y * 32 + threadIdx.y;
    if (row < rows && col < cols) c[size_t(row) * cols + col] = a[size_t(row) * cols + col] + b[size_t(row) * cols + col];
}
}  // namespace

void add_matrices(const float* a, const float* b, float* c, int rows, int cols) {
    if (rows <= 0 || cols <= 0) return;
    add_kernel<<<dim3((rows + 31) / 32, (cols + 31) / 32), dim3(32, 32)>>>(a, b, c, rows, cols);
}
