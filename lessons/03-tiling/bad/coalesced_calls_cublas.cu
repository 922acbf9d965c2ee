// SPDX-License-Identifier: MIT
// Known-bad 03.1: a launcher that hands the product to cuBLAS SGEMM, the grader's own
// ceiling. Run, it would be correct and as fast as the ceiling, and pass: only the static
// policy check can reject it, and it must, before the build (lessons/03-tiling/policy.txt).
// Must be rejected: policy.
#include <cublas_v2.h>

#include "tiling.cuh"

void sgemm_coalesced(const float* A, const float* B, float* C, int M, int N, int K) {
    static cublasHandle_t handle = [] {
        cublasHandle_t h = nullptr;
        cublasCreate(&h);
        return h;
    }();
    const float one = 1.f, zero = 0.f;
    // Row-major C = A B is column-major C^T = B^T A^T: B first, leading dimensions N, K, N.
    if (M > 0 && N > 0) cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, B, N, A, K, &zero, C, N);
}
