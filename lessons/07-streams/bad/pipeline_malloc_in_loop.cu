// SPDX-License-Identifier: MIT
// Known-bad 07.1: each chunk in device buffers of its own, allocated with cudaMalloc and
// released with cudaFree inside the loop. cudaFree waits for the work that uses the memory
// (and allocation and release synchronize with the device), so every chunk is finished
// before the next one starts: no overlap, plus the cost of the allocations. Every result is
// right. Must be rejected: slow.
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

void run_pipeline(const float* host_in, float* host_out, float*, float*, size_t n) {
    static Streams streams;
    const size_t chunks = (n + kChunkElements - 1) / kChunkElements;
    for (size_t c = 0; c < chunks; ++c) {
        const size_t first = n / chunks * c + (c < n % chunks ? c : n % chunks);
        const size_t count = n / chunks + (c < n % chunks ? 1 : 0);
        cudaStream_t s = streams.s[c % kStreams];
        float *in = nullptr, *out = nullptr;
        cudaMalloc(&in, count * sizeof(float));
        cudaMalloc(&out, count * sizeof(float));
        cudaMemcpyAsync(in, host_in + first, count * sizeof(float), cudaMemcpyHostToDevice, s);
        launch_work(in, out, count, s);
        cudaMemcpyAsync(host_out + first, out, count * sizeof(float), cudaMemcpyDeviceToHost, s);
        cudaFree(in);
        cudaFree(out);
    }
}
