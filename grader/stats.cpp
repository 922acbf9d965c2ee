// SPDX-License-Identifier: MIT
#include "grader/stats.hpp"

#include <algorithm>
#include <stdexcept>

namespace grader {

Timing summarize(std::vector<double> s) {
    if (s.empty()) throw std::invalid_argument("summarize: no samples");
    std::sort(s.begin(), s.end());
    Timing t;
    size_t n = s.size();
    t.median_ms = n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
    t.min_ms = s.front();
    t.max_ms = s.back();
    t.runs = static_cast<int>(n);
    return t;
}

Timing better_of(const Timing& a, const Timing& b) {
    Timing t = a.median_ms <= b.median_ms ? a : b;
    t.runs = a.runs + b.runs;
    return t;
}

}  // namespace grader
