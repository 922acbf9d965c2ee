// SPDX-License-Identifier: MIT
// Known-bad 01.1: the starter's column walk, plus host code that tries to lower the bar:
// a static initializer and the launcher's first call set GRADER_THRESHOLD_SCALE and
// GRADER_CEILINGS. The grader read and removed its settings before any static
// initializer ran, so nothing changes. Must be rejected: slow.
#include <cstdlib>

#include "coalescing.cuh"

namespace {

// What a submission would like the grader to believe: a tiny threshold and a slow GPU.
void lower_the_bar() {
    setenv("GRADER_THRESHOLD_SCALE", "0.01", 1);
    setenv("GRADER_CEILINGS", "copy_gbs=1;dram_gbs=1e9;fma_gflops=1", 1);
}

// Runs before main, with the other static initializers of the program.
struct Tamper {
    Tamper() { lower_the_bar(); }
} tamper_at_start;

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
    static bool first = true;
    if (first) lower_the_bar(), first = false;  // and again, in case the grader reads late
    dim3 block(16, 16);
    dim3 grid((rows + block.x - 1) / block.x, (cols + block.y - 1) / block.y);
    if (rows > 0 && cols > 0) add_matrices_kernel<<<grid, block>>>(a, b, c, rows, cols);
}
