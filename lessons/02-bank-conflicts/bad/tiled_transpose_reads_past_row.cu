// SPDX-License-Identifier: MIT
// Known-bad 02.1: the reference tile, loaded with `c <= cols` instead of `c < cols`: each
// row of an edge tile loads one element too many, never written back; in the last row it
// is in[rows · cols], one past the end. That is the unmapped page where cols is not a
// multiple of 64 and rows · cols is: the timing matrix (rows ≡ 8 mod 32, cols = 8200), not
// any check shape (there it is an unused guard value). Must be rejected: fault.
#include "bank_conflicts.cuh"

namespace {

constexpr int kTile = 64;                // the tile is kTile × kTile elements
constexpr int kWidth = 32, kHeight = 8;  // threads per block: one warp per tile row
constexpr int kThreads = kWidth * kHeight;

__global__ void __launch_bounds__(kThreads)
    transpose_tiled_kernel(const float* __restrict__ in, float* __restrict__ out, int rows, int cols) {
    __shared__ float tile[kTile][kTile];
    const int r0 = blockIdx.y * kTile, c0 = blockIdx.x * kTile;
    // Read: a warp takes 32 consecutive elements of one input row. All 16 loads go out
    // before the first store to shared memory (64 bytes in flight per thread).
    float v[kTile / kHeight][kTile / kWidth];
#pragma unroll
    for (int i = 0; i < kTile / kHeight; ++i)
#pragma unroll
        for (int j = 0; j < kTile / kWidth; ++j) {
            int dy = threadIdx.y + i * kHeight, dx = threadIdx.x + j * kWidth;
            // the bug: <= lets column `cols` in (the next row's first element, or past the end)
            v[i][j] = (r0 + dy < rows && c0 + dx <= cols) ? in[size_t(r0 + dy) * cols + c0 + dx] : 0.f;
        }
#pragma unroll
    for (int i = 0; i < kTile / kHeight; ++i)
#pragma unroll
        for (int j = 0; j < kTile / kWidth; ++j) tile[threadIdx.y + i * kHeight][threadIdx.x + j * kWidth] = v[i][j];
    __syncthreads();  // every element of the tile is written before any thread reads it
    // Write: a warp fills 32 consecutive elements of one output row, a column of the tile.
#pragma unroll
    for (int i = 0; i < kTile / kHeight; ++i) {
#pragma unroll
        for (int j = 0; j < kTile / kWidth; ++j) {
            int dy = threadIdx.y + i * kHeight, dx = threadIdx.x + j * kWidth;
            if (c0 + dy < cols && r0 + dx < rows) out[size_t(c0 + dy) * rows + r0 + dx] = tile[dx][dy];
        }
    }
}

}  // namespace

void transpose_tiled(const float* in, float* out, int rows, int cols) {
    if (rows <= 0 || cols <= 0) return;
    dim3 grid((cols + kTile - 1) / kTile, (rows + kTile - 1) / kTile);
    transpose_tiled_kernel<<<grid, dim3(kWidth, kHeight)>>>(in, out, rows, cols);
}
