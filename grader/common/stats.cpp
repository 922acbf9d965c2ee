// SPDX-License-Identifier: MIT
#include "grader/common/stats.hpp"

#include <algorithm>
#include <stdexcept>

namespace grader {

double median(std::vector<double> s) {
    if (s.empty()) return 0;
    std::sort(s.begin(), s.end());
    const size_t n = s.size();
    return n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
}

Timing summarize(std::vector<double> s) {
    if (s.empty()) throw std::invalid_argument("summarize: no samples");
    Timing t;
    t.median_ms = median(s);
    t.min_ms = *std::min_element(s.begin(), s.end());
    t.max_ms = *std::max_element(s.begin(), s.end());
    t.runs = static_cast<int>(s.size());
    return t;
}

Timing better_of(const Timing& a, const Timing& b) { return a.median_ms <= b.median_ms ? a : b; }

bool speed_decided(const std::vector<double>& s, double required_ms) {
    if (s.empty() || !(required_ms > 0)) return false;
    const auto [lo, hi] = std::minmax_element(s.begin(), s.end());
    // Slower by a factor of four: one run. Not on the fast side: a PASS takes three runs at
    // least, so that the check of work left running after the timer is a median too.
    if (*lo > 4 * required_ms) return true;
    if (s.size() < 3) return false;
    if (*lo > 2 * required_ms || *hi < 0.5 * required_ms) return true;  // a factor of two off: 3 runs
    if (s.size() < 5) return false;
    // Every run on one side, clear of the threshold by 5 % or by twice the runs' own spread,
    // whichever is more: the median of any number of further runs like these stays there.
    const double margin = std::max(0.05, 2 * (*hi - *lo) / *lo);
    return *lo > (1 + margin) * required_ms || *hi < (1 - margin) * required_ms;
}

}  // namespace grader
