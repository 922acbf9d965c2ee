// SPDX-License-Identifier: MIT
// Known-bad 02.1: the reference tile, whose launcher forgets that a matrix may be empty
// (the contract allows rows = 0 and cols = 0): it launches a grid with no blocks along one
// side, which CUDA refuses as an invalid configuration. Must be rejected: fault, on the
// checks of 0 × 5 and 5 × 0.
#include "bank_conflicts.cuh"

namespace {

constexpr int kTile = 64;                // the tile is kTile × kTile elements
constexpr int kWidth = 32, kHeight = 8;  // threads per block: one warp per tile row
constexpr int kThreads = kWidth * kHeight;

__global__ void __launch_bounds__(kThreads)
    transpose_tiled_kernel(const float* __restrict__ in, float* __restrict__ out, int rows, int cols) {
    __shared__ float tile[kTile][kTile];
    const int r0 = blockIdx.y * kTile, c0 = blockIdx.x * kTile;
    float v[kTile / kHeight][kTile / kWidth];
#pragma unroll
    for (int i = 0; i < kTile / kHeight; ++i)
#pragma unroll
        for (int j = 0; j < kTile / kWidth; ++j) {
            int dy = threadIdx.y + i * kHeight, dx = threadIdx.x + j * kWidth;
            v[i][j] = (r0 + dy < rows && c0 + dx < cols) ? in[size_t(r0 + dy) * cols + c0 + dx] : 0.f;
        }
#pragma unroll
    for (int i = 0; i < kTile / kHeight; ++i)
#pragma unroll
        for (int j = 0; j < kTile / kWidth; ++j) tile[threadIdx.y + i * kHeight][threadIdx.x + j * kWidth] = v[i][j];
    __syncthreads();
#pragma unroll
    for (int i = 0; i < kTile / kHeight; ++i)
#pragma unroll
        for (int j = 0; j < kTile / kWidth; ++j) {
            int dy = threadIdx.y + i * kHeight, dx = threadIdx.x + j * kWidth;
            if (c0 + dy < cols && r0 + dx < rows) out[size_t(c0 + dy) * rows + r0 + dx] = tile[dx][dy];
        }
}

}  // namespace

void transpose_tiled(const float* in, float* out, int rows, int cols) {
    // the bug: no early return for an empty matrix, so one side of the grid is 0 blocks
    dim3 grid((cols + kTile - 1) / kTile, (rows + kTile - 1) / kTile);
    transpose_tiled_kernel<<<grid, dim3(kWidth, kHeight)>>>(in, out, rows, cols);
}
