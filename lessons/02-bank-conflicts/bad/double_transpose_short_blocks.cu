// SPDX-License-Identifier: MIT
// Known-bad 02.3: a padded double tile 32 columns wide but only 4 rows tall, so the grid has one block per 4 input rows along gridDim.y. Right up to 262,140
// rows (65535 × 4); the contract goes to 524,280 (kTransposeMaxSide), where the launch is
// refused. Must be rejected: fault, on the check of 524,280 × 3.
#include "bank_conflicts.cuh"

namespace {

constexpr int kTileCols = 32, kTileRows = 4;  // a tile of 4 input rows × 32 columns
constexpr int kThreads = kTileCols * kTileRows;

__global__ void __launch_bounds__(kThreads)
    transpose_double_kernel(const double* __restrict__ in, double* __restrict__ out, int rows, int cols) {
    __shared__ double tile[kTileRows][kTileCols + 1];
    const int r0 = blockIdx.y * kTileRows, c0 = blockIdx.x * kTileCols;
    const int dx = threadIdx.x % kTileCols, dy = threadIdx.x / kTileCols;
    if (r0 + dy < rows && c0 + dx < cols) tile[dy][dx] = in[size_t(r0 + dy) * cols + c0 + dx];
    __syncthreads();
    // Write: thread (ox, oy) of the output tile, 4 consecutive elements of each output row.
    const int ox = threadIdx.x % kTileRows, oy = threadIdx.x / kTileRows;
    if (c0 + oy < cols && r0 + ox < rows) out[size_t(c0 + oy) * rows + r0 + ox] = tile[ox][oy];
}

}  // namespace

void transpose_double(const double* in, double* out, int rows, int cols) {
    if (rows <= 0 || cols <= 0) return;
    dim3 grid((cols + kTileCols - 1) / kTileCols, (rows + kTileRows - 1) / kTileRows);  // the bug: > 65535 past 262,140 rows
    transpose_double_kernel<<<grid, kThreads>>>(in, out, rows, cols);
}
