// SPDX-License-Identifier: MIT
// Known-bad 01.1: the reference mapping, but a call on a large matrix (the timed ones) keeps
// its sum in a buffer of its own, and a later large call of no more elements copies the first
// of them back instead of adding. It once keyed the copy on the same arguments, which the
// timed calls no longer have: each has a shape and a place in its buffers of its own (issue
// 32). Must be rejected: wrong (each timed call's inputs are made afresh, so a result kept
// from an earlier call is stale).
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
    static float* kept = nullptr;
    static size_t kept_n = 0;
    const size_t n = size_t(rows) * cols;
    const bool large = n >= (size_t(1) << 22);
    if (large && kept && kept_n >= n) {
        cudaMemcpyAsync(c, kept, n * sizeof(float), cudaMemcpyDeviceToDevice);
        return;
    }
    dim3 block(kWidth, kHeight);
    dim3 grid((cols + kWidth - 1) / kWidth, (rows + kHeight * kRows - 1) / (kHeight * kRows));
    add_matrices_kernel<<<grid, block>>>(a, b, c, rows, cols);
    if (!large) return;
    cudaFree(kept);
    cudaMalloc(&kept, n * sizeof(float));
    kept_n = n;
    cudaMemcpyAsync(kept, c, n * sizeof(float), cudaMemcpyDeviceToDevice);
}
