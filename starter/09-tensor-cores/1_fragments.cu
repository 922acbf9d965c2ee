// SPDX-License-Identifier: MIT
// Contract: lessons/09-tensor-cores/contract/tensor_cores.cuh · test: meson test -C build lesson09 --test-args='-tc=09.1*'
// Exercise 09.1 — fragments (theory: "Step 1: fragments").
// This is lesson 03's shared-memory tile kernel, complete and correct, on FP16 inputs: each
// thread converts the halves it loads to float and computes one element of C with FP32
// fused multiply-adds on the CUDA cores. The tensor cores, which do a 16 × 16 × 16 product
// of halves per warp instruction, stay idle.
#include "tensor_cores.cuh"

namespace {

constexpr int kTile = 32;

// One thread per element of a 32 × 32 tile of C.
__global__ void __launch_bounds__(kTile * kTile)
    hgemm_cuda_cores_kernel(const __half* __restrict__ A, const __half* __restrict__ B, float* __restrict__ C, int M,
                            int N, int K) {
    __shared__ float As[kTile][kTile];
    __shared__ float Bs[kTile][kTile];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * kTile + ty, col = blockIdx.x * kTile + tx;
    float acc = 0.f;
    for (int k0 = 0; k0 < K; k0 += kTile) {
        As[ty][tx] = (row < M && k0 + tx < K) ? __half2float(A[size_t(row) * K + k0 + tx]) : 0.f;
        Bs[ty][tx] = (k0 + ty < K && col < N) ? __half2float(B[size_t(k0 + ty) * N + col]) : 0.f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < kTile; ++k) acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < M && col < N) C[size_t(row) * N + col] = acc;
}

}  // namespace

void hgemm_fragments(const __half* A, const __half* B, float* C, int M, int N, int K) {
    // TODO(09.1): compute C on the tensor cores (#include <mma.h>, namespace nvcuda::wmma).
    // Give each warp one 16 × 16 tile of C: a wmma::fragment<wmma::accumulator, 16, 16, 16,
    // float> filled with zeros, then for every k0 in steps of 16 load a matrix_a fragment
    // (16 × 16 of A from row i0, column k0, leading dimension K) and a matrix_b fragment
    // (16 × 16 of B from row k0, column j0, leading dimension N), both row_major, and
    // wmma::mma_sync them into the accumulator. Store it with wmma::store_matrix_sync
    // (leading dimension N, wmma::mem_row_major). M, N and K are multiples of 16 here, so no
    // tile is partial; let the block's warps share rows and columns of C, so that the L1
    // catches their common loads.
    if (M <= 0 || N <= 0) return;
    hgemm_cuda_cores_kernel<<<dim3((N + kTile - 1) / kTile, (M + kTile - 1) / kTile), dim3(kTile, kTile)>>>(A, B, C, M,
                                                                                                            N, K);
}
