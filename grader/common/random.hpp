// SPDX-License-Identifier: MIT
/// @file
/// @brief Seeded random inputs: fresh every run, reproducible from the printed seed.
#pragma once
#include <cstdint>
#include <string>

namespace grader {

/// splitmix64: tiny, fast, good enough for test data, identical on every platform
/// (std::uniform_real_distribution is not specified bit-for-bit across libraries).
class Rng {
public:
    explicit Rng(uint64_t seed) : state_(seed) {}
    uint64_t next() {
        uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    /// Uniform in [lo, hi).
    double uniform(double lo, double hi) { return lo + (hi - lo) * double(next() >> 11) * 0x1.0p-53; }
    /// Uniform integer in [lo, hi].
    int64_t integer(int64_t lo, int64_t hi) { return lo + int64_t(next() % uint64_t(hi - lo + 1)); }

private:
    uint64_t state_;
};

/// A generator for one purpose (an exercise, a size): the run's seed mixed with a hash
/// of `purpose`, so exercises draw independent data yet reproduce from one seed.
inline Rng rng_for(uint64_t run_seed, const std::string& purpose) {
    uint64_t h = 1469598103934665603ull;  // FNV-1a
    for (unsigned char c : purpose) h = (h ^ c) * 1099511628211ull;
    return Rng(run_seed ^ h);
}

}  // namespace grader
