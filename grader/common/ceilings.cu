// SPDX-License-Identifier: MIT
// The two calibration kernels. They are written the way a good student kernel can be
// written (plain CUDA C++, no library), so "a fraction of the copy ceiling" is a goal a
// student can reach.
#include <cuda_fp16.h>
#include <mma.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "grader/common/ceilings.hpp"
#include "grader/common/cuda_check.cuh"
#include "grader/common/gpu.cuh"
#include "grader/common/timing.cuh"

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

// Lesson 09's tensor peak: FP16 16 × 16 × 16 WMMA products with FP32 accumulation, from
// registers only (no load in the loop), so the tensor cores' issue rate is all that limits
// it. WMMA compiles for every GPU of the course (sm_75 on) to the same mma.sync (HMMA)
// instructions a student's WMMA or mma.sync kernel issues; Hopper's wgmma, which cuBLAS uses
// there, is faster and not measured here. Four independent accumulators per warp and 32
// warps per SM keep enough products in flight to cover the HMMA latency.
constexpr int kMmaChains = 4, kMmaWarpsPerBlock = 8, kMmaBlocksPerSm = 4;

// Every element of every accumulator is summed at the end: with only element 0 kept, nvcc 13
// drops the HMMA of the half of each product that feeds none of it, and the figure would count
// twice the work done. The operands come from memory, so that nothing about them is known at
// compile time.
__global__ void __launch_bounds__(32 * kMmaWarpsPerBlock) tensor_calibration(float* out, const __half* operands,
                                                                             int iterations) {
    namespace wmma = nvcuda::wmma;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[kMmaChains];
    wmma::load_matrix_sync(a, operands, 16);
    wmma::load_matrix_sync(b, operands + 256, 16);
#pragma unroll
    for (int k = 0; k < kMmaChains; ++k) wmma::fill_fragment(acc[k], float(k));
    for (int it = 0; it < iterations; ++it) {
#pragma unroll
        for (int k = 0; k < kMmaChains; ++k) wmma::mma_sync(acc[k], a, b, acc[k]);
    }
    float s = 0;
#pragma unroll
    for (int k = 0; k < kMmaChains; ++k)
        for (int e = 0; e < acc[k].num_elements; ++e) s += acc[k].x[e];
    if (s == 1.2345f) out[0] = s;  // never true in practice; keeps the work alive
}

double tensor_fp16_gflops(const GpuInfo& gpu) {
    float* out = nullptr;
    __half* operands = nullptr;  // two 16 × 16 fragments' worth; small values, so the sums stay finite
    CUDA_CHECK(cudaMalloc(&out, sizeof(float)));
    CUDA_CHECK(cudaMalloc(&operands, 512 * sizeof(__half)));
    CUDA_CHECK(cudaMemset(operands, 0x11, 512 * sizeof(__half)));  // 0x1111: about 6e-4 each
    const int blocks = gpu.sms * kMmaBlocksPerSm, iterations = 16384;
    Timing t = time_launch([&] { tensor_calibration<<<blocks, 32 * kMmaWarpsPerBlock>>>(out, operands, iterations); },
                           {2, 11, false});
    CUDA_CHECK(cudaFree(out));
    CUDA_CHECK(cudaFree(operands));
    const double flops = 2.0 * 16 * 16 * 16 * kMmaChains * double(iterations) * kMmaWarpsPerBlock * blocks;
    return flops / (t.median_ms * 1e-3) / 1e9;
}

// Host<->device copies (lesson 07): each direction alone and both at once on pinned memory,
// and host-to-device from pageable memory, each one cudaMemcpy(Async) of the whole buffer.
// 64 MiB: a copy of that size already runs at the link's full rate (a few ms), and pinning
// the buffers is most of this measurement's cost (about 1 s at 256 MiB on the H100).
constexpr size_t kHostCopyBytes = size_t(64) << 20;

struct HostCopyRates {
    double h2d = 0, d2h = 0, both_ways = 0, h2d_pageable = 0;  // GB/s; both_ways counts both directions' bytes
};

