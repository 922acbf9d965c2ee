// SPDX-License-Identifier: MIT
// Known-good variant of 02.2: the classic 32 × 32 tile with one padding column, 32 × 8
// threads moving four elements each. Not the reference's shape (64 × 64): it must pass too.
#include "bank_conflicts.cuh"

namespace {

constexpr int kTile = 32, kRows = 8;

__global__ void transpose_32(const float* __restrict__ in, float* __restrict__ out, int rows, int cols) {
    __shared__ float tile[kTile][kTile + 1];
    const int r0 = blockIdx.y * kTile, c0 = blockIdx.x * kTile;
    for (int y = threadIdx.y; y < kTile; y += kRows)
        if (r0 + y < rows && c0 + threadIdx.x < cols) tile[y][threadIdx.x] = in[size_t(r0 + y) * cols + c0 + threadIdx.x];
    __syncthreads();
    for (int y = threadIdx.y; y < kTile; y += kRows)
        if (c0 + y < cols && r0 + threadIdx.x < rows) out[size_t(c0 + y) * rows + r0 + threadIdx.x] = tile[threadIdx.x][y];
}

}  // namespace

void transpose_padded(const float* in, float* out, int rows, int cols) {
    if (rows <= 0 || cols <= 0) return;
    transpose_32<<<dim3((cols + kTile - 1) / kTile, (rows + kTile - 1) / kTile), dim3(kTile, kRows)>>>(in, out, rows, cols);
}
