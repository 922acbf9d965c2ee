// SPDX-License-Identifier: MIT
/// @file
/// @brief The ceilings every threshold is a fraction of: a keyed table, measured on this
///        GPU at the start of each run by the supervisor and handed to every exercise.
///
/// Each ceiling has a measurer in one registry (ceiling_measurers()). The supervisor
/// measures the core ones for every lesson and the extra ones a lesson names in its
/// GRADER_LESSON line, so a new ceiling is one registry entry plus that name.
#pragma once
#include <map>
#include <string>
#include <vector>

namespace grader {

struct GpuInfo;

/// Keys of the ceilings every lesson gets.
namespace ceiling {
inline constexpr const char* copy_gbs = "copy_gbs";      ///< calibration copy kernel, bytes read + written per second
inline constexpr const char* dram_gbs = "dram_gbs";      ///< theoretical DRAM bandwidth from device attributes
inline constexpr const char* fma_gflops = "fma_gflops";  ///< calibration FMA kernel, 2 flops per FMA
/// Lesson 09's extra ceiling: a register-only loop of FP16 WMMA 16 × 16 × 16 products with
/// FP32 accumulation (mma.sync on every GPU; on Hopper not wgmma's peak, which is higher).
inline constexpr const char* tensor_fp16_gflops = "tensor_fp16_gflops";
/// Not a speed: the GPU memory free (bytes) when the supervisor measured the ceilings. Every
/// process of the run sizes its timing data from it (timing_elements), not from what is free
/// in that process, so that the yardstick program (measured while no exercise's process
/// holds memory) and each exercise's process (beside the processes waiting at their gates)
/// time the same sizes, whatever the GPU's memory.
inline constexpr const char* timing_free_bytes = "timing_free_bytes";
}  // namespace ceiling

class Ceilings {
public:
    /// The value of `key`; throws std::out_of_range naming the key when it was not measured.
    double get(const std::string& key) const;
    bool has(const std::string& key) const { return values_.count(key) > 0; }
    void set(const std::string& key, double value) { values_[key] = value; }
    const std::map<std::string, double>& values() const { return values_; }

    /// "key=value;key=value", for the GRADER_CEILINGS variable.
    std::string to_text() const;
    /// Inverse of to_text(). Throws std::invalid_argument on a malformed text.
    static Ceilings from_text(const std::string& text);

private:
    std::map<std::string, double> values_;
};

/// One ceiling and how to measure it.
struct CeilingMeasurer {
    const char* key;
    const char* what;  ///< one line for the run's header, e.g. "copy kernel (read + write)"
    const char* unit;  ///< "GB/s", "GFLOP/s", "engines"
    double (*measure)(const GpuInfo& gpu);
};

/// Every ceiling the grader knows how to measure.
const std::vector<CeilingMeasurer>& ceiling_measurers();

/// The core ceilings plus `extra` (keys from ceiling_measurers()), measured now on device 0.
/// Throws std::invalid_argument for an unknown key.
Ceilings measure_ceilings(const GpuInfo& gpu, const std::vector<std::string>& extra = {});

}  // namespace grader
