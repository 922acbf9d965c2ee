// SPDX-License-Identifier: MIT
// Contract: lessons/03-tiling/contract/tiling.cuh · test: meson test -C build lesson03 --test-args='-tc=03.3*'
// Exercise 03.3 — thread coarsening (theory: "Thread coarsening").
// This is the shared-memory tile kernel of 03.2, complete and correct. Each thread still
// computes one element of C, so each fused multiply-add needs two loads from shared
// memory; the shared-memory pipe, not the arithmetic units, sets the pace.
#include "tiling.cuh"

namespace {

constexpr int kTile = 32;
constexpr int kThreads = kTile * kTile;  // one thread per element of the tile

__global__ void __launch_bounds__(kThreads) sgemm_tiled_kernel(const float* __restrict__ A, const float* __restrict__ B,
                                                               float* __restrict__ C, int M, int N, int K) {
    __shared__ float As[kTile][kTile];
    __shared__ float Bs[kTile][kTile];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * kTile + ty, col = blockIdx.x * kTile + tx;
    float acc = 0.f;
    for (int k0 = 0; k0 < K; k0 += kTile) {
        As[ty][tx] = (row < M && k0 + tx < K) ? A[size_t(row) * K + k0 + tx] : 0.f;
        Bs[ty][tx] = (k0 + ty < K && col < N) ? B[size_t(k0 + ty) * N + col] : 0.f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < kTile; ++k) acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < M && col < N) C[size_t(row) * N + col] = acc;
}

}  // namespace

void sgemm_coarsened(const float* A, const float* B, float* C, int M, int N, int K) {
    // TODO(03.3): give each thread several outputs. A good shape: a block of 256 threads
    // computes a 128 × 128 tile of C, each thread an 8 × 8 patch held in a float[8][8]
    // array (registers, as long as every index is a compile-time constant after
    // unrolling). Per step k along the tile, load the thread's 8 values of A and 8 of B
    // from shared memory into registers once and do all 64 multiply-adds with them.
    // Every thread then loads several elements of each tile; keep the loads coalesced.
    if (M <= 0 || N <= 0) return;
    dim3 grid((N + kTile - 1) / kTile, (M + kTile - 1) / kTile);
    sgemm_tiled_kernel<<<grid, dim3(kTile, kTile)>>>(A, B, C, M, N, K);
}
