// SPDX-License-Identifier: MIT
/// @file
/// @brief What the grader knows about the GPU it runs on, read from the device itself.
#pragma once
#include <string>

namespace grader {

/// Properties of device 0, read through the runtime (no hard-coded tables).
struct GpuInfo {
    std::string name;
    int cc_major = 0, cc_minor = 0;
    /// The SMs this process's kernels may use: the whole GPU's, or under `--sms` those of the
    /// green context (sm_limit.cuh). Lessons size their work by it.
    int sms = 0;
    int sms_total = 0;         ///< the whole GPU's SMs, whatever the limit
    bool sms_limited = false;  ///< sms is a green context's count (`--sms`)
    long long l2_bytes = 0;
    long long global_bytes = 0;
    long long smem_per_block_optin = 0;
    int mem_clock_khz = 0;       ///< peak memory clock, from cudaDevAttrMemoryClockRate
    int bus_width_bits = 0;      ///< from cudaDevAttrGlobalMemoryBusWidth
    /// Theoretical DRAM bandwidth in GB/s: 2 (double data rate) × clock × bus width.
    /// Read from device attributes because CUDA 13 removed cudaDeviceProp::memoryClockRate.
    double dram_theoretical_gbs() const;
    std::string arch() const { return "sm_" + std::to_string(cc_major) + std::to_string(cc_minor); }
};

/// Why no GPU can be used, or an empty string when device 0 is usable.
/// Covers: no device, no driver, a driver older than the toolkit, a device that
/// cannot run this build's machine code.
std::string gpu_unusable_reason();

/// Reads device 0. Call only after gpu_unusable_reason() returned "". Under `--sms`, `sms`
/// is the green context's count, whatever the device's properties say.
GpuInfo query_gpu();

}  // namespace grader
