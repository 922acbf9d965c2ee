// SPDX-License-Identifier: MIT
// Exercise 09.1 — reference: WMMA fragments from global memory. Each warp computes one
// 16 × 16 tile of C on the tensor cores: per step of 16 along K it loads a 16 × 16 fragment
// of A and one of B and issues one 16 × 16 × 16 multiply-accumulate (HMMA instructions),
// accumulating in FP32. The eight warps of a block cover 32 × 64 of C, so neighbouring
// warps read the same rows of A and columns of B, which the L1 serves.
#include <mma.h>

#include "tensor_cores.cuh"

namespace {

namespace wmma = nvcuda::wmma;

constexpr int kFrag = 16;                         // a fragment is 16 × 16 × 16
constexpr int kWarpsM = 2, kWarpsN = 4;           // the block's warps, as rows × columns of tiles
constexpr int kThreads = 32 * kWarpsM * kWarpsN;  // 256

__global__ void __launch_bounds__(kThreads) hgemm_fragments_kernel(const __half* __restrict__ A,
                                                                   const __half* __restrict__ B, float* __restrict__ C,
                                                                   int M, int N, int K) {
    const int warp = threadIdx.x / 32;
    const int i0 = (blockIdx.y * kWarpsM + warp / kWarpsN) * kFrag;
    const int j0 = (blockIdx.x * kWarpsN + warp % kWarpsN) * kFrag;
    if (i0 >= M || j0 >= N) return;  // the same for the whole warp: the fragment calls need all 32 lanes
    wmma::fragment<wmma::accumulator, kFrag, kFrag, kFrag, float> acc;
    wmma::fill_fragment(acc, 0.f);
    wmma::fragment<wmma::matrix_a, kFrag, kFrag, kFrag, __half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, kFrag, kFrag, kFrag, __half, wmma::row_major> b;
    for (int k0 = 0; k0 < K; k0 += kFrag) {
        wmma::load_matrix_sync(a, A + size_t(i0) * K + k0, K);
        wmma::load_matrix_sync(b, B + size_t(k0) * N + j0, N);
        wmma::mma_sync(acc, a, b, acc);
    }
    wmma::store_matrix_sync(C + size_t(i0) * N + j0, acc, N, wmma::mem_row_major);
}

}  // namespace

void hgemm_fragments(const __half* A, const __half* B, float* C, int M, int N, int K) {
    if (M <= 0 || N <= 0) return;
    const dim3 grid((N + kFrag * kWarpsN - 1) / (kFrag * kWarpsN), (M + kFrag * kWarpsM - 1) / (kFrag * kWarpsM));
    hgemm_fragments_kernel<<<grid, kThreads>>>(A, B, C, M, N, K);
}
