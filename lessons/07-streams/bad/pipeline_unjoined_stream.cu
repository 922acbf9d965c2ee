// SPDX-License-Identifier: MIT
// Known-bad 07.1: the reference pipeline on streams made with cudaStreamNonBlocking, which
// the default stream does not wait for, and never joined: the launcher returns work that a
// later call on the default stream would run ahead of. The grader's host clock still holds
// all of it, and every result is right once the device is idle. Must be rejected: untimed
// (an event on the default stream completes while the pipeline is still running).
#include "streams.cuh"

namespace {
constexpr int kStreams = 4;
constexpr size_t kChunkElements = size_t(1) << 20;
struct Streams {
    cudaStream_t s[kStreams];
    Streams() {
        for (cudaStream_t& x : s) cudaStreamCreateWithFlags(&x, cudaStreamNonBlocking);
    }
};
}  // namespace

void run_pipeline(const float* host_in, float* host_out, float* dev_in, float* dev_out, size_t n) {
    static Streams streams;
    const size_t chunks = (n + kChunkElements - 1) / kChunkElements;
    for (size_t c = 0; c < chunks; ++c) {
        const size_t first = n / chunks * c + (c < n % chunks ? c : n % chunks);
        const size_t count = n / chunks + (c < n % chunks ? 1 : 0);
        cudaStream_t s = streams.s[c % kStreams];
        cudaMemcpyAsync(dev_in + first, host_in + first, count * sizeof(float), cudaMemcpyHostToDevice, s);
        launch_work(dev_in + first, dev_out + first, count, s);
        cudaMemcpyAsync(host_out + first, dev_out + first, count * sizeof(float), cudaMemcpyDeviceToHost, s);
    }
    // Missing: an event recorded on each stream and cudaStreamWaitEvent(0, event) for each.
}
