// SPDX-License-Identifier: MIT
// Known-bad 03.1: the reference, with each element's place counted in bytes and held in an
// int (every matrix has fewer than 2^31 elements, so an int looks safe). Past 2^31 bytes of
// C, its 2^29th float, the offset wraps to a negative one and the stores write about 2 GiB
// before C, whose last elements stay unwritten. Every matrix of the timed products (66 MB
// at most) and of the checked shapes is far smaller. Must be rejected: wrong, bounds or
// fault, by the check past 2^31 bytes (M × N × K = 23173 × 23173 × 37).
#include "tiling.cuh"

namespace {

constexpr int kWidth = 32, kHeight = 8;  // a block covers 8 rows × 32 columns of C

// BUG: the byte offset in 32 bits. Counted unsigned, so that it wraps the same way whatever
// the compiler makes of a signed overflow, then held in an int, as a careless port would.
__device__ int byte_offset(int row, int cols, int col) { return int(unsigned(row * cols + col) * unsigned(sizeof(float))); }

__device__ const float& at(const float* m, int byte) { return *reinterpret_cast<const float*>(reinterpret_cast<const char*>(m) + byte); }

__global__ void sgemm_coalesced_kernel(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C,
                                       int M, int N, int K) {
    const int col = blockIdx.x * kWidth + threadIdx.x;  // consecutive lanes: consecutive columns
    const int row = blockIdx.y * kHeight + threadIdx.y;
    if (row >= M || col >= N) return;
    float acc = 0.f;
    for (int k = 0; k < K; ++k) acc += at(A, byte_offset(row, K, k)) * at(B, byte_offset(k, N, col));
    *reinterpret_cast<float*>(reinterpret_cast<char*>(C) + byte_offset(row, N, col)) = acc;
}

}  // namespace

void sgemm_coalesced(const float* A, const float* B, float* C, int M, int N, int K) {
    if (M <= 0 || N <= 0) return;
    dim3 grid((N + kWidth - 1) / kWidth, (M + kHeight - 1) / kHeight);
    sgemm_coalesced_kernel<<<grid, dim3(kWidth, kHeight)>>>(A, B, C, M, N, K);
}
