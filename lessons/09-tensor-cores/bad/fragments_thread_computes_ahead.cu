// SPDX-License-Identifier: MIT
// Known-bad 09.1: the reference, whose first call starts a host thread that is never joined:
// it watches A and, once the grader has written the next call's inputs, computes their
// product ahead on a stream of its own, so that the call itself only copies it. Must be
// rejected: outside (a thread of the submission still running after a call).
#include <mma.h>

#include <chrono>
#include <mutex>
#include <thread>

#include "tensor_cores.cuh"

namespace {

namespace wmma = nvcuda::wmma;

constexpr int kFrag = 16;                         // a fragment is 16 × 16 × 16
constexpr int kWarpsM = 2, kWarpsN = 4;           // the block's warps, as rows × columns of tiles
constexpr int kThreads = 32 * kWarpsM * kWarpsN;  // 256

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

constexpr int kWatched = 4;  // halves of A compared to tell a new input

void launch_fragments(const __half* A, const __half* B, float* C, int M, int N, int K, cudaStream_t s) {
    const dim3 grid((N + kFrag * kWarpsN - 1) / (kFrag * kWarpsN), (M + kFrag * kWarpsM - 1) / (kFrag * kWarpsM));
    hgemm_fragments_kernel<<<grid, kThreads, 0, s>>>(A, B, C, M, N, K);
}

struct Ahead {
    std::mutex m;
    const __half* a = nullptr;  // what the last call was given
    const __half* b = nullptr;
    int M = 0, N = 0, K = 0;
    unsigned short seen[kWatched] = {};  // A's first halves when the result below was computed
    float* result = nullptr;
    size_t result_elements = 0;
    bool ready = false;
};
Ahead g;

bool same(const unsigned short* x, const unsigned short* y) {
    for (int i = 0; i < kWatched; ++i)
        if (x[i] != y[i]) return false;
    return true;
}

// Watches A between the calls: once the grader has written the next inputs, computes their
// product on a stream of its own, so that the next call only copies it.
void watch() {
    cudaStream_t s;
    cudaStreamCreate(&s);
    unsigned short now[kWatched];
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
        launch_fragments(g.a, g.b, g.result, g.M, g.N, g.K, s);
        cudaStreamSynchronize(s);
        for (int i = 0; i < kWatched; ++i) g.seen[i] = now[i];
        g.ready = true;
    }
}

}  // namespace

void hgemm_fragments(const __half* A, const __half* B, float* C, int M, int N, int K) {
    if (M <= 0 || N <= 0) return;
    static std::once_flag started;
    std::call_once(started, [] { std::thread(watch).detach(); });
    std::lock_guard<std::mutex> lock(g.m);
    unsigned short now[kWatched];
    const bool ahead = g.ready && g.a == A && g.b == B && g.M == M && g.N == N && g.K == K && size_t(M) * K >= kWatched &&
                       cudaMemcpy(now, A, sizeof now, cudaMemcpyDeviceToHost) == cudaSuccess && same(now, g.seen);
    if (ahead) cudaMemcpyAsync(C, g.result, size_t(M) * N * sizeof(float), cudaMemcpyDeviceToDevice);
    else launch_fragments(A, B, C, M, N, K, 0);
    g.a = A, g.b = B, g.M = M, g.N = N, g.K = K;
}
