// SPDX-License-Identifier: MIT
// Known-bad 05.1: global atomics (the unchanged starter), and a host thread that the first
// call starts and leaves running to repeat the last call's work on whatever the buffers hold.
// An outside reviewer's naive matrix multiply passed 03.3 this way. Must be rejected: outside
// (a thread left running after a call), at the first call.
#include <chrono>
#include <functional>
#include <mutex>
#include <thread>

#include <cuda_runtime.h>

#include "histogram.cuh"

namespace {

constexpr int kBlock = 1024;

__global__ void histogram_global_kernel(const unsigned char* in, size_t n, unsigned int* bins) {
    const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&bins[in[i]], 1u);  // in[i] is an unsigned char: 0 … 255
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

static void starter_histogram_privatized(const unsigned char* in, size_t n, unsigned int* bins) {
    // The kernel only adds to bins: they start at zero on every call, on the same stream.
    cudaMemsetAsync(bins, 0, kHistogramBins * sizeof(unsigned int), 0);
    if (n == 0) return;  // a grid of 0 blocks is a launch error
    histogram_global_kernel<<<unsigned((n + kBlock - 1) / kBlock), kBlock>>>(in, n, bins);
}

void histogram_privatized(const unsigned char* in, size_t n, unsigned int* bins) {
    starter_histogram_privatized(in, n, bins);
    compute_ahead([=] { starter_histogram_privatized(in, n, bins); });
}
