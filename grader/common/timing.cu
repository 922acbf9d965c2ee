// SPDX-License-Identifier: MIT
#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <vector>

#include "grader/common/cuda_check.cuh"
#include "grader/common/session.hpp"
#include "grader/common/timed_sizes.hpp"
#include "grader/common/timing.cuh"

namespace grader {

namespace {

LaunchBracket& bracket() {
    static LaunchBracket b;  // constant-initialized: usable from a start-up constructor
    return b;
}

double now_ms() {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// A warm-up this long has done what warm-ups are for (module load, first touch, clocks up to
// speed): the ones left would only make a slow kernel's student wait longer.
constexpr double kLongWarmupMs = 20;

double sum(const std::vector<double>& v) {
    double t = 0;
    for (double x : v) t += x;
    return t;
}

// Spins one thread until `ns` have passed on the GPU's global timer (the same on every SM
// from sm_70 on, unlike clock64, whose rate follows the SM clock).
__global__ void hold_gpu(unsigned long long ns) {
    unsigned long long start, now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
    do asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    while (now - start < ns);
}

}  // namespace

void set_launch_bracket(const LaunchBracket& b) { bracket() = b; }

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

Timing time_launch(const std::function<void()>& launch, const TimingOptions& options, const RunHooks& hooks) {
    if (bracket().timing) bracket().timing();
    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    if (options.l2_resident && options.clock == Clock::wall)
        throw std::logic_error("grader bug: an l2_resident timing needs Clock::events (the host clock would time the hold)");
    std::vector<double> samples, tails;
    samples.reserve(options.runs);
    for (int i = 0; i < options.warmups + options.runs; ++i) {
        if (hooks.before) hooks.before(i);
        const double share = hooks.work_share ? hooks.work_share() : 1.0;
        if (options.flush_l2 && !options.l2_resident) flush_l2();
        CUDA_CHECK(cudaDeviceSynchronize());
        if (bracket().entering) bracket().entering();  // before the hold, whose 50 µs the listing would eat into
        if (options.l2_resident) {  // the start event and the call queue up behind it
            hold_gpu<<<1, 1>>>((unsigned long long)(kHoldUs * 1000));
            CUDA_CHECK(cudaGetLastError());
        }
        const double t0 = now_ms();
        CUDA_CHECK(cudaEventRecord(start));
        launch();
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaEventRecord(stop));
        CUDA_CHECK(cudaEventSynchronize(stop));
        const double t_stop = now_ms();
        CUDA_CHECK(cudaDeviceSynchronize());
        const double t_idle = now_ms();
        float ms = 0;
        CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
        if (i >= options.warmups) {
            samples.push_back(scaled_sample(options.clock == Clock::wall ? t_idle - t0 : double(ms), share));
            tails.push_back(t_idle - t_stop);
        }
        // Before the run's checks: what the launch left running could still change its outputs.
        if (bracket().left)
            bracket().left(i < options.warmups ? "warm-up run " + std::to_string(i + 1)
                                               : "timed run " + std::to_string(i - options.warmups + 1));
        if (hooks.after) hooks.after(i);
        if (i < options.warmups && std::max<double>(ms, t_idle - t0) > kLongWarmupMs) i = options.warmups - 1;
        if (i >= options.warmups && options.decided && options.decided(samples)) break;
        if (i >= options.warmups && options.budget_ms > 0 && sum(samples) >= options.budget_ms) break;
    }
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    Timing t = summarize(samples);
    t.tail_ms = median(tails);
    return t;
}

}  // namespace grader
