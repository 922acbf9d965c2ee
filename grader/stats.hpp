// SPDX-License-Identifier: MIT
/// @file
/// @brief Summaries of repeated timings (pure host code, unit-tested without a GPU).
#pragma once
#include <vector>

namespace grader {

/// Median and range of repeated measurements of one launch, in milliseconds.
struct Timing {
    double median_ms = 0, min_ms = 0, max_ms = 0;
    int runs = 0;
    /// (max − min) / median: how much the runs disagreed.
    double spread() const { return median_ms > 0 ? (max_ms - min_ms) / median_ms : 0.0; }
};

/// Median, min and max of samples (in ms). Throws std::invalid_argument when empty.
Timing summarize(std::vector<double> samples_ms);

/// The better of two timings of the same launch (lower median), runs added up.
Timing better_of(const Timing& a, const Timing& b);

}  // namespace grader
