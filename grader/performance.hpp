// SPDX-License-Identifier: MIT
/// @file
/// @brief Thresholds as fractions of ceilings: an exercise declares its minimal work once
///        and this file does the arithmetic (pure host code, unit-tested without a GPU).
#pragma once
#include <string>

#include "grader/ceilings.hpp"

namespace grader {

/// What one call of the student's launcher must at least do, and how fast it must be.
struct Performance {
    double bytes = 0;     ///< minimal bytes read + written (each input once, each output once)
    double flops = 0;     ///< useful floating-point operations
    double fraction = 0;  ///< required fraction of the ceiling
    /// Empty: the ceiling is this GPU's roofline, min(copy bandwidth × intensity, FMA peak).
    /// Otherwise the name of a vendor routine timed on the same work in the same run.
    std::string baseline;
    double baseline_ms = 0;
};

/// A memory-bound exercise: `fraction` of the copy bandwidth.
inline Performance memory_bound(double bytes, double fraction) { return {bytes, 0, fraction, "", 0}; }
/// Any exercise against the roofline of this GPU.
inline Performance roofline(double bytes, double flops, double fraction) { return {bytes, flops, fraction, "", 0}; }
/// An exercise against a vendor routine (cuBLAS, CUB) timed on the same work.
inline Performance versus(const std::string& vendor, double vendor_ms, double bytes, double flops, double fraction) {
    return {bytes, flops, fraction, vendor, vendor_ms};
}

/// The threshold worked out for one exercise on one GPU.
struct Target {
    double floor_ms = 0;     ///< the ceiling's time for this work
    double required_ms = 0;  ///< slowest accepted median time
    bool in_flops = false;   ///< figures in GFLOP/s (compute-bound or flop-counted vendor) or GB/s
    std::string ceiling;     ///< e.g. "copy 2950 GB/s", "cuBLAS SGEMM 51200 GFLOP/s"
    double ceiling_figure = 0;

    /// GB/s or GFLOP/s achieved by a call that took `ms`.
    double figure(const Performance& p, double ms) const { return (in_flops ? p.flops : p.bytes) / (ms * 1e6); }
    const char* unit() const { return in_flops ? "GFLOP/s" : "GB/s"; }
};

/// Threshold = ceiling × fraction × scale (scale is the instructor's knob).
Target target_for(const Performance& p, const Ceilings& c, double scale);

/// True when `ms` is faster than this GPU can physically do the work: more bytes than
/// DRAM can deliver (beyond what the L2 can hold) or more flops than 1.25 × the FMA peak.
/// Such a result means the kernel skipped work; it is rejected.
bool impossible(const Performance& p, const Ceilings& c, double l2_bytes, double ms);

}  // namespace grader
