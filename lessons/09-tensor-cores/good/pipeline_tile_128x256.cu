// SPDX-License-Identifier: MIT
// Known-good 09.3: the pipeline reference with a 128 × 256 block tile: each of the 8 warps
// computes 64 × 64 of C (4 × 4 fragments), so that every fragment of A loaded from shared
// memory feeds 4 products instead of the reference's 2, at 226 registers a thread (sm_90,
// no spills) and so one block of 8 warps per SM. A stage takes 27.1 KB, the 3 stages
// 81.4 KB: within the 99 KiB (101.4 KB) a block may have on sm_86 and sm_89. Must pass.
#include <mma.h>

#include <cstdint>

#include "tensor_cores.cuh"

namespace {

namespace wmma = nvcuda::wmma;

constexpr int kFrag = 16;
constexpr int kBM = 128, kBN = 256, kBK = 32;  // a 128 × 256 block tile
constexpr int kWarpsM = 2, kWarpsN = 4;
constexpr int kWM = kBM / kWarpsM, kWN = kBN / kWarpsN;
constexpr int kFM = kWM / kFrag, kFN = kWN / kFrag;
constexpr int kThreads = 32 * kWarpsM * kWarpsN;
constexpr int kStages = 3;
constexpr int kPad = 8;
constexpr int kLda = kBK + kPad, kLdb = kBN + kPad;
constexpr int kChunk = 8;
constexpr int kStageHalves = kBM * kLda + kBK * kLdb;  // one stage: A's tile, then B's
constexpr size_t kSharedBytes = size_t(kStages) * kStageHalves * sizeof(__half);  // 81.4 KB: dynamic

// One 16-byte chunk from global to shared memory, or 16 zero bytes when !inside.
__device__ void copy_chunk(__half* dst, const __half* src, bool inside) {
#if __CUDA_ARCH__ >= 800
    const unsigned to = unsigned(__cvta_generic_to_shared(dst));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(to), "l"(src), "r"(inside ? 16 : 0));
#else  // sm_75 has no cp.async: a plain copy through registers (the grader skips 09.3 there)
    *reinterpret_cast<uint4*>(dst) = inside ? *reinterpret_cast<const uint4*>(src) : make_uint4(0, 0, 0, 0);
#endif
}
__device__ void commit_copies() {
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.commit_group;\n" ::);
#endif
}
// Waits until at most `kInFlight` of this thread's groups of copies are still pending.
template <int kInFlight>
__device__ void wait_copies() {
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_group %0;\n" ::"n"(kInFlight));
#endif
}

// Starts the copies of step `kt` along K into `stage`: 2 chunks of A's tile and 2 of B's per thread.
__device__ void load_stage(__half* stage, const __half* A, const __half* B, int M, int N, int K, int row0, int col0,
                           int kt) {
    const int tid = threadIdx.x, k0 = kt * kBK;
    __half* as = stage;
    __half* bs = stage + kBM * kLda;
#pragma unroll
    for (int p = 0; p < kBM * kBK / kChunk / kThreads; ++p) {
        const int q = tid + p * kThreads, r = q / (kBK / kChunk), c = q % (kBK / kChunk) * kChunk;
        const bool inside = row0 + r < M && k0 + c < K;
        copy_chunk(as + r * kLda + c, inside ? A + size_t(row0 + r) * K + k0 + c : A, inside);
    }
#pragma unroll
    for (int p = 0; p < kBK * kBN / kChunk / kThreads; ++p) {
        const int q = tid + p * kThreads, r = q / (kBN / kChunk), c = q % (kBN / kChunk) * kChunk;
        const bool inside = k0 + r < K && col0 + c < N;
        copy_chunk(bs + r * kLdb + c, inside ? B + size_t(k0 + r) * N + col0 + c : B, inside);
    }
}

__global__ void __launch_bounds__(kThreads) hgemm_pipelined_kernel(const __half* __restrict__ A,
                                                                   const __half* __restrict__ B, float* __restrict__ C,
                                                                   int M, int N, int K) {
    extern __shared__ __align__(128) __half shared[];
    const int warp = threadIdx.x / 32, wm = warp / kWarpsN, wn = warp % kWarpsN;
    const int row0 = blockIdx.y * kBM, col0 = blockIdx.x * kBN;
    const int steps = (K + kBK - 1) / kBK;

    wmma::fragment<wmma::accumulator, kFrag, kFrag, kFrag, float> acc[kFM][kFN];
#pragma unroll
    for (int i = 0; i < kFM; ++i)
#pragma unroll
        for (int j = 0; j < kFN; ++j) wmma::fill_fragment(acc[i][j], 0.f);

    // The prologue: the first kStages − 1 steps in flight, one group each (empty past K, so
    // that the count of groups, which the wait below relies on, is the same in every block).
#pragma unroll
    for (int s = 0; s < kStages - 1; ++s) {
        if (s < steps) load_stage(shared + s * kStageHalves, A, B, M, N, K, row0, col0, s);
        commit_copies();
    }
    for (int kt = 0; kt < steps; ++kt) {
        wait_copies<kStages - 2>();  // this thread's copies of step kt have landed
        __syncthreads();             // everyone's have, and nobody still reads step kt − 1's stage
        const int next = kt + kStages - 1;
        if (next < steps) load_stage(shared + (next % kStages) * kStageHalves, A, B, M, N, K, row0, col0, next);
        commit_copies();
        const __half* as = shared + (kt % kStages) * kStageHalves;
        const __half* bs = as + kBM * kLda;
#pragma unroll
        for (int kk = 0; kk < kBK; kk += kFrag) {
            wmma::fragment<wmma::matrix_a, kFrag, kFrag, kFrag, __half, wmma::row_major> a[kFM];
            wmma::fragment<wmma::matrix_b, kFrag, kFrag, kFrag, __half, wmma::row_major> b[kFN];
#pragma unroll
            for (int i = 0; i < kFM; ++i) wmma::load_matrix_sync(a[i], as + (wm * kWM + i * kFrag) * kLda + kk, kLda);
#pragma unroll
            for (int j = 0; j < kFN; ++j) wmma::load_matrix_sync(b[j], bs + kk * kLdb + wn * kWN + j * kFrag, kLdb);
#pragma unroll
            for (int i = 0; i < kFM; ++i)
#pragma unroll
                for (int j = 0; j < kFN; ++j) wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
        }
    }
    // M and N are multiples of 16: a fragment of C lies wholly inside or wholly outside, and
    // its first element sits on a 64-byte boundary, so it is stored straight to C.
#pragma unroll
    for (int i = 0; i < kFM; ++i)
#pragma unroll
        for (int j = 0; j < kFN; ++j) {
            const int r = row0 + wm * kWM + i * kFrag, c = col0 + wn * kWN + j * kFrag;
            if (r < M && c < N) wmma::store_matrix_sync(C + size_t(r) * N + c, acc[i][j], N, wmma::mem_row_major);
        }
}

}  // namespace

void hgemm_pipelined(const __half* A, const __half* B, float* C, int M, int N, int K) {
    if (M <= 0 || N <= 0) return;
    // More than the 48 KB of shared memory a block gets by default: asked for once per launch
    // (cheap), since the device may change between calls of a program.
    cudaFuncSetAttribute(hgemm_pipelined_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(kSharedBytes));
    const dim3 grid((N + kBN - 1) / kBN, (M + kBM - 1) / kBM);
    hgemm_pipelined_kernel<<<grid, kThreads, kSharedBytes>>>(A, B, C, M, N, K);
}
