// SPDX-License-Identifier: MIT
// Known-bad 03.3: the starter's one-output-per-thread tile kernel, run ahead of the call by a
// host thread the first call starts and leaves running. The thread watches the first values
// of the last A it was given; when they change (the grader wrote fresh matrices for the next
// call) it computes the whole product into a buffer of its own on a blocking stream, which
// the grader's own synchronize before the call waits for. The call then only copies that
// buffer out when it holds the product of these matrices, and computes as the starter does
// otherwise. An outside reviewer's naive matrix multiply passed 03.3 "at 30 950 GFLOP/s" this
// way. Must be rejected: outside (a thread left running after a call), at the first call.
#include <chrono>
#include <mutex>
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

constexpr int kWatched = 4;  // values of A compared to tell a new input

void launch_tiled(const float* A, const float* B, float* C, int M, int N, int K, cudaStream_t s) {
    dim3 grid((N + kTile - 1) / kTile, (M + kTile - 1) / kTile);
    sgemm_tiled_kernel<<<grid, dim3(kTile, kTile), 0, s>>>(A, B, C, M, N, K);
}

struct Ahead {
    std::mutex m;
    const float* a = nullptr;  // what the last call was given
    const float* b = nullptr;
    int M = 0, N = 0, K = 0;
    float seen[kWatched] = {};  // A's first values when the result below was computed
    float* result = nullptr;
    size_t result_elements = 0;
    bool ready = false;
};
Ahead g;

bool same(const float* x, const float* y) {
    for (int i = 0; i < kWatched; ++i)
        if (x[i] != y[i]) return false;
    return true;
}

void watch() {
    cudaStream_t s;
    cudaStreamCreate(&s);  // blocking: the legacy default stream, and the grader's synchronize, wait for it
    float now[kWatched];
    for (;;) {
        std::this_thread::sleep_for(std::chrono::microseconds(20));
        std::lock_guard<std::mutex> lock(g.m);
        if (!g.a || size_t(g.M) * g.K < kWatched) continue;
        if (cudaMemcpyAsync(now, g.a, sizeof now, cudaMemcpyDeviceToHost, s) != cudaSuccess) continue;
        cudaStreamSynchronize(s);
        if (same(now, g.seen)) continue;
        const size_t elements = size_t(g.M) * g.N;
        if (g.result_elements < elements) {
            cudaFree(g.result);
            cudaMalloc(&g.result, elements * sizeof(float));
            g.result_elements = elements;
        }
        launch_tiled(g.a, g.b, g.result, g.M, g.N, g.K, s);
        cudaStreamSynchronize(s);
        for (int i = 0; i < kWatched; ++i) g.seen[i] = now[i];
        g.ready = true;
    }
}

}  // namespace

void sgemm_coarsened(const float* A, const float* B, float* C, int M, int N, int K) {
    if (M <= 0 || N <= 0) return;
    static std::once_flag started;
    std::call_once(started, [] { std::thread(watch).detach(); });
    std::lock_guard<std::mutex> lock(g.m);
    float now[kWatched];
    const bool ahead = g.ready && g.a == A && g.b == B && g.M == M && g.N == N && g.K == K && size_t(M) * K >= kWatched &&
                       cudaMemcpy(now, A, sizeof now, cudaMemcpyDeviceToHost) == cudaSuccess && same(now, g.seen);
    if (ahead) cudaMemcpyAsync(C, g.result, size_t(M) * N * sizeof(float), cudaMemcpyDeviceToDevice);
    else launch_tiled(A, B, C, M, N, K, 0);
    g.a = A, g.b = B, g.M = M, g.N = N, g.K = K;
}
