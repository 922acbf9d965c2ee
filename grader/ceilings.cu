// SPDX-License-Identifier: MIT
// The two calibration kernels. They are written the way a good student kernel can be
// written (plain CUDA C++, no library), so "a fraction of the copy ceiling" is a goal a
// student can reach.
#include <algorithm>
#include <stdexcept>

#include "grader/ceilings.hpp"
#include "grader/cuda_check.cuh"
#include "grader/gpu.cuh"
#include "grader/timing.cuh"

namespace grader {

namespace {

// Four independent 16-byte loads in flight per thread before the first store: enough
// bytes in flight per SM to cover DRAM latency (Little's law) on every GPU from sm_75 on.
constexpr int kCopyUnroll = 4;

__global__ void copy_calibration(const float4* __restrict__ in, float4* __restrict__ out, size_t n) {
    size_t stride = size_t(gridDim.x) * blockDim.x;
    size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    for (; i + (kCopyUnroll - 1) * stride < n; i += kCopyUnroll * stride) {
        float4 v[kCopyUnroll];
#pragma unroll
        for (int u = 0; u < kCopyUnroll; ++u) v[u] = in[i + u * stride];
#pragma unroll
        for (int u = 0; u < kCopyUnroll; ++u) out[i + u * stride] = v[u];
    }
    for (; i < n; i += stride) out[i] = in[i];
}

// One pass, no loop: each thread copies Unroll float4s a block-width apart. Some GPUs
// prefer one of these shapes to the grid-stride loop (many short blocks keep the memory
// system as busy as few long ones); the ceiling is the best of the three.
template <int Unroll>
__global__ void copy_calibration_one_pass(const float4* __restrict__ in, float4* __restrict__ out, size_t n) {
    size_t base = size_t(blockIdx.x) * blockDim.x * Unroll + threadIdx.x;
    float4 v[Unroll];
#pragma unroll
    for (int u = 0; u < Unroll; ++u)
        if (base + u * blockDim.x < n) v[u] = in[base + u * blockDim.x];
#pragma unroll
    for (int u = 0; u < Unroll; ++u)
        if (base + u * blockDim.x < n) out[base + u * blockDim.x] = v[u];
}

// Eight independent FMA chains per thread hide the FMA pipeline latency.
constexpr int kChains = 8;

__global__ void fma_calibration(float* out, int iterations, float b, float c) {
    float a[kChains];
#pragma unroll
    for (int k = 0; k < kChains; ++k) a[k] = threadIdx.x + k;
    for (int it = 0; it < iterations; ++it) {
#pragma unroll
        for (int k = 0; k < kChains; ++k) a[k] = fmaf(a[k], b, c);
    }
    float s = 0;
#pragma unroll
    for (int k = 0; k < kChains; ++k) s += a[k];
    if (s == 1.2345f) out[0] = s;  // never true in practice; keeps the work alive
}

double copy_gbs(const GpuInfo& gpu) {
    size_t free_b = 0, total_b = 0;
    CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    // Far larger than L2 (at least 16×), capped at a quarter of free memory per buffer.
    size_t bytes = std::max<size_t>(size_t(256) << 20, 16 * size_t(gpu.l2_bytes));
    bytes = std::min(bytes, free_b / 4) / 16 * 16;
    size_t n = bytes / sizeof(float4);
    float4 *in = nullptr, *out = nullptr;
    CUDA_CHECK(cudaMalloc(&in, bytes));
    CUDA_CHECK(cudaMalloc(&out, bytes));
    CUDA_CHECK(cudaMemset(in, 1, bytes));
    int blocks = gpu.sms * 8;  // 8 blocks of 256 threads per SM: full occupancy on every GPU
    Timing loop = time_launch([&] { copy_calibration<<<blocks, 256>>>(in, out, n); }, {3, 21, false});
    unsigned four_blocks = unsigned((n + 256 * kCopyUnroll - 1) / (256 * kCopyUnroll)), one_blocks = unsigned((n + 255) / 256);
    Timing four = time_launch([&] { copy_calibration_one_pass<kCopyUnroll><<<four_blocks, 256>>>(in, out, n); }, {3, 21, false});
    Timing one = time_launch([&] { copy_calibration_one_pass<1><<<one_blocks, 256>>>(in, out, n); }, {3, 21, false});
    double best_ms = std::min({loop.median_ms, four.median_ms, one.median_ms});
    CUDA_CHECK(cudaFree(in));
    CUDA_CHECK(cudaFree(out));
    return 2.0 * bytes / (best_ms * 1e-3) / 1e9;
}

double fma_gflops(const GpuInfo& gpu) {
    float* out = nullptr;
    CUDA_CHECK(cudaMalloc(&out, sizeof(float)));
    const int threads = 256, blocks = gpu.sms * 8, iterations = 8192;
    Timing t = time_launch([&] { fma_calibration<<<blocks, threads>>>(out, iterations, 0.999f, 1e-3f); },
                           {2, 11, false});
    CUDA_CHECK(cudaFree(out));
    double flops = 2.0 * kChains * double(iterations) * threads * blocks;
    return flops / (t.median_ms * 1e-3) / 1e9;
}

}  // namespace

const std::vector<CeilingMeasurer>& ceiling_measurers() {
    static const std::vector<CeilingMeasurer> all = {
        {ceiling::copy_gbs, "copy kernel (read + write)", "GB/s", copy_gbs},
        {ceiling::dram_gbs, "DRAM theoretical", "GB/s", [](const GpuInfo& g) { return g.dram_theoretical_gbs(); }},
        {ceiling::fma_gflops, "FP32 FMA", "GFLOP/s", fma_gflops},
    };
    return all;
}

Ceilings measure_ceilings(const GpuInfo& gpu, const std::vector<std::string>& extra) {
    std::vector<std::string> keys = {ceiling::copy_gbs, ceiling::dram_gbs, ceiling::fma_gflops};
    keys.insert(keys.end(), extra.begin(), extra.end());
    Ceilings c;
    for (const std::string& key : keys) {
        if (c.has(key)) continue;
        const auto& all = ceiling_measurers();
        auto m = std::find_if(all.begin(), all.end(), [&](const CeilingMeasurer& x) { return key == x.key; });
        if (m == all.end()) throw std::invalid_argument("no measurer for the ceiling '" + key + "' (grader/ceilings.cu)");
        c.set(key, m->measure(gpu));
    }
    return c;
}

}  // namespace grader
