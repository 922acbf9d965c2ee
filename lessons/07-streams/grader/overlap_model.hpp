// SPDX-License-Identifier: MIT
/// @file
/// @brief Lesson 07's overlap model: from the times of the three stages measured alone on the
///        whole array, the serial time, the best pipelined time and the overlap efficiency
///        (theory.md, "Fill, steady state and drain"). Pure arithmetic, checked when it compiles.
#pragma once

namespace overlap {

/// The stages of one call, each timed alone on the whole array (ms), and the copy engines.
struct Stages {
    double h2d_ms = 0;        ///< the input copied host → device, one cudaMemcpyAsync
    double kernel_ms = 0;     ///< the work on the whole array, one launch
    double d2h_ms = 0;        ///< the output copied device → host, one cudaMemcpyAsync
    double both_ways_ms = 0;  ///< both copies at once, on two streams
    int copy_engines = 0;     ///< asyncEngineCount
};

constexpr double larger(double a, double b) { return a > b ? a : b; }
constexpr double smaller(double a, double b) { return a < b ? a : b; }

/// One stage after the other, as a single stream runs them.
constexpr double serial_ms(const Stages& s) { return s.h2d_ms + s.kernel_ms + s.d2h_ms; }

/// The least time the copies can take in any pipeline. With two or more copy engines the
/// two directions can run at once, but never faster than either alone, nor than both
/// measured at once (the link or the host memory may not carry both at full rate); with
/// one engine they take turns.
constexpr double copy_bound_ms(const Stages& s) {
    return s.copy_engines >= 2 ? larger(larger(s.h2d_ms, s.d2h_ms), smaller(s.both_ways_ms, s.h2d_ms + s.d2h_ms))
                               : s.h2d_ms + s.d2h_ms;
}

/// The best pipelined time: the busiest resource, kernel or copies, never idle. No chunking
/// does better; N equal chunks add about (serial − best) / N of fill and drain to it.
constexpr double best_ms(const Stages& s) { return larger(s.kernel_ms, copy_bound_ms(s)); }

/// The share of the possible saving that a call which took `ms` achieved: 0 when it took
/// the serial time, 1 at the best pipelined time.
constexpr double efficiency(const Stages& s, double ms) { return (serial_ms(s) - ms) / (serial_ms(s) - best_ms(s)); }

/// The slowest time of a call that reaches `required` efficiency.
constexpr double required_ms(const Stages& s, double required) {
    return serial_ms(s) - required * (serial_ms(s) - best_ms(s));
}

// Balanced stages, two engines: serial 12, best 4; 3/4 of the saving is 6 ms.
static_assert(serial_ms({4, 4, 4, 4, 2}) == 12 && best_ms({4, 4, 4, 4, 2}) == 4, "balanced stages");
static_assert(required_ms({4, 4, 4, 4, 2}, 0.75) == 6 && efficiency({4, 4, 4, 4, 2}, 6) == 0.75, "efficiency");
// Both directions at once slower than either alone: the copies bound the pipeline.
static_assert(best_ms({4, 4, 4, 6, 3}) == 6 && best_ms({4, 4, 4, 9, 2}) == 8, "copies both ways");
// One engine: the copies take turns.
static_assert(best_ms({4, 4, 4, 4, 1}) == 8 && required_ms({4, 4, 4, 4, 1}, 0.75) == 9, "one copy engine");
// A long kernel hides the copies.
static_assert(best_ms({2, 10, 2, 2, 2}) == 10, "kernel-bound");

}  // namespace overlap
