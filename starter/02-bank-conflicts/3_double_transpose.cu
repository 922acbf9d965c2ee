// SPDX-License-Identifier: MIT
// Contract: lessons/02-bank-conflicts/contract/bank_conflicts.cuh · test: meson test -C build lesson02 --test-args='-tc=02.3*'
// Exercise 02.3 — the transpose with 8-byte elements (theory: "8-byte words").
// This is the naive transpose again, for doubles: reads coalesced, writes 32 rows apart.
// A double is twice as wide as a float, so each scattered store uses 8 of the 32 bytes of
// its sector instead of 4: less waste than for floats, still far from the copy ceiling.
#include "bank_conflicts.cuh"

namespace {

constexpr int kTile = 32;
constexpr int kWidth = 32, kHeight = 8;

__global__ void transpose_naive_kernel(const double* in, double* out, int rows, int cols) {
    int c = blockIdx.x * kTile + threadIdx.x;
    for (int i = 0; i < kTile / kHeight; ++i) {
        int r = blockIdx.y * kTile + threadIdx.y + i * kHeight;
        if (r < rows && c < cols) out[size_t(c) * rows + r] = in[size_t(r) * cols + c];
    }
}

}  // namespace

void transpose_double(const double* in, double* out, int rows, int cols) {
    // TODO(02.3): transpose through a shared tile of doubles, as in 02.1 and 02.2. Before
    // reusing the float layout, work out which banks a column of the tile touches: a double
    // covers two banks, and a warp's 32 doubles (256 bytes) need at least two wavefronts.
    // The two tables of exercise 02.0 show what each layout costs on your GPU.
    if (rows <= 0 || cols <= 0) return;
    dim3 grid((cols + kTile - 1) / kTile, (rows + kTile - 1) / kTile);
    transpose_naive_kernel<<<grid, dim3(kWidth, kHeight)>>>(in, out, rows, cols);
}
