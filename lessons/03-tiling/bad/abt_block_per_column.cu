// SPDX-License-Identifier: MIT
// Known-bad 03.4: one block per column j of C = A · Bᵀ (gridDim.y = N), so that the whole
// block shares row j of B, staged in shared memory a tile at a time. Right on every shape
// of up to 65535 columns; the contract goes to N = 524,280 (kSgemmMaxMN), and past 65535
// the launch is refused. Must be rejected: fault, on the check of 3 × 524,280 × 5.
#include "tiling.cuh"

namespace {

constexpr int kThreads = 256;  // rows of C per block

__global__ void __launch_bounds__(kThreads)
    sgemm_column_kernel(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M, int N,
                        int K) {
    __shared__ float b_tile[kThreads];
    const int col = blockIdx.y, row = blockIdx.x * kThreads + threadIdx.x;
    float acc = 0.f;
    for (int k0 = 0; k0 < K; k0 += kThreads) {
        b_tile[threadIdx.x] = k0 + threadIdx.x < K ? B[size_t(col) * K + k0 + threadIdx.x] : 0.f;
        __syncthreads();
        const int steps = K - k0 < kThreads ? K - k0 : kThreads;
        if (row < M)
            for (int k = 0; k < steps; ++k) acc += A[size_t(row) * K + k0 + k] * b_tile[k];
        __syncthreads();
    }
    if (row < M) C[size_t(row) * N + col] = acc;
}

}  // namespace

void sgemm_abt(const float* A, const float* B, float* C, int M, int N, int K) {
    if (M <= 0 || N <= 0) return;
    dim3 grid((M + kThreads - 1) / kThreads, N);  // the bug: N may exceed 65535
    sgemm_column_kernel<<<grid, kThreads>>>(A, B, C, M, N, K);
}
