// SPDX-License-Identifier: MIT
// Contract: lessons/02-bank-conflicts/contract/bank_conflicts.cuh · test: meson test -C build lesson02 --test-args='-tc=02.1*'
// Exercise 02.1 — transpose through a shared-memory tile (theory: "The transpose through a tile").
// This is the naive transpose. Its reads are coalesced: a warp takes 32 consecutive
// floats of one input row. Its writes are not: the same 32 floats go to 32 different
// output rows, `rows` × 4 bytes apart, so every store instruction touches 32 sectors.
#include "bank_conflicts.cuh"

namespace {

constexpr int kTile = 32;
constexpr int kWidth = 32, kHeight = 8;  // each thread handles kTile / kHeight rows

__global__ void transpose_naive_kernel(const float* in, float* out, int rows, int cols) {
    int c = blockIdx.x * kTile + threadIdx.x;
    for (int i = 0; i < kTile / kHeight; ++i) {
        int r = blockIdx.y * kTile + threadIdx.y + i * kHeight;
        if (r < rows && c < cols) out[size_t(c) * rows + r] = in[size_t(r) * cols + c];
    }
}

}  // namespace

void transpose_tiled(const float* in, float* out, int rows, int cols) {
    // TODO(02.1): stage a tile of the input in shared memory. Let the block read it row by
    // row (coalesced), synchronize, then let each warp write one row of the *output* tile
    // (a column of the shared tile) so that the global writes are coalesced too. Keep the
    // bounds checks for the edge tiles: rows and cols are not multiples of the tile.
    // Moving several elements per thread keeps more loads in flight.
    if (rows <= 0 || cols <= 0) return;
    dim3 grid((cols + kTile - 1) / kTile, (rows + kTile - 1) / kTile);
    transpose_naive_kernel<<<grid, dim3(kWidth, kHeight)>>>(in, out, rows, cols);
}
