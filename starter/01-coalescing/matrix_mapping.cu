// SPDX-License-Identifier: MIT
// Contract: lessons/01-coalescing/contract/coalescing.cuh · test: meson test -C build lesson01 --test-args='-tc=01.1*'
// Exercise 01.1 — thread-to-element mapping (theory: "Thread-to-element mapping").
// Here threadIdx.x walks down a column: the 32 threads of a warp touch 32 different rows,
// cols × 4 bytes apart, so each load instruction needs 32 sectors to deliver 128 bytes.
#include "coalescing.cuh"

namespace {

__global__ void add_matrices_kernel(const float* a, const float* b, float* c, int rows, int cols) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    int col = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < rows && col < cols) {
        size_t i = size_t(row) * cols + col;
        c[i] = a[i] + b[i];
    }
}

}  // namespace

void add_matrices(const float* a, const float* b, float* c, int rows, int cols) {
    // TODO(01.1): map threadIdx.x to the column so that a warp reads 32 consecutive
    // floats of one row. Then give each thread a few rows (with the loads issued before
    // the adds) so that enough bytes are in flight.
    dim3 block(16, 16);
    dim3 grid((rows + block.x - 1) / block.x, (cols + block.y - 1) / block.y);
    if (rows > 0 && cols > 0) add_matrices_kernel<<<grid, block>>>(a, b, c, rows, cols);
}
