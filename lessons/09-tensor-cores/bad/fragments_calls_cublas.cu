// SPDX-License-Identifier: MIT
// Known-bad 09.1: cuBLAS does the exercise (cublasGemmEx, the grader's own yardstick). Must
// be rejected: policy (policy.txt), before anything is built.
#include <cublas_v2.h>

#include "tensor_cores.cuh"

void hgemm_fragments(const __half* A, const __half* B, float* C, int M, int N, int K) {
    if (M <= 0 || N <= 0) return;
    static cublasHandle_t handle = [] {
        cublasHandle_t h;
        cublasCreate(&h);
        return h;
    }();
    const float one = 1.f, zero = 0.f;
    cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, B, CUDA_R_16F, N, A, CUDA_R_16F, K, &zero, C,
                 CUDA_R_32F, N, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
}
