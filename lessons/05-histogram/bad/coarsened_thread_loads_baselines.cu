// SPDX-License-Identifier: MIT
// Known-bad 05.2: 05.1's kernel, one byte per thread (the unchanged starter), and a host
// thread that the first call starts and leaves running to load the GPU between the calls, so
// that CUB's histogram, timed in this process as 05.2's yardstick, runs slower and the bar
// falls. An outside reviewer's submissions lowered the bars this way (06.2's step-1 kernel
// passed against a step 1 that read 5 GB/s instead of 414). Must be rejected: outside (a
// thread left running after a call), before any baseline is timed.
#include <thread>

#include <cuda_runtime.h>

#include "histogram.cuh"

namespace {

constexpr int kBlock = 1024;

__global__ void __launch_bounds__(kBlock)
    histogram_coarsened_kernel(const unsigned char* __restrict__ in, size_t n, unsigned int* __restrict__ bins) {
    __shared__ unsigned int s[kHistogramBins];
    for (int v = threadIdx.x; v < kHistogramBins; v += blockDim.x) s[v] = 0;
    __syncthreads();
    const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&s[in[i]], 1u);
    __syncthreads();
    for (int v = threadIdx.x; v < kHistogramBins; v += blockDim.x) {
        const unsigned int count = s[v];
        if (count > 0) atomicAdd(&bins[v], count);
    }
}

}  // namespace

namespace {

// About 2 ms of spinning per block, on the global timer.
__global__ void occupy_gpu() {
    unsigned long long start, now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
    do asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    while (now - start < 2000000ull);
}

// Started by the first call and never joined: between the calls it keeps every SM busy on a
// stream of its own, while the grader times its baselines in this process.
void start_loader_once() {
    static bool started = false;
    if (started) return;
    started = true;
    std::thread([] {
        cudaStream_t s;
        cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
        for (;;) {
            occupy_gpu<<<1024, 256, 0, s>>>();
            cudaStreamSynchronize(s);
        }
    }).detach();
}

}  // namespace

static void starter_histogram_coarsened(const unsigned char* in, size_t n, unsigned int* bins) {
    cudaMemsetAsync(bins, 0, kHistogramBins * sizeof(unsigned int), 0);
    if (n == 0) return;
    histogram_coarsened_kernel<<<unsigned((n + kBlock - 1) / kBlock), kBlock>>>(in, n, bins);
}

void histogram_coarsened(const unsigned char* in, size_t n, unsigned int* bins) {
    start_loader_once();
    starter_histogram_coarsened(in, n, bins);
}
