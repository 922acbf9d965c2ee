// SPDX-License-Identifier: MIT
// Known-bad 02.3: the swizzled reference, with a shared tile of float instead of double
// (half the shared memory): every element is narrowed to float on its way through the
// tile and widened back. Only values a float holds exactly survive; the grader's doubles
// (uniform, and magnitudes 2^±60) do not. Must be rejected: wrong.
#include "bank_conflicts.cuh"

namespace {

constexpr int kTile = 32;                // 32 × 32 elements
constexpr int kWidth = 32, kHeight = 8;  // each thread moves 4 elements
constexpr int kThreads = kWidth * kHeight;

// Where element (y, x) of the tile lives: the column is permuted per row, so a row still
// holds each x once (rows stay conflict-free), and a column visits every bank pair.
__device__ __forceinline__ int swizzled(int y, int x) { return y * kTile + (x ^ y); }

__global__ void __launch_bounds__(kThreads)
    transpose_double_kernel(const double* __restrict__ in, double* __restrict__ out, int rows, int cols) {
    __shared__ float tile[kTile * kTile];  // the bug: float, not double
    const int r0 = blockIdx.y * kTile, c0 = blockIdx.x * kTile;
    const int dx = threadIdx.x;
    double v[kTile / kHeight];  // the four loads go out before the first store to the tile
#pragma unroll
    for (int i = 0; i < kTile / kHeight; ++i) {
        int dy = threadIdx.y + i * kHeight;
        v[i] = (r0 + dy < rows && c0 + dx < cols) ? in[size_t(r0 + dy) * cols + c0 + dx] : 0.0;
    }
#pragma unroll
    for (int i = 0; i < kTile / kHeight; ++i) tile[swizzled(threadIdx.y + i * kHeight, dx)] = float(v[i]);
    __syncthreads();
    // Lane dx reads tile row dx at column dy ^ dx.
#pragma unroll
    for (int i = 0; i < kTile / kHeight; ++i) {
        int dy = threadIdx.y + i * kHeight;
        if (c0 + dy < cols && r0 + dx < rows) out[size_t(c0 + dy) * rows + r0 + dx] = double(tile[swizzled(dx, dy)]);
    }
}

}  // namespace

void transpose_double(const double* in, double* out, int rows, int cols) {
    if (rows <= 0 || cols <= 0) return;
    dim3 grid((cols + kTile - 1) / kTile, (rows + kTile - 1) / kTile);
    transpose_double_kernel<<<grid, dim3(kWidth, kHeight)>>>(in, out, rows, cols);
}
