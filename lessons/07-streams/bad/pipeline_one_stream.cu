// SPDX-License-Identifier: MIT
// Known-bad 07.1: the reference's chunks, all on one stream of its own. A stream runs its
// operations one after another, so each copy waits for the work before it and nothing
// overlaps: the time is the serial time plus the cost of the extra operations. Every result
// is right. Must be rejected: slow.
#include "streams.cuh"

namespace {
constexpr size_t kChunkElements = size_t(1) << 20;
}

void run_pipeline(const float* host_in, float* host_out, float* dev_in, float* dev_out, size_t n) {
    static cudaStream_t stream = [] {
        cudaStream_t s = nullptr;
        cudaStreamCreate(&s);
        return s;
    }();
    const size_t chunks = (n + kChunkElements - 1) / kChunkElements;
    for (size_t c = 0; c < chunks; ++c) {
        const size_t first = n / chunks * c + (c < n % chunks ? c : n % chunks);
        const size_t count = n / chunks + (c < n % chunks ? 1 : 0);
        cudaMemcpyAsync(dev_in + first, host_in + first, count * sizeof(float), cudaMemcpyHostToDevice, stream);
        launch_work(dev_in + first, dev_out + first, count, stream);
        cudaMemcpyAsync(host_out + first, dev_out + first, count * sizeof(float), cudaMemcpyDeviceToHost, stream);
    }
}
