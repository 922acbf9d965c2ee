// SPDX-License-Identifier: MIT
// Contract: lessons/07-streams/contract/streams.cuh · test: meson test -C build lesson07 --test-args='-tc=07.1*'
// Exercise 07.1 — the pipeline (reference; read lessons/07-streams/theory.md, "Fill, steady
// state and drain"). The array is cut into chunks of about 4 MiB; chunk c's copy in, work and
// copy out go, in that order, to stream c mod 4. A stream runs its operations in order, so
// each chunk's three steps wait for one another, while the copy engines and the SMs take
// operations from the other streams: chunk c is worked on while chunk c + 1 is copied in
// and chunk c − 1 is copied out.
#include "streams.cuh"

namespace {

// Four streams: three chunks are in flight in the steady state (one per stage), and the
// fourth lets a chunk's copy in start before the chunk three places earlier has left.
constexpr int kStreams = 4;
// About 4 MiB per chunk: 64 chunks of the graded array, so fill and drain cost about 1/64
// of the serial time, while each copy is long enough that its fixed start-up cost is small.
constexpr size_t kChunkElements = size_t(1) << 20;

// Made once, on the first call, and kept: creating streams inside every call would cost
// time in every call. cudaStreamCreate makes blocking streams, which the default stream
// waits for, as the contract requires.
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
        // Near-equal chunks: the first n % chunks of them one element longer.
        const size_t first = n / chunks * c + (c < n % chunks ? c : n % chunks);
        const size_t count = n / chunks + (c < n % chunks ? 1 : 0);
        const size_t bytes = count * sizeof(float);
        cudaStream_t s = streams.s[c % kStreams];
        cudaMemcpyAsync(dev_in + first, host_in + first, bytes, cudaMemcpyHostToDevice, s);
        launch_work(dev_in + first, dev_out + first, count, s);
        cudaMemcpyAsync(host_out + first, dev_out + first, bytes, cudaMemcpyDeviceToHost, s);
    }
}
