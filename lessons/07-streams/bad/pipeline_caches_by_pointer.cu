// SPDX-License-Identifier: MIT
// Known-bad 07.1: the reference's pipeline, but the input is copied to the device only when
// host_in is a pointer it has not seen: the launcher keeps a device copy of its own, keyed by
// that pointer, and otherwise runs the work on the copy it already has. Work and copies back
// stay as they were, so launch_work sees every element once per call, and the pipeline has
// no copy in to overlap: it runs at the speed of the work and the copy out. An outside
// reviewer's pipeline of this kind passed, since the grader's timed calls had the same
// inputs under the same pointer. Must be rejected: wrong (a timed call that finds new values
// behind the same pointer computes from the stale copy).
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

struct Cache {
    const float* host = nullptr;
    size_t capacity = 0;
    float* dev = nullptr;
};

}  // namespace

void run_pipeline(const float* host_in, float* host_out, float* dev_in, float* dev_out, size_t n) {
    static Streams streams;
    static Cache cache;
    // Keyed by the pointer alone, with room for twice the first size: a call that repeats
    // the call before's size has its pointer too, and finds the copy.
    const bool cached = cache.host == host_in && n <= cache.capacity;
    if (!cached) {
        cudaFree(cache.dev);
        cache.capacity = 2 * n;
        cudaMalloc(&cache.dev, cache.capacity * sizeof(float));
        cache.host = host_in;
        cudaMemcpy(cache.dev, host_in, n * sizeof(float), cudaMemcpyHostToDevice);
    }
    (void)dev_in;  // the cache stands for it
    const size_t chunks = (n + kChunkElements - 1) / kChunkElements;
    for (size_t c = 0; c < chunks; ++c) {
        const size_t first = n / chunks * c + (c < n % chunks ? c : n % chunks);
        const size_t count = n / chunks + (c < n % chunks ? 1 : 0);
        cudaStream_t s = streams.s[c % kStreams];
        launch_work(cache.dev + first, dev_out + first, count, s);
        cudaMemcpyAsync(host_out + first, dev_out + first, count * sizeof(float), cudaMemcpyDeviceToHost, s);
    }
}
