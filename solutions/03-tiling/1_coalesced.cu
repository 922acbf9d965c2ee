// SPDX-License-Identifier: MIT
// Exercise 03.1 — reference. One thread per element of C, with threadIdx.x walking along a
// row of C: in each step of the k loop a warp reads one element of A (the same for all 32
// lanes: a broadcast) and 32 consecutive elements of a row of B (one 128-byte line), and
// at the end writes 32 consecutive elements of C.
#include "tiling.cuh"

namespace {

constexpr int kWidth = 32, kHeight = 8;  // a block covers 8 rows × 32 columns of C

//! [coalesced]
__global__ void sgemm_coalesced_kernel(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C,
                                       int M, int N, int K) {
    const int col = blockIdx.x * kWidth + threadIdx.x;  // consecutive lanes: consecutive columns
    const int row = blockIdx.y * kHeight + threadIdx.y;
    if (row >= M || col >= N) return;
    const float* a = A + size_t(row) * K;
    float acc = 0.f;
    for (int k = 0; k < K; ++k) acc += a[k] * B[size_t(k) * N + col];
    C[size_t(row) * N + col] = acc;
}
//! [coalesced]

}  // namespace

void sgemm_coalesced(const float* A, const float* B, float* C, int M, int N, int K) {
    if (M <= 0 || N <= 0) return;
    dim3 grid((N + kWidth - 1) / kWidth, (M + kHeight - 1) / kHeight);
    sgemm_coalesced_kernel<<<grid, dim3(kWidth, kHeight)>>>(A, B, C, M, N, K);
}
