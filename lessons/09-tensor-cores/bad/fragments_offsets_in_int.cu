// SPDX-License-Identifier: MIT
// Known-bad 09.1: the fragment reference, with the place of each warp's tile of C counted in
// bytes and held in an int (C has fewer than 2^31 elements, so an int looks safe). Past 2^31
// bytes, the 2^29th float, the offset wraps to a negative one and store_matrix_sync writes
// the tile about 2 GiB before C, whose last rows keep the poison. Every timed C is far
// smaller (68 MB), and so are the checked shapes. Must be rejected: wrong, bounds or fault,
// by the check past 2^31 bytes (M × N × K = 23184 × 23184 × 32).
#include <mma.h>

#include "tensor_cores.cuh"

namespace {

namespace wmma = nvcuda::wmma;

constexpr int kFrag = 16;                         // a fragment is 16 × 16 × 16
constexpr int kWarpsM = 2, kWarpsN = 4;           // the block's warps, as rows × columns of tiles
constexpr int kThreads = 32 * kWarpsM * kWarpsN;  // 256

// BUG: the byte offset in 32 bits. Counted unsigned, so that it wraps the same way whatever
// the compiler makes of a signed overflow, then held in an int, as a careless port would.
__device__ int byte_offset(int row, int cols, int col) { return int(unsigned(row * cols + col) * unsigned(sizeof(float))); }

__device__ float* at(float* m, int byte) { return reinterpret_cast<float*>(reinterpret_cast<char*>(m) + byte); }

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
    wmma::store_matrix_sync(at(C, byte_offset(i0, N, j0)), acc, N, wmma::mem_row_major);
}

}  // namespace

void hgemm_fragments(const __half* A, const __half* B, float* C, int M, int N, int K) {
    if (M <= 0 || N <= 0) return;
    const dim3 grid((N + kFrag * kWarpsN - 1) / (kFrag * kWarpsN), (M + kFrag * kWarpsM - 1) / (kFrag * kWarpsM));
    hgemm_fragments_kernel<<<grid, kThreads>>>(A, B, C, M, N, K);
}
