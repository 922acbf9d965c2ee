// SPDX-License-Identifier: MIT
// Known-bad 03.2: the tiled kernel without the second __syncthreads(), the one that keeps a
// fast warp from overwriting the tiles while slower warps still read them. A race, but
// the latency of the next global loads usually lets the slow warps finish first, so the
// results tend to come out right. Only racecheck reliably rejects it (as fault); its test
// runs under compute-sanitizer.
#include "tiling.cuh"

namespace {
constexpr int kTile = 32;
__global__ void kernel(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M, int N,
                       int K) {
    __shared__ float As[kTile][kTile];
    __shared__ float Bs[kTile][kTile];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * kTile + ty, col = blockIdx.x * kTile + tx;
    float acc = 0.f;
    for (int k0 = 0; k0 < K; k0 += kTile) {
        As[ty][tx] = (row < M && k0 + tx < K) ? A[size_t(row) * K + k0 + tx] : 0.f;
        Bs[ty][tx] = (k0 + ty < K && col < N) ? B[size_t(k0 + ty) * N + col] : 0.f;
        __syncthreads();
        for (int k = 0; k < kTile; ++k) acc += As[ty][k] * Bs[k][tx];
        // missing: __syncthreads();
    }
    if (row < M && col < N) C[size_t(row) * N + col] = acc;
}
}  // namespace

void sgemm_shared(const float* A, const float* B, float* C, int M, int N, int K) {
    if (M > 0 && N > 0)
        kernel<<<dim3((N + kTile - 1) / kTile, (M + kTile - 1) / kTile), dim3(kTile, kTile)>>>(A, B, C, M, N, K);
}
