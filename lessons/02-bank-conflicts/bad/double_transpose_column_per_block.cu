// SPDX-License-Identifier: MIT
// Known-bad 02.3: one block per input column (gridDim.y = cols), each writing one output
// row with consecutive lanes on consecutive addresses (the reads go down the column). Right
// on every shape of up to 65535 columns; past that the launch is refused, since gridDim.y
// holds at most 65535 blocks. Must be rejected: fault, on the check of 3 × 65537.
#include "bank_conflicts.cuh"

namespace {

constexpr int kThreads = 256;  // elements of an output row per block

__global__ void __launch_bounds__(kThreads)
    transpose_column_kernel(const double* __restrict__ in, double* __restrict__ out, int rows, int cols) {
    const int c = blockIdx.y, r = blockIdx.x * kThreads + threadIdx.x;
    if (r < rows) out[size_t(c) * rows + r] = in[size_t(r) * cols + c];
}

}  // namespace

void transpose_double(const double* in, double* out, int rows, int cols) {
    if (rows <= 0 || cols <= 0) return;
    dim3 grid((rows + kThreads - 1) / kThreads, cols);  // the bug: cols may exceed 65535
    transpose_column_kernel<<<grid, kThreads>>>(in, out, rows, cols);
}
