// SPDX-License-Identifier: MIT
// Known-good variant of 02.3: one thread per element (32 × 32 threads) and the XOR swizzle
// of the reference, on a 32 × 32 tile of doubles.
#include "bank_conflicts.cuh"

namespace {

constexpr int kTile = 32;

__device__ __forceinline__ int at(int y, int x) { return y * kTile + (x ^ y); }

__global__ void transpose_double_each(const double* __restrict__ in, double* __restrict__ out, int rows, int cols) {
    __shared__ double tile[kTile * kTile];
    const int r = blockIdx.y * kTile + threadIdx.y, c = blockIdx.x * kTile + threadIdx.x;
    if (r < rows && c < cols) tile[at(threadIdx.y, threadIdx.x)] = in[size_t(r) * cols + c];
    __syncthreads();
    const int oc = blockIdx.x * kTile + threadIdx.y, or_ = blockIdx.y * kTile + threadIdx.x;
    if (oc < cols && or_ < rows) out[size_t(oc) * rows + or_] = tile[at(threadIdx.x, threadIdx.y)];
}

}  // namespace

void transpose_double(const double* in, double* out, int rows, int cols) {
    if (rows <= 0 || cols <= 0) return;
    transpose_double_each<<<dim3((cols + kTile - 1) / kTile, (rows + kTile - 1) / kTile), dim3(kTile, kTile)>>>(in, out, rows, cols);
}
