// SPDX-License-Identifier: MIT
#include "grader/common/session.hpp"

#include <random>
#include <stdexcept>

#include "grader/common/settings.hpp"

namespace grader {

const GpuInfo& gpu() {
    static const GpuInfo info = query_gpu();
    return info;
}

uint64_t parse_seed(const std::string& text) {
    if (text.empty() || text.size() > 19 || text.find_first_not_of("0123456789") != std::string::npos)
        throw std::invalid_argument("a seed is a whole number of at most 19 digits, e.g. --seed=12345 (got '" + text + "')");
    return std::stoull(text);
}

uint64_t seed() {
    static const uint64_t s = settings().seed.empty() ? std::random_device{}() % 1000000000u : parse_seed(settings().seed);
    return s;
}

bool sanitizer_mode() { return !settings().sanitizer.empty(); }

double parse_scale(const std::string& text) {
    char* end = nullptr;
    double v = std::strtod(text.c_str(), &end);
    if (end == text.c_str() || *end != '\0' || !(v > 0) || v > 10)
        throw std::invalid_argument(std::string(env::threshold_scale) + "='" + text +
                                    "' is not a number in (0, 10]; 1 grades as shipped, 0.8 lowers every threshold by 20 %");
    return v;
}

double threshold_scale() {
    static const double s = parse_scale(settings().threshold_scale.empty() ? "1" : settings().threshold_scale);
    return s;
}

}  // namespace grader
