// SPDX-License-Identifier: MIT
// Known-bad 07.1: the reference pipeline, but through staging arrays of its own in pageable
// memory (std::vector). A copy from pageable memory goes through the driver's pinned bounce
// buffer, and a copy into pageable memory returns only when it has finished, so the host
// waits for every chunk's copy back (and with it the chunk's work) before it issues the next
// chunk; the two extra host copies of the whole array come on top. Every result is right.
// Must be rejected: slow.
#include <cstring>
#include <vector>

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
    static std::vector<float> staging_in, staging_out;  // allocated once; pageable all the same
    staging_in.resize(n);
    staging_out.resize(n);
    if (n) std::memcpy(staging_in.data(), host_in, n * sizeof(float));
    const size_t chunks = (n + kChunkElements - 1) / kChunkElements;
    for (size_t c = 0; c < chunks; ++c) {
        const size_t first = n / chunks * c + (c < n % chunks ? c : n % chunks);
        const size_t count = n / chunks + (c < n % chunks ? 1 : 0);
        cudaStream_t s = streams.s[c % kStreams];
        cudaMemcpyAsync(dev_in + first, staging_in.data() + first, count * sizeof(float), cudaMemcpyHostToDevice, s);
        launch_work(dev_in + first, dev_out + first, count, s);
        cudaMemcpyAsync(staging_out.data() + first, dev_out + first, count * sizeof(float), cudaMemcpyDeviceToHost, s);
    }
    cudaDeviceSynchronize();  // to be sure the last copy into pageable memory has landed
    if (n) std::memcpy(host_out, staging_out.data(), n * sizeof(float));
}
