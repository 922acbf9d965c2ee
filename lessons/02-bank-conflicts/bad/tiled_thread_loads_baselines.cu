// SPDX-License-Identifier: MIT
// Known-bad 02.1: the naive transpose (the unchanged starter), and a host thread that the
// first call starts and leaves running to load the GPU between the calls, so that the grader's
// transposes timed in this process (the yardsticks of 02.1's threshold) run slower and the bar
// falls. An outside reviewer's submissions lowered the bars this way (06.2's step-1 kernel
// passed against a step 1 that read 5 GB/s instead of 414). Must be rejected: outside (a
// thread left running after a call), before any baseline is timed.
#include <thread>

#include "bank_conflicts.cuh"

namespace {

constexpr int kTile = 32;
constexpr int kWidth = 32, kHeight = 8;  // each thread handles kTile / kHeight rows

__global__ void transpose_naive_kernel(const float* in, float* out, int rows, int cols) {
    int c = blockIdx.x * kTile + threadIdx.x;
    for (int i = 0; i < kTile / kHeight; ++i) {
        int r = blockIdx.y * kTile + threadIdx.y + i * kHeight;
        if (r < rows && c < cols) out[size_t(c) * rows + r] = in[size_t(r) * cols + c];
    }
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

static void starter_transpose_tiled(const float* in, float* out, int rows, int cols) {
    if (rows <= 0 || cols <= 0) return;
    dim3 grid((cols + kTile - 1) / kTile, (rows + kTile - 1) / kTile);
    transpose_naive_kernel<<<grid, dim3(kWidth, kHeight)>>>(in, out, rows, cols);
}

void transpose_tiled(const float* in, float* out, int rows, int cols) {
    start_loader_once();
    starter_transpose_tiled(in, out, rows, cols);
}
