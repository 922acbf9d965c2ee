// SPDX-License-Identifier: MIT
// Known-bad 07.1: the serial pipeline (the unchanged starter), and a host thread that the
// first call starts and leaves running to repeat the last call's work on whatever the host
// buffers hold. An outside reviewer's naive matrix multiply passed 03.3 this way. Must be
// rejected: outside (a thread left running after a call), at the first call.
#include <chrono>
#include <functional>
#include <mutex>
#include <thread>

#include "streams.cuh"

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

static void starter_run_pipeline(const float* host_in, float* host_out, float* dev_in, float* dev_out, size_t n) {
    const size_t bytes = n * sizeof(float);
    cudaMemcpyAsync(dev_in, host_in, bytes, cudaMemcpyHostToDevice, 0);
    launch_work(dev_in, dev_out, n, 0);
    cudaMemcpyAsync(host_out, dev_out, bytes, cudaMemcpyDeviceToHost, 0);
}

void run_pipeline(const float* host_in, float* host_out, float* dev_in, float* dev_out, size_t n) {
    starter_run_pipeline(host_in, host_out, dev_in, dev_out, n);
    compute_ahead([=] { starter_run_pipeline(host_in, host_out, dev_in, dev_out, n); });
}
