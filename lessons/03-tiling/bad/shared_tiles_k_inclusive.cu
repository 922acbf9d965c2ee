// SPDX-License-Identifier: MIT
// Known-bad 03.2: the shared-tiles reference with `<= K` in the bounds that guard the tile
// loads. Where K is not a multiple of 32 the last tile holds A(row, K) (the next row's
// first element, past the end for the last row) and B(K, col) (a row past the end of B)
// instead of zeros, and their product enters every sum: a guard value (NaN) at 1 × 1 × 1,
// the unmapped page on wider products. Must be rejected: wrong or fault.
#include "tiling.cuh"

namespace {

constexpr int kTile = 32;
constexpr int kThreads = kTile * kTile;  // one thread per element of the tile

__global__ void __launch_bounds__(kThreads)
    sgemm_shared_kernel(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M, int N,
                        int K) {
    __shared__ float As[kTile][kTile];
    __shared__ float Bs[kTile][kTile];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * kTile + ty, col = blockIdx.x * kTile + tx;
    float acc = 0.f;
    for (int k0 = 0; k0 < K; k0 += kTile) {
        // Out-of-range elements load as zero — meant to, but the bug: <= lets index K in.
        As[ty][tx] = (row < M && k0 + tx <= K) ? A[size_t(row) * K + k0 + tx] : 0.f;
        Bs[ty][tx] = (k0 + ty <= K && col < N) ? B[size_t(k0 + ty) * N + col] : 0.f;
        __syncthreads();  // the whole tile is loaded before anyone uses it
#pragma unroll
        for (int k = 0; k < kTile; ++k) acc += As[ty][k] * Bs[k][tx];
        __syncthreads();  // everyone is done with this tile before it is overwritten
    }
    if (row < M && col < N) C[size_t(row) * N + col] = acc;
}

}  // namespace

void sgemm_shared(const float* A, const float* B, float* C, int M, int N, int K) {
    if (M <= 0 || N <= 0) return;
    dim3 grid((N + kTile - 1) / kTile, (M + kTile - 1) / kTile);
    sgemm_shared_kernel<<<grid, dim3(kTile, kTile)>>>(A, B, C, M, N, K);
}
