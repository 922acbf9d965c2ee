// SPDX-License-Identifier: MIT
// Known-bad 02.1: one block per input row (gridDim.y = rows), each staging 256 elements of
// its row in shared memory before writing them to their output rows. Right on every shape
// of up to 65535 rows; past that the launch is refused, since gridDim.y holds at most 65535
// blocks. Must be rejected: fault, on the check of 65537 × 3.
#include "bank_conflicts.cuh"

namespace {

constexpr int kThreads = 256;  // elements of a row per block

__global__ void __launch_bounds__(kThreads)
    transpose_row_kernel(const float* __restrict__ in, float* __restrict__ out, int rows, int cols) {
    __shared__ float strip[kThreads];
    const int r = blockIdx.y, c = blockIdx.x * kThreads + threadIdx.x;
    strip[threadIdx.x] = c < cols ? in[size_t(r) * cols + c] : 0.f;
    __syncthreads();
    if (c < cols) out[size_t(c) * rows + r] = strip[threadIdx.x];
}

}  // namespace

void transpose_tiled(const float* in, float* out, int rows, int cols) {
    if (rows <= 0 || cols <= 0) return;
    dim3 grid((cols + kThreads - 1) / kThreads, rows);  // the bug: rows may exceed 65535
    transpose_row_kernel<<<grid, kThreads>>>(in, out, rows, cols);
}
