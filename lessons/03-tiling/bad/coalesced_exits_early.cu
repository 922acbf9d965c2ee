// SPDX-License-Identifier: MIT
// Known-bad 03.1: the reference, whose launcher waits for its first launch and then ends
// the process with std::exit(0), as if a clean exit meant success. No report is sent.
// Must be rejected: policy, by the static check before the build (lessons/policy.txt);
// run, it would be rejected as crash.
#include <cstdlib>

#include "tiling.cuh"

namespace {

constexpr int kWidth = 32, kHeight = 8;  // a block covers 8 rows × 32 columns of C

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

}  // namespace

void sgemm_coalesced(const float* A, const float* B, float* C, int M, int N, int K) {
    if (M <= 0 || N <= 0) return;
    dim3 grid((N + kWidth - 1) / kWidth, (M + kHeight - 1) / kHeight);
    sgemm_coalesced_kernel<<<grid, dim3(kWidth, kHeight)>>>(A, B, C, M, N, K);
    cudaDeviceSynchronize();
    std::exit(0);  // the bug: the first call ends the process, with exit code 0
}
