// SPDX-License-Identifier: MIT
// Exercise 03.2 — reference. A block of 32 × 32 threads computes a 32 × 32 tile of C. It
// walks along K in steps of 32: the block loads a 32 × 32 tile of A and one of B into
// shared memory (one coalesced element per thread each), synchronizes, and every thread
// takes its 32 products from shared memory. Each element loaded from global memory is
// used 32 times, so the kernel moves 32 times fewer bytes than 03.1.
#include "tiling.cuh"

namespace {

constexpr int kTile = 32;
constexpr int kThreads = kTile * kTile;  // one thread per element of the tile

__global__ void __launch_bounds__(kThreads)
    sgemm_shared_kernel(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M, int N,
                        int K) {
    __shared__ float As[kTile][kTile];
    __shared__ float Bs[kTile][kTile];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * kTile + ty, col = blockIdx.x * kTile + tx;
    float acc = 0.f;
    //! [tile_loop]
    for (int k0 = 0; k0 < K; k0 += kTile) {
        // Out-of-range elements load as zero: they add nothing to the sums, so the edge
        // tiles need no other special case.
        As[ty][tx] = (row < M && k0 + tx < K) ? A[size_t(row) * K + k0 + tx] : 0.f;
        Bs[ty][tx] = (k0 + ty < K && col < N) ? B[size_t(k0 + ty) * N + col] : 0.f;
        __syncthreads();  // the whole tile is loaded before anyone uses it
#pragma unroll
        for (int k = 0; k < kTile; ++k) acc += As[ty][k] * Bs[k][tx];
        __syncthreads();  // everyone is done with this tile before it is overwritten
    }
    //! [tile_loop]
    if (row < M && col < N) C[size_t(row) * N + col] = acc;
}

}  // namespace

void sgemm_shared(const float* A, const float* B, float* C, int M, int N, int K) {
    if (M <= 0 || N <= 0) return;
    dim3 grid((N + kTile - 1) / kTile, (M + kTile - 1) / kTile);
    sgemm_shared_kernel<<<grid, dim3(kTile, kTile)>>>(A, B, C, M, N, K);
}
