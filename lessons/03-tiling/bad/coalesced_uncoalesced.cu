// SPDX-License-Identifier: MIT
// Known-bad 03.1: the naive kernel (the starter) submitted as the coalesced one: correct,
// but threadIdx.x selects the row, so a warp reads A and writes C 32 rows apart. Must be
// rejected: slow.
#include "tiling.cuh"

namespace {
__global__ void kernel(const float* A, const float* B, float* C, int M, int N, int K) {
    const int row = blockIdx.x * 32 + threadIdx.x, col = blockIdx.y * 8 + threadIdx.y;
    if (row >= M || col >= N) return;
    float acc = 0.f;
    for (int k = 0; k < K; ++k) acc += A[size_t(row) * K + k] * B[size_t(k) * N + col];
    C[size_t(row) * N + col] = acc;
}
}  // namespace

void sgemm_coalesced(const float* A, const float* B, float* C, int M, int N, int K) {
    if (M > 0 && N > 0) kernel<<<dim3((M + 31) / 32, (N + 7) / 8), dim3(32, 8)>>>(A, B, C, M, N, K);
}
