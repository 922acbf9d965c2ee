// SPDX-License-Identifier: MIT
// Known-bad 07.1: one stream per stage (copies in, work, copies out), joined by events —
// but the copy out waits for the chunk's copy in instead of its work (the wrong event). It
// starts as soon as the chunk has arrived, while the work on it is still queued or
// running, and copies back elements the work has not written yet. Must be rejected: wrong
// (the grader's work writes each chunk from its end, and the elements a copy reads first
// are those the work writes last).
#include <vector>

#include "streams.cuh"

namespace {
constexpr size_t kChunkElements = size_t(1) << 20;

struct Stages {
    cudaStream_t in = nullptr, work = nullptr, out = nullptr;
    std::vector<cudaEvent_t> copied, worked;  // one pair per chunk, created as needed
    Stages() {
        cudaStreamCreate(&in);
        cudaStreamCreate(&work);
        cudaStreamCreate(&out);
    }
    void events_for(size_t chunks) {
        while (copied.size() < chunks) {
            cudaEvent_t a = nullptr, b = nullptr;
            cudaEventCreateWithFlags(&a, cudaEventDisableTiming);
            cudaEventCreateWithFlags(&b, cudaEventDisableTiming);
            copied.push_back(a);
            worked.push_back(b);
        }
    }
};
}  // namespace

void run_pipeline(const float* host_in, float* host_out, float* dev_in, float* dev_out, size_t n) {
    static Stages st;
    const size_t chunks = (n + kChunkElements - 1) / kChunkElements;
    st.events_for(chunks);
    for (size_t c = 0; c < chunks; ++c) {
        const size_t first = n / chunks * c + (c < n % chunks ? c : n % chunks);
        const size_t count = n / chunks + (c < n % chunks ? 1 : 0);
        cudaMemcpyAsync(dev_in + first, host_in + first, count * sizeof(float), cudaMemcpyHostToDevice, st.in);
        cudaEventRecord(st.copied[c], st.in);
        cudaStreamWaitEvent(st.work, st.copied[c], 0);
        launch_work(dev_in + first, dev_out + first, count, st.work);
        cudaEventRecord(st.worked[c], st.work);
        cudaStreamWaitEvent(st.out, st.copied[c], 0);  // the bug: st.worked[c] is the event to wait for
        cudaMemcpyAsync(host_out + first, dev_out + first, count * sizeof(float), cudaMemcpyDeviceToHost, st.out);
    }
}
