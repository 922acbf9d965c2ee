// SPDX-License-Identifier: MIT
// Known-bad 03.3: 03.2's tile kernel (the unchanged starter), and a host thread that the first
// call starts and leaves running to load the GPU between the calls, so that cuBLAS, timed in
// this process as 03.3's yardstick, runs slower and the bar falls. An outside reviewer's
// submissions lowered the bars this way (06.2's step-1 kernel passed against a step 1 that
// read 5 GB/s instead of 414). Must be rejected: outside (a thread left running after a call),
// before any baseline is timed.
#include <thread>

#include "tiling.cuh"

namespace {

constexpr int kTile = 32;
constexpr int kThreads = kTile * kTile;  // one thread per element of the tile

__global__ void __launch_bounds__(kThreads) sgemm_tiled_kernel(const float* __restrict__ A, const float* __restrict__ B,
                                                               float* __restrict__ C, int M, int N, int K) {
    __shared__ float As[kTile][kTile];
    __shared__ float Bs[kTile][kTile];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * kTile + ty, col = blockIdx.x * kTile + tx;
    float acc = 0.f;
    for (int k0 = 0; k0 < K; k0 += kTile) {
        As[ty][tx] = (row < M && k0 + tx < K) ? A[size_t(row) * K + k0 + tx] : 0.f;
        Bs[ty][tx] = (k0 + ty < K && col < N) ? B[size_t(k0 + ty) * N + col] : 0.f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < kTile; ++k) acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < M && col < N) C[size_t(row) * N + col] = acc;
}

}  // namespace

namespace {

// About 2 ms of spinning per block, on the global timer.
__global__ void occupy_gpu() {
    unsigned long long start, now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
    do asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    while (now - start < 2000000ull);
}

// Started by the first call and never joined: between the calls it keeps every SM busy on a
// stream of its own, while the grader times its baselines in this process.
void start_loader_once() {
    static bool started = false;
    if (started) return;
    started = true;
    std::thread([] {
        cudaStream_t s;
        cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
        for (;;) {
            occupy_gpu<<<1024, 256, 0, s>>>();
            cudaStreamSynchronize(s);
        }
    }).detach();
}

}  // namespace

static void starter_sgemm_coarsened(const float* A, const float* B, float* C, int M, int N, int K) {
    if (M <= 0 || N <= 0) return;
    dim3 grid((N + kTile - 1) / kTile, (M + kTile - 1) / kTile);
    sgemm_tiled_kernel<<<grid, dim3(kTile, kTile)>>>(A, B, C, M, N, K);
}

void sgemm_coarsened(const float* A, const float* B, float* C, int M, int N, int K) {
    start_loader_once();
    starter_sgemm_coarsened(A, B, C, M, N, K);
}
