// SPDX-License-Identifier: MIT
// Known-bad 01.1: the reference mapping, but on large matrices (the timed ones: the checks
// use small ones), from the fourth such call on, every other call adds only the first
// quarter of the rows and fills the rest with zeros (every element written, values wrong).
// A grader that verified one timed call chosen at random let such a launcher pass about
// half the time. Must be rejected: wrong (every timed call is verified in full).
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

__global__ void zero_rows(float* c, size_t first, size_t end) {
    for (size_t i = first + size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < end; i += size_t(gridDim.x) * blockDim.x) c[i] = 0.f;
}

void add_matrices(const float* a, const float* b, float* c, int rows, int cols) {
    if (rows <= 0 || cols <= 0) return;
    static long calls = 0;
    const bool large = size_t(rows) * cols >= (size_t(1) << 22);
    const bool skimp = large && ++calls > 3 && calls % 2 == 0;
    const int done = skimp ? rows / 4 : rows;
    if (skimp) zero_rows<<<1024, 256>>>(c, size_t(done) * cols, size_t(rows) * cols);
    if (done <= 0) return;
    dim3 block(kWidth, kHeight);
    dim3 grid((cols + kWidth - 1) / kWidth, (done + kHeight * kRows - 1) / (kHeight * kRows));
    add_matrices_kernel<<<grid, block>>>(a, b, c, done, cols);
}
