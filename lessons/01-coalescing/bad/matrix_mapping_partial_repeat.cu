// SPDX-License-Identifier: MIT
// Known-bad 01.1: the reference mapping, but only the first of a run of calls on large
// matrices (2^22 elements or more: the timed ones; the checks' shapes are smaller) adds every
// row; each one after it adds only the first 40 % of the rows. It once keyed the repeat on
// the same arguments, which the timed calls no longer have: each has a shape and a place in
// its buffers of its own (issue 32). Must be rejected: wrong (after the second timed call
// the rows left out still hold the poison: "never written").
#include "coalescing.cuh"

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
    // Large calls in a row, counted: the first one does it all.
    static long repeats = 0;
    const bool large = size_t(rows) * cols >= (size_t(1) << 22);
    repeats = large ? repeats + 1 : 0;
    const int done = repeats <= 1 ? rows : rows * 2 / 5;  // the bug: the rest is skipped
    if (done <= 0) return;
    dim3 block(kWidth, kHeight);
    dim3 grid((cols + kWidth - 1) / kWidth, (done + kHeight * kRows - 1) / (kHeight * kRows));
    add_matrices_kernel<<<grid, block>>>(a, b, c, done, cols);
}
