// SPDX-License-Identifier: MIT
// Known-bad 03.3: the shared-memory tile kernel of 03.2 (one output per thread) submitted
// as the coarsened one. Correct, but two shared-memory loads per multiply-add. Must be
// rejected: slow.
#include "tiling.cuh"

namespace {
constexpr int kTile = 32;
constexpr int kThreads = kTile * kTile;  // one thread per element of the tile
__global__ void __launch_bounds__(kThreads)
    kernel(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M, int N, int K) {
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
    if (M > 0 && N > 0)
        kernel<<<dim3((N + kTile - 1) / kTile, (M + kTile - 1) / kTile), dim3(kTile, kTile)>>>(A, B, C, M, N, K);
}
