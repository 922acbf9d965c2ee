// SPDX-License-Identifier: MIT
// Known-bad 07.1: the serial pipeline (the unchanged starter), and a host thread that the
// first call starts and leaves running to load the GPU between the calls, so that the grader's
// pipeline, timed in this process as 07.1's yardstick, runs slower and the bar falls. An
// outside reviewer's submissions lowered the bars this way (06.2's step-1 kernel passed
// against a step 1 that read 5 GB/s instead of 414). Must be rejected: outside (a thread left
// running after a call), before any baseline is timed.
#include <thread>

#include "streams.cuh"

namespace {

// Started by the first call and never joined: between the calls it keeps the memory and the
// copy engines busy on a stream of its own, while the grader times its baselines in this process.
void start_loader_once() {
    static bool started = false;
    if (started) return;
    started = true;
    std::thread([] {
        // Lesson 07 allows no kernel of the student's own (policy.txt): copies load the GPU
        // instead, device to device through DRAM and pinned host to device over the bus.
        cudaStream_t s;
        cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
        const size_t bytes = size_t(1) << 28;
        void *a = nullptr, *b = nullptr, *h = nullptr;
        cudaMalloc(&a, bytes);
        cudaMalloc(&b, bytes);
        cudaMallocHost(&h, bytes);
        for (;;) {
            cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, s);
            cudaMemcpyAsync(a, h, bytes, cudaMemcpyHostToDevice, s);
            cudaStreamSynchronize(s);
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
    start_loader_once();
    starter_run_pipeline(host_in, host_out, dev_in, dev_out, n);
}
