// SPDX-License-Identifier: MIT
// Known-bad 07.1: the reference pipeline with a cudaStreamSynchronize after each chunk
// ("to be safe"). The host waits for every chunk to finish before it issues the next, so at
// any time only one chunk is in flight and its three steps run one after another: the
// serial time plus a wait per chunk. Every result is right. Must be rejected: slow.
#include "streams.cuh"

namespace {
constexpr int kStreams = 4;
constexpr size_t kChunkElements = size_t(1) << 20;
struct Streams {
    cudaStream_t s[kStreams];
    Streams() {
        for (cudaStream_t& x : s) cudaStreamCreate(&x);
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
        cudaStreamSynchronize(s);
    }
}
