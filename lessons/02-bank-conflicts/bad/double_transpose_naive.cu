// SPDX-License-Identifier: MIT
// Known-bad 02.3: the naive double transpose (the starter) submitted as the exercise.
// Correct, but its stores are 32 rows apart. Must be rejected: slow.
#include "bank_conflicts.cuh"

namespace {
__global__ void transpose_naive_kernel(const double* in, double* out, int rows, int cols) {
    int c = blockIdx.x * 32 + threadIdx.x;
    for (int i = 0; i < 4; ++i) {
        int r = blockIdx.y * 32 + threadIdx.y + 8 * i;
        if (r < rows && c < cols) out[size_t(c) * rows + r] = in[size_t(r) * cols + c];
    }
}
}  // namespace

void transpose_double(const double* in, double* out, int rows, int cols) {
    if (rows <= 0 || cols <= 0) return;
    transpose_naive_kernel<<<dim3((cols + 31) / 32, (rows + 31) / 32), dim3(32, 8)>>>(in, out, rows, cols);
}
