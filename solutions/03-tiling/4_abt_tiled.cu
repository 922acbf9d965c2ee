// SPDX-License-Identifier: MIT
// Exercise 03.4 — reference: C = A · Bᵀ through shared-memory tiles. Both A and B are
// read along K, the direction in which their rows are contiguous, so both tile loads are
// coalesced; the transpose of B happens in shared memory, where the tile of B is read by
// columns and therefore padded by one column (lesson 02).
#include "tiling.cuh"

namespace {

constexpr int kTile = 32;
constexpr int kThreads = kTile * kTile;  // one thread per element of the tile

__global__ void __launch_bounds__(kThreads) sgemm_abt_kernel(const float* __restrict__ A, const float* __restrict__ B,
                                                             float* __restrict__ C, int M, int N, int K) {
    __shared__ float As[kTile][kTile];
    __shared__ float Bs[kTile][kTile + 1];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * kTile + ty, col = blockIdx.x * kTile + tx;
    //! [abt_tiles]
    // Thread (ty, tx) loads element k0 + tx of row b_row of B: a warp reads 32
    // consecutive floats of one row of B, where the naive kernel read one float from
    // each of 32 rows.
    const int b_row = blockIdx.x * kTile + ty;
    float acc = 0.f;
    for (int k0 = 0; k0 < K; k0 += kTile) {
        As[ty][tx] = (row < M && k0 + tx < K) ? A[size_t(row) * K + k0 + tx] : 0.f;
        Bs[ty][tx] = (b_row < N && k0 + tx < K) ? B[size_t(b_row) * K + k0 + tx] : 0.f;
        __syncthreads();
        // Bs[tx][k] walks down a column of the tile: 33 words per row put the 32 lanes in
        // 32 different banks.
#pragma unroll
        for (int k = 0; k < kTile; ++k) acc += As[ty][k] * Bs[tx][k];
        __syncthreads();
    }
    //! [abt_tiles]
    if (row < M && col < N) C[size_t(row) * N + col] = acc;
}

}  // namespace

void sgemm_abt(const float* A, const float* B, float* C, int M, int N, int K) {
    if (M <= 0 || N <= 0) return;
    dim3 grid((N + kTile - 1) / kTile, (M + kTile - 1) / kTile);
    sgemm_abt_kernel<<<grid, dim3(kTile, kTile)>>>(A, B, C, M, N, K);
}
