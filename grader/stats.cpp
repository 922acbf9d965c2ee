// SPDX-License-Identifier: MIT
#include "grader/stats.hpp"

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
    if (s.size() < 5 || !(required_ms > 0)) return false;
    const auto [lo, hi] = std::minmax_element(s.begin(), s.end());
    return *lo > 1.5 * required_ms || (s.size() >= 9 && *hi < 0.8 * required_ms);
}

}  // namespace grader
