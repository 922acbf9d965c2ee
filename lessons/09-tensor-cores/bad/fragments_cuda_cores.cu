// SPDX-License-Identifier: MIT
// Known-bad 09.1: correct, and much faster than the starter, but not on the tensor cores:
// lesson 03's register-blocked FP32 kernel (8 × 8 outputs a thread) on the halves converted
// to float. Must be rejected: technique (no HMMA in the kernel that ran, technique.txt), or
// slow where the tensor cores' lead over FP32 FMAs is large enough.
#include "tensor_cores.cuh"

namespace {

constexpr int kBM = 128, kBN = 128, kBK = 16;        // the block's tile of C, and its step along K
constexpr int kTM = 8, kTN = 8;                      // each thread's patch of C
constexpr int kThreads = (kBM / kTM) * (kBN / kTN);  // 256
constexpr int kPadA = 4;  // keeps float4 alignment and spreads the transposing stores of A over the banks

__global__ void __launch_bounds__(kThreads, 2)
    hgemm_cuda_cores_kernel(const __half* __restrict__ A, const __half* __restrict__ B, float* __restrict__ C, int M,
                           int N, int K) {
    // A's tile is stored k-major (transposed), so that the 8 rows a thread needs at one k
    // are contiguous: two float4 reads instead of eight scalar ones.
    __shared__ __align__(16) float As[kBK][kBM + kPadA];
    __shared__ __align__(16) float Bs[kBK][kBN];
    const int tid = threadIdx.x;
    const int tx = tid % (kBN / kTN), ty = tid / (kBN / kTN);  // position in the 16 × 16 grid of patches
    const int row0 = blockIdx.y * kBM, col0 = blockIdx.x * kBN;

    //! [accumulators]
    // Every index into acc, a and b below is a compile-time constant once the loops are
    // unrolled, so the compiler keeps all of them in registers (no local memory).
    float acc[kTM][kTN] = {};
    //! [accumulators]

    for (int k0 = 0; k0 < K; k0 += kBK) {
        // A: 128 rows × 16 columns, 8 per thread. A warp loads 4 rows × 8 consecutive
        // columns (four full 32-byte sectors); the transposed stores then hit 32 banks.
#pragma unroll
        for (int p = 0; p < kBM * kBK / kThreads; ++p) {
            const int m = tid / 8 + 32 * (p / 2), k = tid % 8 + 8 * (p % 2);
            const int r = row0 + m, kk = k0 + k;
            As[k][m] = (r < M && kk < K) ? __half2float(A[size_t(r) * K + kk]) : 0.f;
        }
        // B: 16 rows × 128 columns, 8 per thread; a warp loads 32 consecutive floats of a row.
#pragma unroll
        for (int p = 0; p < kBK * kBN / kThreads; ++p) {
            const int k = tid / kBN + (kThreads / kBN) * p, n = tid % kBN;
            const int kk = k0 + k, c = col0 + n;
            Bs[k][n] = (kk < K && c < N) ? __half2float(B[size_t(kk) * N + c]) : 0.f;
        }
        __syncthreads();
        //! [register_blocking]
#pragma unroll
        for (int k = 0; k < kBK; ++k) {
            // The thread's rows are 4ty..4ty+3 and 64+4ty..64+4ty+3 (columns likewise with
            // tx), so the 16 threads along a row of patches read 16 consecutive float4s.
            const float4 a0 = *reinterpret_cast<const float4*>(&As[k][4 * ty]);
            const float4 a1 = *reinterpret_cast<const float4*>(&As[k][kBM / 2 + 4 * ty]);
            const float4 b0 = *reinterpret_cast<const float4*>(&Bs[k][4 * tx]);
            const float4 b1 = *reinterpret_cast<const float4*>(&Bs[k][kBN / 2 + 4 * tx]);
            const float a[kTM] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
            const float b[kTN] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
            for (int i = 0; i < kTM; ++i)
#pragma unroll
                for (int j = 0; j < kTN; ++j) acc[i][j] += a[i] * b[j];
        }
        //! [register_blocking]
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < kTM; ++i) {
        const int r = row0 + (i < 4 ? 4 * ty + i : kBM / 2 + 4 * ty + i - 4);
#pragma unroll
        for (int j = 0; j < kTN; ++j) {
            const int c = col0 + (j < 4 ? 4 * tx + j : kBN / 2 + 4 * tx + j - 4);
            if (r < M && c < N) C[size_t(r) * N + c] = acc[i][j];
        }
    }
}

}  // namespace

void hgemm_fragments(const __half* A, const __half* B, float* C, int M, int N, int K) {
    if (M <= 0 || N <= 0) return;
    dim3 grid((N + kBN - 1) / kBN, (M + kBM - 1) / kBM);
    hgemm_cuda_cores_kernel<<<grid, kThreads>>>(A, B, C, M, N, K);
}
