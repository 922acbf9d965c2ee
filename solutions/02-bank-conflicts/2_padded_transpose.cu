// SPDX-License-Identifier: MIT
// Exercise 02.2 — reference. The kernel of 02.1 with one extra column in the tile: a row
// of the tile is now 65 words, so walking down a column moves one bank per element and
// the 32 reads of a warp land in 32 different banks (one wavefront instead of 32).
#include "bank_conflicts.cuh"

namespace {

constexpr int kTile = 64;
constexpr int kWidth = 32, kHeight = 8;
constexpr int kThreads = kWidth * kHeight;

__global__ void __launch_bounds__(kThreads)
    transpose_padded_kernel(const float* __restrict__ in, float* __restrict__ out, int rows, int cols) {
    //! [padded_tile]
    // Element (y, x) of the tile sits in bank (65 y + x) mod 32 = (y + x) mod 32.
    __shared__ float tile[kTile][kTile + 1];
    //! [padded_tile]
    const int r0 = blockIdx.y * kTile, c0 = blockIdx.x * kTile;
    // All 16 loads go out before the first store to shared
    // memory (64 bytes in flight per thread). Elements outside the matrix load as zero and are never written back.
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
    for (int i = 0; i < kTile / kHeight; ++i) {
#pragma unroll
        for (int j = 0; j < kTile / kWidth; ++j) {
            int dy = threadIdx.y + i * kHeight, dx = threadIdx.x + j * kWidth;
            if (c0 + dy < cols && r0 + dx < rows) out[size_t(c0 + dy) * rows + r0 + dx] = tile[dx][dy];
        }
    }
}

}  // namespace

void transpose_padded(const float* in, float* out, int rows, int cols) {
    if (rows <= 0 || cols <= 0) return;
    dim3 grid((cols + kTile - 1) / kTile, (rows + kTile - 1) / kTile);
    transpose_padded_kernel<<<grid, dim3(kWidth, kHeight)>>>(in, out, rows, cols);
}
