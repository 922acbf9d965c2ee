// SPDX-License-Identifier: MIT
// Known-bad 03.1: coalesced, but the bounds check compares the row with N and the column
// with M. Right on square matrices; on the others some elements are never written and
// others land past the end of C, while rows of A past its end are read (far enough, on a
// wide product, to reach the unmapped page). Must be rejected: wrong, bounds or fault.
#include "tiling.cuh"

namespace {
__global__ void kernel(const float* A, const float* B, float* C, int M, int N, int K) {
    const int col = blockIdx.x * 32 + threadIdx.x, row = blockIdx.y * 8 + threadIdx.y;
    if (row >= N || col >= M) return;
    float acc = 0.f;
    for (int k = 0; k < K; ++k) acc += A[size_t(row) * K + k] * B[size_t(k) * N + col];
    C[size_t(row) * N + col] = acc;
}
}  // namespace

void sgemm_coalesced(const float* A, const float* B, float* C, int M, int N, int K) {
    const int side = M > N ? M : N;  // a grid big enough for either reading of the bounds
    if (M > 0 && N > 0) kernel<<<dim3((side + 31) / 32, (side + 7) / 8), dim3(32, 8)>>>(A, B, C, M, N, K);
}
