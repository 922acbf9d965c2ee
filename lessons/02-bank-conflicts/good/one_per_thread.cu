// SPDX-License-Identifier: MIT
// Known-good variant of 02.2: a padded 32 × 32 tile with one thread per element (1024
// threads a block), the textbook's first conflict-free transpose.
#include "bank_conflicts.cuh"

namespace {

constexpr int kTile = 32;

__global__ void transpose_one_each(const float* __restrict__ in, float* __restrict__ out, int rows, int cols) {
    __shared__ float tile[kTile][kTile + 1];
    const int r = blockIdx.y * kTile + threadIdx.y, c = blockIdx.x * kTile + threadIdx.x;
    if (r < rows && c < cols) tile[threadIdx.y][threadIdx.x] = in[size_t(r) * cols + c];
    __syncthreads();
    const int oc = blockIdx.x * kTile + threadIdx.y, or_ = blockIdx.y * kTile + threadIdx.x;
    if (oc < cols && or_ < rows) out[size_t(oc) * rows + or_] = tile[threadIdx.x][threadIdx.y];
}

}  // namespace

void transpose_padded(const float* in, float* out, int rows, int cols) {
    if (rows <= 0 || cols <= 0) return;
    transpose_one_each<<<dim3((cols + kTile - 1) / kTile, (rows + kTile - 1) / kTile), dim3(kTile, kTile)>>>(in, out, rows, cols);
}
