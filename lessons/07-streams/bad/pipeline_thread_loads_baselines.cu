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
