// SPDX-License-Identifier: MIT
// Known-bad 09.1: the reference, whose first call starts a host thread that is never joined
// and keeps the GPU busy between the calls, while the yardsticks are timed. Must be
// rejected: outside (a thread of the submission still running after a call).
#include <mma.h>

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

// About 2 ms of spinning per block, on the global timer.
__global__ void occupy_gpu() {
    unsigned long long start, now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
    do asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    while (now - start < 2000000ull);
}

// Started by the first call and never joined: between the calls it keeps every SM busy on a
// stream of its own, while the grader times its yardsticks (the starter's copy, cuBLAS) in
// this process, so that they look slow and the thresholds drop.
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

void hgemm_fragments(const __half* A, const __half* B, float* C, int M, int N, int K) {
    start_loader_once();
    if (M <= 0 || N <= 0) return;
    const dim3 grid((N + kFrag * kWarpsN - 1) / (kFrag * kWarpsN), (M + kFrag * kWarpsM - 1) / (kFrag * kWarpsM));
    hgemm_fragments_kernel<<<grid, kThreads>>>(A, B, C, M, N, K);
}
