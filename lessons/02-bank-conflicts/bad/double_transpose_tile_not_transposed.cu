// SPDX-License-Identifier: MIT
// Known-bad 02.3: the blocks go to their transposed places, but the tile is read back in
// the order it was written (tile[dy][dx] instead of tile[dx][dy]): every 32 × 32 block of
// the output holds the input block untransposed. Must be rejected: wrong.
#include "bank_conflicts.cuh"

namespace {
constexpr int kTile = 32;
__global__ void transpose_kernel(const double* __restrict__ in, double* __restrict__ out, int rows, int cols) {
    __shared__ double tile[kTile][kTile + 1];
    const int r0 = blockIdx.y * kTile, c0 = blockIdx.x * kTile, dx = threadIdx.x;
    for (int dy = threadIdx.y; dy < kTile; dy += 8)
        if (r0 + dy < rows && c0 + dx < cols) tile[dy][dx] = in[size_t(r0 + dy) * cols + c0 + dx];
    __syncthreads();
    for (int dy = threadIdx.y; dy < kTile; dy += 8)
        if (c0 + dy < cols && r0 + dx < rows) out[size_t(c0 + dy) * rows + r0 + dx] = tile[dy][dx];
}
}  // namespace

void transpose_double(const double* in, double* out, int rows, int cols) {
    if (rows <= 0 || cols <= 0) return;
    transpose_kernel<<<dim3((cols + kTile - 1) / kTile, (rows + kTile - 1) / kTile), dim3(32, 8)>>>(in, out, rows,
                                                                                                    cols);
}
