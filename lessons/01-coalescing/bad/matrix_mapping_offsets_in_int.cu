// SPDX-License-Identifier: MIT
// Known-bad 01.1: the reference, with each element's place counted in bytes and held in an
// int (a matrix has fewer than 2^31 elements, so an int looks safe). Past 2^31 bytes, the
// 2^29th float, the offset wraps to a negative one and the loads read about 2 GiB before
// the matrix, the stores write there. Every timed matrix is far smaller (16 × the L2, a
// quarter of the free memory at most), and so are the checked shapes. Must be rejected:
// wrong, bounds or fault, by the check past 2^31 bytes (a 23173 × 23173 matrix).
#include "coalescing.cuh"

namespace {

constexpr int kWidth = 32, kHeight = 8, kRows = 4;

// BUG: the byte offset in 32 bits. Counted unsigned, so that it wraps the same way whatever
// the compiler makes of a signed overflow, then held in an int, as a careless port would.
__device__ int byte_offset(int row, int cols, int col) { return int(unsigned(row * cols + col) * unsigned(sizeof(float))); }

__device__ const float& at(const float* m, int byte) { return *reinterpret_cast<const float*>(reinterpret_cast<const char*>(m) + byte); }

__global__ void add_matrices_kernel(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                                    int rows, int cols) {
    int col = blockIdx.x * kWidth + threadIdx.x;
    int row0 = blockIdx.y * (kHeight * kRows) + threadIdx.y;
    if (col >= cols) return;
    float va[kRows], vb[kRows];
#pragma unroll
    for (int r = 0; r < kRows; ++r) {
        int row = row0 + r * kHeight;
        va[r] = row < rows ? at(a, byte_offset(row, cols, col)) : 0.f;
        vb[r] = row < rows ? at(b, byte_offset(row, cols, col)) : 0.f;
    }
#pragma unroll
    for (int r = 0; r < kRows; ++r) {
        int row = row0 + r * kHeight;
        if (row < rows) *reinterpret_cast<float*>(reinterpret_cast<char*>(c) + byte_offset(row, cols, col)) = va[r] + vb[r];
    }
}

}  // namespace

void add_matrices(const float* a, const float* b, float* c, int rows, int cols) {
    if (rows <= 0 || cols <= 0) return;
    dim3 block(kWidth, kHeight);
    dim3 grid((cols + kWidth - 1) / kWidth, (rows + kHeight * kRows - 1) / (kHeight * kRows));
    add_matrices_kernel<<<grid, block>>>(a, b, c, rows, cols);
}
