// SPDX-License-Identifier: MIT
// Contract: lessons/03-tiling/contract/tiling.cuh · test: meson test -C build lesson03 --test-args='-tc=03.2*'
// Exercise 03.2 — shared-memory tiles (theory: "Shared-memory tiles").
// This is the coalesced kernel of 03.1, complete and correct. Every thread reads a whole
// row of A and a whole column of B from global memory, although the 32 threads of a block
// row need the same row of A and the 8 block rows the same columns of B: each element of
// B is fetched M times in all, each element of A N times. Caches catch part of that, but
// every fetch still costs a load instruction per multiply-add.
#include "tiling.cuh"

namespace {

constexpr int kWidth = 32, kHeight = 8;

__global__ void sgemm_coalesced_kernel(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C,
                                       int M, int N, int K) {
    const int col = blockIdx.x * kWidth + threadIdx.x;
    const int row = blockIdx.y * kHeight + threadIdx.y;
    if (row >= M || col >= N) return;
    const float* a = A + size_t(row) * K;
    float acc = 0.f;
    for (int k = 0; k < K; ++k) acc += a[k] * B[size_t(k) * N + col];
    C[size_t(row) * N + col] = acc;
}

}  // namespace

void sgemm_shared(const float* A, const float* B, float* C, int M, int N, int K) {
    // TODO(03.2): let a block of T × T threads compute a T × T tile of C (T = 32, say).
    // Walk along K in steps of T: the block loads a T × T tile of A and one of B into
    // __shared__ arrays (one element per thread, coalesced, zero outside the matrices),
    // calls __syncthreads(), accumulates the T products from shared memory, and calls
    // __syncthreads() again before the next tiles overwrite these.
    if (M <= 0 || N <= 0) return;
    dim3 grid((N + kWidth - 1) / kWidth, (M + kHeight - 1) / kHeight);
    sgemm_coalesced_kernel<<<grid, dim3(kWidth, kHeight)>>>(A, B, C, M, N, K);
}
