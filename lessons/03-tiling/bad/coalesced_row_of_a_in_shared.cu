// SPDX-License-Identifier: MIT
// Known-bad 03.1: one block per row of C (along gridDim.x, which holds any M) and 256
// consecutive columns of it, with the whole row of A staged in shared memory first, K
// floats of it. Right up to K = 12,288 (48 KiB, the shared memory a launch gets without
// opting in); the contract goes to K = 2^20 (kSgemmMaxK), where the launch is refused.
// Must be rejected: fault, on the check of 2 × 3 × 1,048,576.
#include "tiling.cuh"

namespace {

constexpr int kThreads = 256;  // columns of C per block

__global__ void __launch_bounds__(kThreads)
    sgemm_row_kernel(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M, int N, int K) {
    extern __shared__ float a_row[];  // the bug: K floats, for any K
    const int row = blockIdx.x, col = blockIdx.y * kThreads + threadIdx.x;
    for (int k = threadIdx.x; k < K; k += kThreads) a_row[k] = A[size_t(row) * K + k];
    __syncthreads();
    if (col >= N) return;
    float acc = 0.f;
    for (int k = 0; k < K; ++k) acc += a_row[k] * B[size_t(k) * N + col];
    C[size_t(row) * N + col] = acc;
}

}  // namespace

void sgemm_coalesced(const float* A, const float* B, float* C, int M, int N, int K) {
    if (M <= 0 || N <= 0) return;
    dim3 grid(M, (N + kThreads - 1) / kThreads);
    sgemm_row_kernel<<<grid, kThreads, size_t(K) * sizeof(float)>>>(A, B, C, M, N, K);
}
