// SPDX-License-Identifier: MIT
/// @file
/// @brief The ceilings every threshold is a fraction of, measured on this GPU in this run.
#pragma once
#include <string>

namespace grader {

struct GpuInfo;

/// Measured once per run by the test main, handed to each exercise's process.
struct Ceilings {
    double copy_gbs = 0;    ///< calibration copy kernel, bytes read + written per second
    double dram_gbs = 0;    ///< theoretical DRAM bandwidth from device attributes
    double fma_gflops = 0;  ///< calibration FMA kernel, 2 flops per FMA

    /// "copy_gbs=…;dram_gbs=…;fma_gflops=…", for the GRADER_CEILINGS variable.
    std::string to_env() const;
    /// Inverse of to_env(). Throws std::invalid_argument on a malformed text.
    static Ceilings from_env(const std::string& text);
};

/// Runs the calibration kernels (copy with 16-byte loads, FMA chains) on device 0.
Ceilings measure_ceilings(const GpuInfo& gpu);

}  // namespace grader
