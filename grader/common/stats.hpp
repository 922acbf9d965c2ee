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

/// True when more runs could not change how `samples` compare with `required_ms`, so that a
/// student is not kept waiting for a verdict already known: after 1 run more than four times
/// the time allowed (a PASS always takes 3: the check of work left after the timer is their
/// median); after 3 runs when every run is
/// more than twice the time allowed (or under half of it); after 5 when every run lies on
/// one side of it, clear by 5 % or by twice the runs' spread (max − min over min), whichever
/// is more. Noise between runs of one kernel on an idle GPU stays well inside that (the
/// spread is recorded with every figure); a kernel close to its threshold gets every run.
/// Every timed call is verified in full, so a launcher gains nothing from behaving
/// differently in runs that are not made.
bool speed_decided(const std::vector<double>& samples, double required_ms);

}  // namespace grader
