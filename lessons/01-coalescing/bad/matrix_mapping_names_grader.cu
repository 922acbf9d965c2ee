// SPDX-License-Identifier: MIT
// Known-bad 01.1: the reference mapping, plus a declaration in the grader's namespace (the
// first step of reaching into the grader's state). Must be rejected: policy (lessons/
// policy.txt names the grader's namespace), before anything is built.
#include "coalescing.cuh"

namespace grader {
double threshold_scale();
}

namespace {

constexpr int kWidth = 32, kHeight = 8, kRows = 4;  // a block covers 32 columns × 32 rows

__global__ void add_matrices_kernel(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                                    int rows, int cols) {
    int col = blockIdx.x * kWidth + threadIdx.x;
    int row0 = blockIdx.y * (kHeight * kRows) + threadIdx.y;
    if (col >= cols) return;
    float va[kRows], vb[kRows];
#pragma unroll
    for (int r = 0; r < kRows; ++r) {
        int row = row0 + r * kHeight;
        size_t i = size_t(row) * cols + col;
        va[r] = row < rows ? a[i] : 0.f;
        vb[r] = row < rows ? b[i] : 0.f;
    }
#pragma unroll
    for (int r = 0; r < kRows; ++r) {
        int row = row0 + r * kHeight;
        if (row < rows) c[size_t(row) * cols + col] = va[r] + vb[r];
    }
}

}  // namespace

void add_matrices(const float* a, const float* b, float* c, int rows, int cols) {
    if (rows <= 0 || cols <= 0) return;
    dim3 block(kWidth, kHeight);
    dim3 grid((cols + kWidth - 1) / kWidth, (rows + kHeight * kRows - 1) / (kHeight * kRows));
    add_matrices_kernel<<<grid, block>>>(a, b, c, rows, cols);
}
