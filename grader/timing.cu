// SPDX-License-Identifier: MIT
#include <vector>

#include "grader/cuda_check.cuh"
#include "grader/session.hpp"
#include "grader/timing.cuh"

namespace grader {

void flush_l2() {
    // One scratch buffer for the process; freed by the driver at exit.
    static void* scratch = nullptr;
    static size_t bytes = 0;
    static int generation = 0;
    if (!scratch) {
        bytes = 2 * static_cast<size_t>(std::max<long long>(gpu().l2_bytes, 1 << 20));
        CUDA_CHECK(cudaMalloc(&scratch, bytes));
    }
    CUDA_CHECK(cudaMemsetAsync(scratch, ++generation & 0xff, bytes));
}

Timing time_launch(const std::function<void()>& launch, const TimingOptions& options) {
    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    std::vector<double> samples;
    samples.reserve(options.runs);
    for (int i = 0; i < options.warmups + options.runs; ++i) {
        if (options.flush_l2) flush_l2();
        CUDA_CHECK(cudaEventRecord(start));
        launch();
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaEventRecord(stop));
        CUDA_CHECK(cudaEventSynchronize(stop));
        float ms = 0;
        CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
        if (i >= options.warmups) samples.push_back(ms);
    }
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    return summarize(samples);
}

}  // namespace grader
