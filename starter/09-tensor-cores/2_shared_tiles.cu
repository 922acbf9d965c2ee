// SPDX-License-Identifier: MIT
// Contract: lessons/09-tensor-cores/contract/tensor_cores.cuh · test: meson test -C build lesson09 --test-args='-tc=09.2*'
// Exercise 09.2 — block tiles in shared memory (theory: "Step 2: block tiles in shared memory").
// This is 09.1's kernel, complete and correct: each warp loads its own fragments of A and B
// from global memory, so every element of A is fetched once per 16 columns of C and every
// element of B once per 16 rows, and only the L1 and the L2 stand between those loads and
// DRAM. Sizes that are not multiples of 16 go to 09.1's starter, the FP32 CUDA-core kernel:
// a fragment load reads a whole 16 × 16 tile.
#include <mma.h>

#include "tensor_cores.cuh"

namespace {

namespace wmma = nvcuda::wmma;

constexpr int kFrag = 16;
constexpr int kWarpsM = 2, kWarpsN = 4;
constexpr int kThreads = 32 * kWarpsM * kWarpsN;
constexpr int kTile = 32;  // the CUDA-core kernel's tile

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

void hgemm_shared(const __half* A, const __half* B, float* C, int M, int N, int K) {
    // TODO(09.2): stage tiles in shared memory. Let a block of 8 warps compute a 128 × 128
    // tile of C, each warp 64 × 32 of it (4 × 2 accumulator fragments). For every step of 32
    // along K, the block copies a 128 × 32 tile of A and a 32 × 128 tile of B into __shared__
    // arrays (zeros where the tile lies past an edge of A or B), __syncthreads(), then every
    // warp loads its fragments with wmma::load_matrix_sync from shared memory and multiplies
    // them, and __syncthreads() again before the next step overwrites the tiles. Pad each
    // row by 8 halves so that the 16 rows a fragment load reads fall in different banks.
    // Store C through a small shared staging tile per warp, so that the edges can be guarded.
    if (M <= 0 || N <= 0) return;
    if (M % kFrag == 0 && N % kFrag == 0 && K % kFrag == 0) {
        const dim3 grid((N + kFrag * kWarpsN - 1) / (kFrag * kWarpsN), (M + kFrag * kWarpsM - 1) / (kFrag * kWarpsM));
        hgemm_fragments_kernel<<<grid, kThreads>>>(A, B, C, M, N, K);
    } else {
        hgemm_cuda_cores_kernel<<<dim3((N + kTile - 1) / kTile, (M + kTile - 1) / kTile), dim3(kTile, kTile)>>>(A, B, C, M,
                                                                                                                N, K);
    }
}
