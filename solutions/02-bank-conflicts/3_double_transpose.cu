// SPDX-License-Identifier: MIT
// Exercise 02.3 — reference. The tile transpose for 8-byte elements, made conflict-free by
// a swizzle instead of padding: element (y, x) of the tile is stored in column x XOR y.
// A double covers two banks, so a warp's 256-byte request takes two wavefronts at best;
// the unswizzled column read would put all 32 doubles in banks 0 and 1 (32 wavefronts).
#include "bank_conflicts.cuh"

namespace {

constexpr int kTile = 32;                // 32 × 32 doubles = 8 KiB of shared memory
constexpr int kWidth = 32, kHeight = 8;  // each thread moves 4 elements
constexpr int kThreads = kWidth * kHeight;

//! [swizzle]
// Where element (y, x) of the tile lives: the column is permuted per row, so a row still
// holds each x once (rows stay conflict-free), and a column visits every bank pair.
__device__ __forceinline__ int swizzled(int y, int x) { return y * kTile + (x ^ y); }
//! [swizzle]

__global__ void __launch_bounds__(kThreads)
    transpose_double_kernel(const double* __restrict__ in, double* __restrict__ out, int rows, int cols) {
    __shared__ double tile[kTile * kTile];
    const int r0 = blockIdx.y * kTile, c0 = blockIdx.x * kTile;
    const int dx = threadIdx.x;
    double v[kTile / kHeight];  // the four loads go out before the first store to the tile
#pragma unroll
    for (int i = 0; i < kTile / kHeight; ++i) {
        int dy = threadIdx.y + i * kHeight;
        v[i] = (r0 + dy < rows && c0 + dx < cols) ? in[size_t(r0 + dy) * cols + c0 + dx] : 0.0;
    }
#pragma unroll
    for (int i = 0; i < kTile / kHeight; ++i) tile[swizzled(threadIdx.y + i * kHeight, dx)] = v[i];
    __syncthreads();
    //! [swizzled_read]
    // Lane dx reads tile row dx at column dy ^ dx: in each half-warp the 16 columns differ
    // in their low four bits, so the 16 doubles fall into 16 different bank pairs.
#pragma unroll
    for (int i = 0; i < kTile / kHeight; ++i) {
        int dy = threadIdx.y + i * kHeight;
        if (c0 + dy < cols && r0 + dx < rows) out[size_t(c0 + dy) * rows + r0 + dx] = tile[swizzled(dx, dy)];
    }
    //! [swizzled_read]
}

}  // namespace

void transpose_double(const double* in, double* out, int rows, int cols) {
    if (rows <= 0 || cols <= 0) return;
    dim3 grid((cols + kTile - 1) / kTile, (rows + kTile - 1) / kTile);
    transpose_double_kernel<<<grid, dim3(kWidth, kHeight)>>>(in, out, rows, cols);
}
