// SPDX-License-Identifier: MIT
// Known-bad 03.2: a shared tile of row offsets. It stands for an outside submission of
// issue #32: the tile loop, its two barriers, shared stores and shared loads are there, but
// the tile holds where each row of A's tile starts, not its elements; the products still
// read A and B from global memory on every trip, as the coalesced kernel does. tile-loop
// holds; but the products' math takes no value from shared memory and its operands from
// global loads of its loop: rejected [technique] (shared-fed-math, no-global-fed-math).
#include "tiling.cuh"

namespace {

constexpr int kTile = 32;

__global__ void __launch_bounds__(kTile * kTile)
    sgemm_offsets_kernel(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M, int N,
                         int K) {
    __shared__ size_t row_start[kTile];  // the decoy: offsets, not elements
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * kTile + ty, col = blockIdx.x * kTile + tx;
    float acc = 0.f;
    for (int k0 = 0; k0 < K; k0 += kTile) {
        if (tx == 0) row_start[ty] = size_t(row) * K + k0;
        __syncthreads();
        const size_t a0 = row_start[ty];
        for (int k = 0; k < kTile && k0 + k < K; ++k)
            if (row < M && col < N) acc += A[a0 + k] * B[size_t(k0 + k) * N + col];
        __syncthreads();
    }
    if (row < M && col < N) C[size_t(row) * N + col] = acc;
}

}  // namespace

void sgemm_shared(const float* A, const float* B, float* C, int M, int N, int K) {
    if (M <= 0 || N <= 0) return;
    dim3 grid((N + kTile - 1) / kTile, (M + kTile - 1) / kTile);
    sgemm_offsets_kernel<<<grid, dim3(kTile, kTile)>>>(A, B, C, M, N, K);
}
