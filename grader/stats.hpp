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
    /// Median time the device stayed busy after the timed work on the default stream had
    /// ended, as the host saw it: near zero unless the launcher left work running on a
    /// stream the default stream does not wait for (timing.cuh).
    double tail_ms = 0;
    /// (max − min) / median: how much the runs disagreed.
    double spread() const { return median_ms > 0 ? (max_ms - min_ms) / median_ms : 0.0; }
};

/// Median, min and max of samples (in ms). Throws std::invalid_argument when empty.
Timing summarize(std::vector<double> samples_ms);

/// The median of samples (in ms); 0 when empty.
double median(std::vector<double> samples);

/// The better of two timings of the same launch (lower median), as it was measured.
Timing better_of(const Timing& a, const Timing& b);

}  // namespace grader
