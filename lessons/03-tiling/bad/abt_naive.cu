// SPDX-License-Identifier: MIT
// Known-bad 03.4: the naive A·Bᵀ kernel (the starter) submitted as the tiled one: correct,
// but a warp reads B at 32 addresses K floats apart. Must be rejected: slow.
#include "tiling.cuh"

namespace {
__global__ void kernel(const float* A, const float* B, float* C, int M, int N, int K) {
    const int col = blockIdx.x * 32 + threadIdx.x, row = blockIdx.y * 8 + threadIdx.y;
    if (row >= M || col >= N) return;
    float acc = 0.f;
    for (int k = 0; k < K; ++k) acc += A[size_t(row) * K + k] * B[size_t(col) * K + k];
    C[size_t(row) * N + col] = acc;
}
}  // namespace

void sgemm_abt(const float* A, const float* B, float* C, int M, int N, int K) {
    if (M > 0 && N > 0) kernel<<<dim3((N + 31) / 32, (M + 7) / 8), dim3(32, 8)>>>(A, B, C, M, N, K);
}
