// SPDX-License-Identifier: MIT
// Known-bad 03.4: a tile index off by one. The loop over the tiles along K counts from 1
// to the number of tiles instead of from 0: the first 32 columns of A and B are never
// used, and the extra last tile is all zeros. Must be rejected: wrong.
#include "tiling.cuh"

namespace {
constexpr int kTile = 32;
__global__ void kernel(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M, int N,
                       int K) {
    __shared__ float As[kTile][kTile];
    __shared__ float Bs[kTile][kTile + 1];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * kTile + ty, col = blockIdx.x * kTile + tx, b_row = blockIdx.x * kTile + ty;
    const int tiles = (K + kTile - 1) / kTile;
    float acc = 0.f;
    for (int t = 1; t <= tiles; ++t) {
        const int k0 = t * kTile;
        As[ty][tx] = (row < M && k0 + tx < K) ? A[size_t(row) * K + k0 + tx] : 0.f;
        Bs[ty][tx] = (b_row < N && k0 + tx < K) ? B[size_t(b_row) * K + k0 + tx] : 0.f;
        __syncthreads();
        for (int k = 0; k < kTile; ++k) acc += As[ty][k] * Bs[tx][k];
        __syncthreads();
    }
    if (row < M && col < N) C[size_t(row) * N + col] = acc;
}
}  // namespace

void sgemm_abt(const float* A, const float* B, float* C, int M, int N, int K) {
    if (M > 0 && N > 0)
        kernel<<<dim3((N + kTile - 1) / kTile, (M + kTile - 1) / kTile), dim3(kTile, kTile)>>>(A, B, C, M, N, K);
}
