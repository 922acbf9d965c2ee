// SPDX-License-Identifier: MIT
// Known-bad variant of 02.3: the float tile reused for doubles without padding. A column
// read of the 32 × 32-double tile puts the 16 lanes of each half-warp on one bank pair: 16
// wavefronts where the reference needs one. Large matrices may hide it behind the DRAM;
// the grade on a matrix the L2 holds must not (reject: slow).
#include "bank_conflicts.cuh"

namespace {

constexpr int kTile = 32, kRows = 8;

__global__ void transpose_double_unpadded(const double* __restrict__ in, double* __restrict__ out, int rows, int cols) {
    __shared__ double tile[kTile][kTile];
    const int r0 = blockIdx.y * kTile, c0 = blockIdx.x * kTile;
    for (int y = threadIdx.y; y < kTile; y += kRows)
        if (r0 + y < rows && c0 + threadIdx.x < cols) tile[y][threadIdx.x] = in[size_t(r0 + y) * cols + c0 + threadIdx.x];
    __syncthreads();
    for (int y = threadIdx.y; y < kTile; y += kRows)
        if (c0 + y < cols && r0 + threadIdx.x < rows) out[size_t(c0 + y) * rows + r0 + threadIdx.x] = tile[threadIdx.x][y];
}

}  // namespace

void transpose_double(const double* in, double* out, int rows, int cols) {
    if (rows <= 0 || cols <= 0) return;
    transpose_double_unpadded<<<dim3((cols + kTile - 1) / kTile, (rows + kTile - 1) / kTile), dim3(kTile, kRows)>>>(in, out, rows,
                                                                                                                   cols);
}