HostCopyRates measure_host_copies() {
    size_t free_b = 0, total_b = 0;
    CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    const size_t bytes = std::min(kHostCopyBytes, free_b / 4);
    void *host_a = nullptr, *host_b = nullptr, *dev_a = nullptr, *dev_b = nullptr;
    CUDA_CHECK(cudaHostAlloc(&host_a, bytes, cudaHostAllocDefault));
    CUDA_CHECK(cudaHostAlloc(&host_b, bytes, cudaHostAllocDefault));
    CUDA_CHECK(cudaMalloc(&dev_a, bytes));
    CUDA_CHECK(cudaMalloc(&dev_b, bytes));
    std::memset(host_a, 1, bytes);
    std::memset(host_b, 2, bytes);
    CUDA_CHECK(cudaMemset(dev_b, 3, bytes));
    std::vector<char> pageable(bytes, 4);  // written once, so its pages exist before the timing
    // Blocking streams (cudaStreamCreate): the events on the default stream enclose their work.
    cudaStream_t up = nullptr, down = nullptr;
    CUDA_CHECK(cudaStreamCreate(&up));
    CUDA_CHECK(cudaStreamCreate(&down));
    const TimingOptions o{2, 11, false};
    const auto gbs = [](double moved, const Timing& t) { return moved / (t.median_ms * 1e6); };
    HostCopyRates r;
    r.h2d = gbs(bytes, time_launch([&] { CUDA_CHECK(cudaMemcpyAsync(dev_a, host_a, bytes, cudaMemcpyHostToDevice, 0)); }, o));
    r.d2h = gbs(bytes, time_launch([&] { CUDA_CHECK(cudaMemcpyAsync(host_b, dev_b, bytes, cudaMemcpyDeviceToHost, 0)); }, o));
    r.both_ways = gbs(2.0 * bytes, time_launch([&] {
                          CUDA_CHECK(cudaMemcpyAsync(dev_a, host_a, bytes, cudaMemcpyHostToDevice, up));
                          CUDA_CHECK(cudaMemcpyAsync(host_b, dev_b, bytes, cudaMemcpyDeviceToHost, down));
                      }, o));
    r.h2d_pageable = gbs(bytes, time_launch([&] { CUDA_CHECK(cudaMemcpy(dev_a, pageable.data(), bytes, cudaMemcpyHostToDevice)); },
                                            {1, 5, false}));
    CUDA_CHECK(cudaStreamDestroy(up));
    CUDA_CHECK(cudaStreamDestroy(down));
    CUDA_CHECK(cudaFree(dev_a));
    CUDA_CHECK(cudaFree(dev_b));
    CUDA_CHECK(cudaFreeHost(host_a));
    CUDA_CHECK(cudaFreeHost(host_b));
    return r;
}

// Measured once per process, the first time one of the four is asked for.
const HostCopyRates& host_copies() {
    static const HostCopyRates r = measure_host_copies();
    return r;
}

double copy_engines(const GpuInfo&) {
    int device = 0, engines = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&engines, cudaDevAttrAsyncEngineCount, device));
    return engines;
}

}  // namespace

const std::vector<CeilingMeasurer>& ceiling_measurers() {
    static const std::vector<CeilingMeasurer> all = {
        {ceiling::copy_gbs, "copy kernel (read + write)", "GB/s", copy_gbs},
        {ceiling::dram_gbs, "DRAM theoretical", "GB/s", [](const GpuInfo& g) { return g.dram_theoretical_gbs(); }},
        {ceiling::fma_gflops, "FP32 FMA", "GFLOP/s", fma_gflops},
        // Lesson 07 (copies between host and device):
        {"h2d_gbs", "pinned host-to-device copy", "GB/s", [](const GpuInfo&) { return host_copies().h2d; }},
        {"d2h_gbs", "pinned device-to-host copy", "GB/s", [](const GpuInfo&) { return host_copies().d2h; }},
        {"both_ways_gbs", "pinned copies both ways at once (bytes of both)", "GB/s",
         [](const GpuInfo&) { return host_copies().both_ways; }},
        {"h2d_pageable_gbs", "pageable host-to-device copy", "GB/s", [](const GpuInfo&) { return host_copies().h2d_pageable; }},
        {"copy_engines", "asyncEngineCount", "copy engines", copy_engines},
        // Lesson 09 (tensor cores):
        {ceiling::tensor_fp16_gflops, "FP16 tensor cores (WMMA, FP32 accumulation)", "GFLOP/s", tensor_fp16_gflops},
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
        if (m == all.end()) throw std::invalid_argument("no measurer for the ceiling '" + key + "' (grader/common/ceilings.cu)");
        c.set(key, m->measure(gpu));
    }
    return c;
}

}  // namespace grader
