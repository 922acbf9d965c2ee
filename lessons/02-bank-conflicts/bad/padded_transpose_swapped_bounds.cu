// SPDX-License-Identifier: MIT
// Known-bad 02.2: padded, but the write-back reuses the read's bounds check, written for
// the input's shape. Right on square matrices whose sides are multiples of the tile; on
// the others the edge tiles write elements that do not exist and skip some that do (on a
// tall matrix, 37 × 1, far past the end of out: the unmapped page). Must be rejected:
// wrong, bounds or fault.
#include "bank_conflicts.cuh"

namespace {
constexpr int kTile = 64;
__global__ void transpose_kernel(const float* __restrict__ in, float* __restrict__ out, int rows, int cols) {
    __shared__ float tile[kTile][kTile + 1];
    const int r0 = blockIdx.y * kTile, c0 = blockIdx.x * kTile;
    for (int i = 0; i < kTile / 8; ++i)
        for (int j = 0; j < kTile / 32; ++j) {
            int dy = threadIdx.y + i * 8, dx = threadIdx.x + j * 32;
            if (r0 + dy < rows && c0 + dx < cols) tile[dy][dx] = in[size_t(r0 + dy) * cols + c0 + dx];
        }
    __syncthreads();
    for (int i = 0; i < kTile / 8; ++i)
        for (int j = 0; j < kTile / 32; ++j) {
            int dy = threadIdx.y + i * 8, dx = threadIdx.x + j * 32;
            if (r0 + dy < rows && c0 + dx < cols) out[size_t(c0 + dy) * rows + r0 + dx] = tile[dx][dy];
        }
}
}  // namespace

void transpose_padded(const float* in, float* out, int rows, int cols) {
    if (rows <= 0 || cols <= 0) return;
    transpose_kernel<<<dim3((cols + kTile - 1) / kTile, (rows + kTile - 1) / kTile), dim3(32, 8)>>>(in, out, rows,
                                                                                                    cols);
}
