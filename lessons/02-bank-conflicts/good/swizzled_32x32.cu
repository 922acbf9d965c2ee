// SPDX-License-Identifier: MIT
// Known-good variant of 02.2: no padding but an XOR swizzle. Element (y, x) of the 32 × 32
// tile is stored at column x ^ y of row y, so a column read (x fixed, y = lane) touches
// banks x ^ 0 … x ^ 31: all 32, once each.
#include "bank_conflicts.cuh"

namespace {

constexpr int kTile = 32, kRows = 8;

__device__ __forceinline__ int at(int y, int x) { return y * kTile + (x ^ y); }

__global__ void transpose_swizzled(const float* __restrict__ in, float* __restrict__ out, int rows, int cols) {
    __shared__ float tile[kTile * kTile];
    const int r0 = blockIdx.y * kTile, c0 = blockIdx.x * kTile;
    for (int y = threadIdx.y; y < kTile; y += kRows)
        if (r0 + y < rows && c0 + threadIdx.x < cols) tile[at(y, threadIdx.x)] = in[size_t(r0 + y) * cols + c0 + threadIdx.x];
    __syncthreads();
    for (int y = threadIdx.y; y < kTile; y += kRows)
        if (c0 + y < cols && r0 + threadIdx.x < rows) out[size_t(c0 + y) * rows + r0 + threadIdx.x] = tile[at(threadIdx.x, y)];
}

}  // namespace

void transpose_padded(const float* in, float* out, int rows, int cols) {
    if (rows <= 0 || cols <= 0) return;
    transpose_swizzled<<<dim3((cols + kTile - 1) / kTile, (rows + kTile - 1) / kTile), dim3(kTile, kRows)>>>(in, out, rows, cols);
}
