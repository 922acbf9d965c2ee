// SPDX-License-Identifier: MIT
// Known-bad 07.1: the reference pipeline on streams made with cudaStreamNonBlocking, joined
// back to the default stream after every chunk but the last: only the last chunk's copy
// back is left unordered. Its tail is one 16 MiB copy, under 2 % of the pipeline's time,
// which the grader's first tolerance for the wall clock admitted. Must be rejected: untimed
// (the GPU stays busy well over 50 µs after the default stream's work has ended). With
// 4 MiB chunks the tail was 55–63 µs on the H100, at the edge of what the host clock can
// tell from noise: docs/trust_model.md says what that leaves.
#include "streams.cuh"

namespace {

constexpr int kStreams = 4;
constexpr size_t kChunkElements = size_t(1) << 22;  // 16 MiB of floats

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
        const size_t first = n / chunks * c + (c < n % chunks ? c : n % chunks);
        const size_t count = n / chunks + (c < n % chunks ? 1 : 0);
        const size_t bytes = count * sizeof(float);
        const int k = int(c % kStreams);
        cudaStream_t s = streams.s[k];
        cudaMemcpyAsync(dev_in + first, host_in + first, bytes, cudaMemcpyHostToDevice, s);
        launch_work(dev_in + first, dev_out + first, count, s);
        cudaMemcpyAsync(host_out + first, dev_out + first, bytes, cudaMemcpyDeviceToHost, s);
        if (c + 1 < chunks) {  // the bug: the last chunk is never joined
            cudaEventRecord(streams.done[k], s);
            cudaStreamWaitEvent(0, streams.done[k], 0);
        }
    }
}
