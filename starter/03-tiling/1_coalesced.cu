// SPDX-License-Identifier: MIT
// Contract: lessons/03-tiling/contract/tiling.cuh · test: meson test -C build lesson03 --test-args='-tc=03.1*'
// Exercise 03.1 — coalesced thread mapping (theory: "Thread mapping").
// The naive kernel: one thread per element of C, with threadIdx.x selecting the *row*.
// The 32 lanes of a warp then read A at 32 addresses K floats apart (32 sectors per load)
// and write C at 32 addresses N floats apart, while all of them read the same element of B.
#include "tiling.cuh"

namespace {

constexpr int kWidth = 32, kHeight = 8;

__global__ void sgemm_naive_kernel(const float* A, const float* B, float* C, int M, int N, int K) {
    const int row = blockIdx.x * kWidth + threadIdx.x;
    const int col = blockIdx.y * kHeight + threadIdx.y;
    if (row >= M || col >= N) return;
    float acc = 0.f;
    for (int k = 0; k < K; ++k) acc += A[size_t(row) * K + k] * B[size_t(k) * N + col];
    C[size_t(row) * N + col] = acc;
}

}  // namespace

void sgemm_coalesced(const float* A, const float* B, float* C, int M, int N, int K) {
    // TODO(03.1): swap the roles of the thread indices so that threadIdx.x selects the
    // column: a warp then shares one element of A and reads 32 consecutive floats of a
    // row of B. Adapt the grid to the new mapping.
    if (M <= 0 || N <= 0) return;
    dim3 grid((M + kWidth - 1) / kWidth, (N + kHeight - 1) / kHeight);
    sgemm_naive_kernel<<<grid, dim3(kWidth, kHeight)>>>(A, B, C, M, N, K);
}
