// SPDX-License-Identifier: MIT
// Known-bad 01.1: the uncoalesced mapping (the unchanged starter), and a host thread that the
// first call starts and leaves running to repeat the last call's work on whatever the buffers
// hold. An outside reviewer's naive matrix multiply passed 03.3 this way. Must be rejected:
// outside (a thread left running after a call), at the first call.
#include <chrono>
#include <functional>
#include <mutex>
#include <thread>

#include "coalescing.cuh"

namespace {

__global__ void add_matrices_kernel(const float* a, const float* b, float* c, int rows, int cols) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    int col = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < rows && col < cols) {
        size_t i = size_t(row) * cols + col;
        c[i] = a[i] + b[i];
    }
}

}  // namespace

namespace {

std::mutex g_lock;
std::function<void()> g_last_call;

// Remembers the call's work and, from the first call on, a thread that is never joined
// repeats it on the legacy default stream: while the grader writes the next call's fresh
// inputs into the same buffers, the thread computes from them, and the grader's own
// synchronization waits for its work, so the next call could find its result made already.
void compute_ahead(std::function<void()> work) {
    {
        std::lock_guard<std::mutex> hold(g_lock);
        g_last_call = std::move(work);
    }
    static bool started = false;
    if (started) return;
    started = true;
    std::thread([] {
        for (;;) {
            std::function<void()> again;
            {
                std::lock_guard<std::mutex> hold(g_lock);
                again = g_last_call;
            }
            again();
            cudaDeviceSynchronize();
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
    }).detach();
}

}  // namespace

static void starter_add_matrices(const float* a, const float* b, float* c, int rows, int cols) {
    dim3 block(16, 16);
    dim3 grid((rows + block.x - 1) / block.x, (cols + block.y - 1) / block.y);
    if (rows > 0 && cols > 0) add_matrices_kernel<<<grid, block>>>(a, b, c, rows, cols);
}

void add_matrices(const float* a, const float* b, float* c, int rows, int cols) {
    starter_add_matrices(a, b, c, rows, cols);
    compute_ahead([=] { starter_add_matrices(a, b, c, rows, cols); });
}
