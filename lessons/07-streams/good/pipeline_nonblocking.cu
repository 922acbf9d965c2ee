// SPDX-License-Identifier: MIT
// Known-good variant of 07.1: the reference's pipeline on streams made with
// cudaStreamNonBlocking, which the default stream does not wait for, joined before the
// launcher returns as the contract asks (an event per stream, cudaStreamWaitEvent on the
// default stream), and chunks of 2 MiB instead of 4 MiB. The grader's own work before a
// call (poisoning the outputs) is on the default stream, so it must have finished before
// such a stream starts copying.
#include "streams.cuh"

namespace {

constexpr int kStreams = 4;
constexpr size_t kChunkElements = size_t(1) << 19;

struct Streams {
    cudaStream_t s[kStreams];
    cudaEvent_t done[kStreams];
    Streams() {
        for (int k = 0; k < kStreams; ++k) {
            cudaStreamCreateWithFlags(&s[k], cudaStreamNonBlocking);
            cudaEventCreateWithFlags(&done[k], cudaEventDisableTiming);
        }
    }
};

}  // namespace

void run_pipeline(const float* host_in, float* host_out, float* dev_in, float* dev_out, size_t n) {
    static Streams streams;
    const size_t chunks = (n + kChunkElements - 1) / kChunkElements;
    for (size_t c = 0; c < chunks; ++c) {
        const size_t first = c * kChunkElements;
        const size_t count = first + kChunkElements <= n ? kChunkElements : n - first;
        cudaStream_t s = streams.s[c % kStreams];
        cudaMemcpyAsync(dev_in + first, host_in + first, count * sizeof(float), cudaMemcpyHostToDevice, s);
        launch_work(dev_in + first, dev_out + first, count, s);
        cudaMemcpyAsync(host_out + first, dev_out + first, count * sizeof(float), cudaMemcpyDeviceToHost, s);
    }
    for (int k = 0; k < kStreams; ++k) {  // the join: later default-stream work waits for every stream
        cudaEventRecord(streams.done[k], streams.s[k]);
        cudaStreamWaitEvent(0, streams.done[k], 0);
    }
}
