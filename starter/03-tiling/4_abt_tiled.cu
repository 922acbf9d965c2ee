// SPDX-License-Identifier: MIT
// Contract: lessons/03-tiling/contract/tiling.cuh · test: meson test -C build lesson03 --test-args='-tc=03.4*'
// Exercise 03.4 — A times B transposed (theory: "A times B transposed").
// The naive kernel for C = A · Bᵀ, with the coalesced mapping of 03.1: threadIdx.x
// selects the column j of C. But column j of C needs row j of B, so the 32 lanes of a
// warp read B at 32 addresses K floats apart: 32 sectors for 128 useful bytes.
#include "tiling.cuh"

namespace {

constexpr int kWidth = 32, kHeight = 8;

__global__ void sgemm_abt_naive_kernel(const float* A, const float* B, float* C, int M, int N, int K) {
    const int col = blockIdx.x * kWidth + threadIdx.x;
    const int row = blockIdx.y * kHeight + threadIdx.y;
    if (row >= M || col >= N) return;
    float acc = 0.f;
    for (int k = 0; k < K; ++k) acc += A[size_t(row) * K + k] * B[size_t(col) * K + k];
    C[size_t(row) * N + col] = acc;
}

}  // namespace

void sgemm_abt(const float* A, const float* B, float* C, int M, int N, int K) {
    // TODO(03.4): tile the product as in 03.2, but load the tile of B from the rows it
    // lives in: let the lanes of a warp walk along K in one row of B (coalesced), store
    // the tile in shared memory, and read it back by columns. Those column reads are the
    // bank conflicts of lesson 02: pad the tile (or swizzle it).
    if (M <= 0 || N <= 0) return;
    dim3 grid((N + kWidth - 1) / kWidth, (M + kHeight - 1) / kHeight);
    sgemm_abt_naive_kernel<<<grid, dim3(kWidth, kHeight)>>>(A, B, C, M, N, K);
}
