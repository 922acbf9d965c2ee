// SPDX-License-Identifier: MIT
// Known-bad 02.1: the reference tile, but from the fourth call on a large matrix in a row
// (2^24 elements or more: the timed ones; every checked shape is smaller) every other one
// transposes only the upper half of the matrix, and leaves the lower half of `out` as the
// grader poisoned it. It once counted only calls that repeat the previous one's arguments,
// which the timed calls no longer do: each has a shape and a place in its buffers of its own
// (issue 32). Must be rejected: wrong (a timed call whose output is not written in full).
#include "bank_conflicts.cuh"

namespace {

constexpr int kTile = 64;                // the tile is kTile × kTile elements
constexpr int kWidth = 32, kHeight = 8;  // threads per block: one warp per tile row
constexpr int kThreads = kWidth * kHeight;

__global__ void __launch_bounds__(kThreads)
    transpose_tiled_kernel(const float* __restrict__ in, float* __restrict__ out, int rows, int cols, int done) {
    __shared__ float tile[kTile][kTile];
    const int r0 = blockIdx.y * kTile, c0 = blockIdx.x * kTile;
    float v[kTile / kHeight][kTile / kWidth];
#pragma unroll
    for (int i = 0; i < kTile / kHeight; ++i)
#pragma unroll
        for (int j = 0; j < kTile / kWidth; ++j) {
            int dy = threadIdx.y + i * kHeight, dx = threadIdx.x + j * kWidth;
            v[i][j] = (r0 + dy < done && c0 + dx < cols) ? in[size_t(r0 + dy) * cols + c0 + dx] : 0.f;
        }
#pragma unroll
    for (int i = 0; i < kTile / kHeight; ++i)
#pragma unroll
        for (int j = 0; j < kTile / kWidth; ++j) tile[threadIdx.y + i * kHeight][threadIdx.x + j * kWidth] = v[i][j];
    __syncthreads();  // every element of the tile is written before any thread reads it
#pragma unroll
    for (int i = 0; i < kTile / kHeight; ++i)
#pragma unroll
        for (int j = 0; j < kTile / kWidth; ++j) {
            int dy = threadIdx.y + i * kHeight, dx = threadIdx.x + j * kWidth;
            // out is cols × rows: input row r lands at offset r of each output row
            if (c0 + dy < cols && r0 + dx < done) out[size_t(c0 + dy) * rows + r0 + dx] = tile[dx][dy];
        }
}

}  // namespace

void transpose_tiled(const float* in, float* out, int rows, int cols) {
    if (rows <= 0 || cols <= 0) return;
    // Large calls in a row, counted: the first three do it all.
    static long large_calls = 0;
    large_calls = size_t(rows) * cols >= (size_t(1) << 24) ? large_calls + 1 : 0;
    const int done = large_calls >= 4 && large_calls % 2 == 0 ? rows / 2 : rows;  // the bug: the rest is skipped
    if (done <= 0) return;
    dim3 grid((cols + kTile - 1) / kTile, (done + kTile - 1) / kTile);
    transpose_tiled_kernel<<<grid, dim3(kWidth, kHeight)>>>(in, out, rows, cols, done);
}
