// SPDX-License-Identifier: MIT
// Exercise 09.2 — reference: block tiles in shared memory. A block of 8 warps computes a
// 128 × 128 tile of C, each warp 64 × 32 of it (4 × 2 accumulator fragments). Per step of
// 32 along K the block copies a 128 × 32 tile of A and a 32 × 128 tile of B into shared
// memory once, and every warp loads its fragments from there: each element fetched from
// global memory feeds 4 (A) or 2 (B) fragments of a warp and 2 or 4 warps, instead of one.
// The rows of both tiles are padded by 8 halves (16 bytes), so the 16 rows a fragment load
// reads start in different banks. Any size: what lies past the edges of A and B is zero in
// the tiles, and C is written through a per-warp staging tile with its edges guarded.
#include <mma.h>

#include <cstdint>

#include "tensor_cores.cuh"

namespace {

namespace wmma = nvcuda::wmma;

constexpr int kFrag = 16;
constexpr int kBM = 128, kBN = 128, kBK = 32;     // the block's tile of C, and its step along K
constexpr int kWarpsM = 2, kWarpsN = 4;           // the warps, as rows × columns of the block tile
constexpr int kWM = kBM / kWarpsM, kWN = kBN / kWarpsN;  // each warp's 64 × 32 of C
constexpr int kFM = kWM / kFrag, kFN = kWN / kFrag;      // its 4 × 2 fragments
constexpr int kThreads = 32 * kWarpsM * kWarpsN;         // 256
constexpr int kPad = 8;  // halves: 16 bytes, keeps rows 16-byte aligned and moves each row 4 banks on
constexpr int kLda = kBK + kPad, kLdb = kBN + kPad;
constexpr int kLdc = kFrag + 4;  // floats: the staging tile's rows, a multiple of 4 as WMMA requires
constexpr int kChunk = 8;        // halves per 16-byte copy

// Copies 8 halves from row `r`, columns c … c + 7 of a rows × cols matrix into `dst`, zero
// where they lie outside it: one 16-byte load when the whole chunk is inside and aligned.
__device__ void load_chunk(__half* dst, const __half* src, int rows, int cols, int r, int c, bool aligned) {
    const __half* p = src + size_t(r) * cols + c;
    if (r < rows && c + kChunk <= cols && aligned) {
        *reinterpret_cast<uint4*>(dst) = *reinterpret_cast<const uint4*>(p);
        return;
    }
#pragma unroll
    for (int e = 0; e < kChunk; ++e) dst[e] = (r < rows && c + e < cols) ? p[e] : __float2half(0.f);
}

__global__ void __launch_bounds__(kThreads) hgemm_shared_kernel(const __half* __restrict__ A,
                                                                const __half* __restrict__ B, float* __restrict__ C,
                                                                int M, int N, int K) {
    __shared__ __align__(32) __half As[kBM][kLda];
    __shared__ __align__(32) __half Bs[kBK][kLdb];
    __shared__ __align__(32) float staging[kWarpsM * kWarpsN][kFrag][kLdc];
    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    const int wm = warp / kWarpsN, wn = warp % kWarpsN;
    const int row0 = blockIdx.y * kBM, col0 = blockIdx.x * kBN;
    // 16-byte loads need every row to start on a 16-byte boundary (the buffers are aligned).
    const bool a_aligned = K % kChunk == 0, b_aligned = N % kChunk == 0;

    wmma::fragment<wmma::accumulator, kFrag, kFrag, kFrag, float> acc[kFM][kFN];
#pragma unroll
    for (int i = 0; i < kFM; ++i)
#pragma unroll
        for (int j = 0; j < kFN; ++j) wmma::fill_fragment(acc[i][j], 0.f);

    for (int k0 = 0; k0 < K; k0 += kBK) {
        // A: 128 rows × 4 chunks, B: 32 rows × 16 chunks; 2 chunks of each per thread. A warp
        // reads 8 rows of A's tile (64 bytes each) or 2 rows of B's (256 bytes each).
#pragma unroll
        for (int p = 0; p < kBM * kBK / kChunk / kThreads; ++p) {
            const int q = tid + p * kThreads, r = q / (kBK / kChunk), c = q % (kBK / kChunk) * kChunk;
            load_chunk(&As[r][c], A, M, K, row0 + r, k0 + c, a_aligned);
        }
#pragma unroll
        for (int p = 0; p < kBK * kBN / kChunk / kThreads; ++p) {
            const int q = tid + p * kThreads, r = q / (kBN / kChunk), c = q % (kBN / kChunk) * kChunk;
            load_chunk(&Bs[r][c], B, K, N, k0 + r, col0 + c, b_aligned);
        }
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < kBK; kk += kFrag) {
            wmma::fragment<wmma::matrix_a, kFrag, kFrag, kFrag, __half, wmma::row_major> a[kFM];
            wmma::fragment<wmma::matrix_b, kFrag, kFrag, kFrag, __half, wmma::row_major> b[kFN];
#pragma unroll
            for (int i = 0; i < kFM; ++i) wmma::load_matrix_sync(a[i], &As[wm * kWM + i * kFrag][kk], kLda);
#pragma unroll
            for (int j = 0; j < kFN; ++j) wmma::load_matrix_sync(b[j], &Bs[kk][wn * kWN + j * kFrag], kLdb);
#pragma unroll
            for (int i = 0; i < kFM; ++i)
#pragma unroll
                for (int j = 0; j < kFN; ++j) wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
        }
        __syncthreads();  // the next step overwrites the tiles
    }

    // Each fragment goes through the warp's staging tile, so that the edges of C are guarded
    // element by element (a fragment store writes all 16 × 16).
    float(*s)[kLdc] = staging[warp];
#pragma unroll
    for (int i = 0; i < kFM; ++i)
#pragma unroll
        for (int j = 0; j < kFN; ++j) {
            wmma::store_matrix_sync(&s[0][0], acc[i][j], kLdc, wmma::mem_row_major);
            __syncwarp();
            const int r0 = row0 + wm * kWM + i * kFrag, c0 = col0 + wn * kWN + j * kFrag;
            // Lane l writes column l % 16 of rows l / 16, l / 16 + 2, …: 64-byte row pieces.
            for (int e = lane; e < kFrag * kFrag; e += 32) {
                const int r = r0 + e / kFrag, c = c0 + e % kFrag;
                if (r < M && c < N) C[size_t(r) * N + c] = s[e / kFrag][e % kFrag];
            }
            __syncwarp();
        }
}

}  // namespace

void hgemm_shared(const __half* A, const __half* B, float* C, int M, int N, int K) {
    if (M <= 0 || N <= 0) return;
    const dim3 grid((N + kBN - 1) / kBN, (M + kBM - 1) / kBM);
    hgemm_shared_kernel<<<grid, kThreads>>>(A, B, C, M, N, K);
}
