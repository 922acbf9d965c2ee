// SPDX-License-Identifier: MIT
// Known-bad 03.1: the coalesced mapping of the reference with blocks of 32 columns × 4
// rows of C, so the grid has one block per 4 rows along gridDim.y. Right up to M = 262,140
// (65535 × 4); the contract goes to 524,280 (kSgemmMaxMN), where the launch is refused.
// Must be rejected: fault, on the check of 524,280 × 3 × 5.
#include "tiling.cuh"

namespace {

constexpr int kWidth = 32, kHeight = 4;  // a block covers 4 rows × 32 columns of C

__global__ void sgemm_coalesced_kernel(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C,
                                       int M, int N, int K) {
    const int col = blockIdx.x * kWidth + threadIdx.x;
    const int row = blockIdx.y * kHeight + threadIdx.y;
    if (row >= M || col >= N) return;
    const float* a = A + size_t(row) * K;
    float acc = 0.f;
    for (int k = 0; k < K; ++k) acc += a[k] * B[size_t(k) * N + col];
    C[size_t(row) * N + col] = acc;
}

}  // namespace

void sgemm_coalesced(const float* A, const float* B, float* C, int M, int N, int K) {
    if (M <= 0 || N <= 0) return;
    dim3 grid((N + kWidth - 1) / kWidth, (M + kHeight - 1) / kHeight);  // the bug: > 65535 past 262,140 rows
    sgemm_coalesced_kernel<<<grid, dim3(kWidth, kHeight)>>>(A, B, C, M, N, K);
}
