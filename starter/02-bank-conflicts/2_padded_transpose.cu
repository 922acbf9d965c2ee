// SPDX-License-Identifier: MIT
// Contract: lessons/02-bank-conflicts/contract/bank_conflicts.cuh · test: meson test -C build lesson02 --test-args='-tc=02.2*'
// Exercise 02.2 — make the tile conflict-free (theory: "Padding and swizzling").
// This is the tiled transpose of 02.1, complete and correct: both global sides are
// coalesced and each thread moves 16 elements. Its weak spot is in shared memory: the
// column reads of the 64 × 64 tile hit one bank 32 times per warp instruction.
#include "bank_conflicts.cuh"

namespace {

constexpr int kTile = 64;                // the tile is kTile × kTile elements
constexpr int kWidth = 32, kHeight = 8;  // threads per block: one warp per tile row
constexpr int kThreads = kWidth * kHeight;

__global__ void __launch_bounds__(kThreads)
    transpose_unpadded_kernel(const float* __restrict__ in, float* __restrict__ out, int rows, int cols) {
    __shared__ float tile[kTile][kTile];
    const int r0 = blockIdx.y * kTile, c0 = blockIdx.x * kTile;
    // Read: a warp takes 32 consecutive elements of one input row. All 16 loads go out
    // before the first store to shared memory. Elements outside
    // the matrix load as zero and are never written back.
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
    __syncthreads();  // every element of the tile is written before any thread reads it
    // Write: a warp fills 32 consecutive elements of one output row, which is a column of
    // the tile: tile[dx][dy] for 32 consecutive dx, 64 words apart, all in one bank.
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
    // TODO(02.2): change the layout of `tile` so that the 32 elements of a tile column sit
    // in 32 different banks: one extra column (the tile becomes kTile × (kTile + 1)) or an
    // XOR swizzle of the column index. Nothing else needs to change.
    if (rows <= 0 || cols <= 0) return;
    dim3 grid((cols + kTile - 1) / kTile, (rows + kTile - 1) / kTile);
    transpose_unpadded_kernel<<<grid, dim3(kWidth, kHeight)>>>(in, out, rows, cols);
}
