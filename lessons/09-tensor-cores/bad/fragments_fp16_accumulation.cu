// SPDX-License-Identifier: MIT
// Known-bad 09.1: the fragment kernel with an FP16 accumulator fragment. Each sum is rounded
// to 11 significant bits (u = 2^-11 where the contract allows 2^-23) and overflows past
// 65504: the inputs near FP16's largest give infinities, uniform ones of K = 1040 errors
// far past γ_K Σ|a b|. Must be rejected: wrong.
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
    wmma::fragment<wmma::accumulator, kFrag, kFrag, kFrag, __half> acc;  // the bug: FP16 sums
    wmma::fill_fragment(acc, __float2half(0.f));
    wmma::fragment<wmma::matrix_a, kFrag, kFrag, kFrag, __half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, kFrag, kFrag, kFrag, __half, wmma::row_major> b;
    for (int k0 = 0; k0 < K; k0 += kFrag) {
        wmma::load_matrix_sync(a, A + size_t(i0) * K + k0, K);
        wmma::load_matrix_sync(b, B + size_t(k0) * N + j0, N);
        wmma::mma_sync(acc, a, b, acc);
    }
    // A half accumulator cannot be stored to floats directly: through shared memory.
    __shared__ __half staging[kWarpsM * kWarpsN][kFrag * kFrag];
    __half* s = staging[threadIdx.x / 32];
    wmma::store_matrix_sync(s, acc, kFrag, wmma::mem_row_major);
    __syncwarp();
    for (int e = threadIdx.x % 32; e < kFrag * kFrag; e += 32)
        C[size_t(i0 + e / kFrag) * N + j0 + e % kFrag] = __half2float(s[e]);
}

}  // namespace

void hgemm_fragments(const __half* A, const __half* B, float* C, int M, int N, int K) {
    if (M <= 0 || N <= 0) return;
    const dim3 grid((N + kFrag * kWarpsN - 1) / (kFrag * kWarpsN), (M + kFrag * kWarpsM - 1) / (kFrag * kWarpsM));
    hgemm_fragments_kernel<<<grid, kThreads>>>(A, B, C, M, N, K);
}
