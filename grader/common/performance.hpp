// SPDX-License-Identifier: MIT
/// @file
/// @brief Thresholds as fractions of ceilings: an exercise declares its minimal work once
///        and this file does the arithmetic (pure host code, unit-tested without a GPU).
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "grader/common/ceilings.hpp"
#include "grader/common/timing.cuh"

namespace grader {

/// The least work one call must do: each input read once, each output written once, and
/// the useful floating-point operations.
struct Work {
    double bytes = 0, flops = 0;
    /// GB/s, or GFLOP/s when the work has flops, for a call that took `ms`.
    double figure(double ms) const { return (flops > 0 ? flops : bytes) / (ms * 1e6); }
    const char* unit() const { return flops > 0 ? "GFLOP/s" : "GB/s"; }
};

/// A routine timed on the same work in the same run, which a threshold or a table is
/// measured against: a vendor library (cuBLAS, CUB, NPP) or a ceiling of the exercise's
/// own shape (lesson 06's block-sum kernel). Exercise::baseline() makes one.
struct Baseline {
    std::string name;
    Work work;
    double ms = 0;  ///< 0 under compute-sanitizer, where nothing is timed
    double figure() const { return ms > 0 ? work.figure(ms) : 0; }
};

/// What one call of the student's launcher must at least do, and how fast it must be.
struct Performance {
    double bytes = 0;     ///< minimal bytes read + written (each input once, each output once)
    double flops = 0;     ///< useful floating-point operations
    /// Required fraction of the ceiling. Lessons leave it 0: Exercise::grade() takes it from
    /// the lesson's thresholds.txt (declared_thresholds.hpp), which the supervisor reads too.
    double fraction = 0;
    /// Empty: the ceiling is this GPU's roofline, min(copy bandwidth × intensity, FMA peak).
    /// Otherwise the name of a baseline timed on the same work in the same run.
    std::string baseline;
    double baseline_ms = 0;
    /// How the calls are timed: CUDA events on the default stream, or the host clock until the
    /// device is idle (Clock::wall, for work spread over streams on purpose: lesson 07).
    Clock clock = Clock::events;
    /// Timed on data the L2 holds, without flushing it (TimingOptions::l2_resident); its
    /// baseline must be timed the same way.
    bool l2_resident = false;
    /// More thresholds, of which the lowest applies (lesson 06: the step before × a gain, or
    /// a share of the block-sum ceiling, whichever a GPU's memory lets a correct step reach).
    std::vector<Performance> alternatives;
    /// Called by Exercise::grade() once the calls are timed, before the verdict, with their
    /// median time: where a lesson records and prints a figure of its own derived from it
    /// (lesson 07: the overlap efficiency), whatever the verdict will be.
    std::function<void(double median_ms)> with_median;
};

/// A memory-bound exercise, against the copy bandwidth.
inline Performance memory_bound(double bytes) { return {bytes, 0, 0, "", 0}; }
/// Any exercise against the roofline of this GPU.
inline Performance roofline(double bytes, double flops) { return {bytes, flops, 0, "", 0}; }
/// An exercise against a routine timed on the same work (cuBLAS, CUB, a shape ceiling).
inline Performance versus(const std::string& name, double ms, double bytes, double flops) {
    return {bytes, flops, 0, name, ms};
}
inline Performance versus(const Baseline& b) { return versus(b.name, b.ms, b.work.bytes, b.work.flops); }
/// The lower of two thresholds (thresholds.txt declares both fractions).
inline Performance lower_of(Performance a, Performance b) {
    a.alternatives.push_back(std::move(b));
    return a;
}

/// The threshold worked out for one exercise on one GPU.
struct Target {
    double floor_ms = 0;     ///< the ceiling's time for this work
    double required_ms = 0;  ///< slowest accepted median time
    bool in_flops = false;   ///< figures in GFLOP/s (compute-bound or flop-counted baseline) or GB/s
    std::string ceiling;     ///< e.g. "copy 2950 GB/s", "cuBLAS SGEMM 51200 GFLOP/s"
    double ceiling_figure = 0;
    double fraction = 0;     ///< of the ceiling that applies

    /// GB/s or GFLOP/s achieved by a call that took `ms`.
    double figure(const Performance& p, double ms) const { return (in_flops ? p.flops : p.bytes) / (ms * 1e6); }
    const char* unit() const { return in_flops ? "GFLOP/s" : "GB/s"; }
};

/// Threshold = ceiling × fraction × scale (scale is the instructor's knob); with
/// alternatives, the lowest of their thresholds (the longest time allowed).
Target target_for(const Performance& p, const Ceilings& c, double scale);

/// How far past the measured tensor peak (ceiling::tensor_fp16_gflops, mma.sync's) a result
/// may go before it is impossible: 2, since Hopper's wgmma, which a student may issue through
/// inline PTX, outruns mma.sync (by how much on each GPU: to be measured).
inline constexpr double kTensorPeakRoom = 2.0;
/// True when `ms` is faster than this GPU can physically do the work: more bytes than
/// DRAM can deliver (beyond what the L2 can hold) or more flops than 1.25 × the FMA peak
/// (or, where the run measured the tensor peak, kTensorPeakRoom × that peak, if higher).
/// Such a result means the kernel skipped work; it is rejected.
bool impossible(const Performance& p, const Ceilings& c, double l2_bytes, double ms);

}  // namespace grader
