// SPDX-License-Identifier: MIT
/// @file
/// @brief Timing a launch the way good harnesses do: CUDA events, warm-up, an L2 flush
///        before every run, the median of many runs.
#pragma once
#include <functional>

#include "grader/stats.hpp"

namespace grader {

struct TimingOptions {
    int warmups = 3;       ///< untimed runs first: module load, first-touch, clock ramp-up
    int runs = 21;         ///< timed runs; the median is the figure (odd: a real sample)
    bool flush_l2 = true;  ///< overwrite a buffer twice the L2 size before each run
};

/// Times `launch` (which enqueues work on the default stream) with CUDA events around
/// each run. Throws CudaError if a run faults.
Timing time_launch(const std::function<void()>& launch, const TimingOptions& options = {});

/// Evicts the L2 cache by writing a scratch buffer twice its size (on the default stream).
void flush_l2();

}  // namespace grader
