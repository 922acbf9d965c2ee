// SPDX-License-Identifier: MIT
/// @file
/// @brief Input distributions that break sloppy code: every lesson checks its exercises on
///        several of them, and a failure names the one that broke the kernel.
///
/// Uniform values in [−1, 1) hide many bugs. Exact zeros catch divisions by an input
/// (`x · (1 + v·dt / x)` is NaN at x = 0); mixed magnitudes catch arithmetic in a narrower
/// type (a double routed through float, a float sum kept in half); positive integers whose
/// sum passes 2^24 catch integer sums routed through float, which has 24 bits of mantissa.
#pragma once
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "grader/common/random.hpp"
#include "grader/exercise/host_chunks.hpp"

namespace grader {

enum class Dist {
    uniform,     ///< floating point: [lo, hi); integers: [lo, hi]
    zeros,       ///< uniform, with a quarter of the values exactly zero (half of those −0.0 for floats)
    mixed,       ///< floating point: random sign, magnitude 2^U(−20, 20) (float) or 2^U(−60, 60) (double)
    large_sums,  ///< integers: positive values whose sum lies between 2^24 and 2^31 − 1 for any n
};

/// A few words for messages: "inputs: exact zeros".
inline std::string describe(Dist d) {
    switch (d) {
        case Dist::uniform: return "uniform inputs";
        case Dist::zeros: return "inputs with exact zeros";
        case Dist::mixed: return "inputs of mixed magnitudes";
        case Dist::large_sums: return "positive inputs whose sum passes 2^24";
    }
    return "inputs";
}

/// Fills v[begin, end) with values of T from `d`, drawn from `rng`.
template <class T>
void draw_into(std::vector<T>& v, size_t begin, size_t end, Dist d, Rng& rng, double lo, double hi) {
    if constexpr (std::is_floating_point_v<T>) {
        const double span = sizeof(T) == 4 ? 20 : 60;
        for (size_t k = begin; k < end; ++k) {
            T& x = v[k];
            if (d == Dist::mixed) {
                const double magnitude = std::exp2(rng.uniform(-span, span));
                x = static_cast<T>(rng.next() & 1 ? magnitude : -magnitude);
            } else if (d == Dist::zeros && rng.next() % 4 == 0) {
                x = rng.next() & 1 ? T(0) : -T(0);
            } else {
                x = static_cast<T>(rng.uniform(lo, hi));
            }
        }
    } else {
        static_assert(std::is_integral_v<T>, "draw: arithmetic types only");
        if (d == Dist::large_sums) {
            // Each value in [max/2, max] with n·max below 2^31: the sum stays a valid int and
            // is at least 2^30 − n/2 > 2^24 for any n up to 2^30.
            const int64_t max = std::max<int64_t>(1, std::min<int64_t>(std::numeric_limits<T>::max(),
                                                                       (int64_t(1) << 31) / int64_t(std::max<size_t>(v.size(), 1)) - 1));
            for (size_t k = begin; k < end; ++k) v[k] = static_cast<T>(rng.integer(max / 2, max));
        } else {
            for (size_t k = begin; k < end; ++k)
                v[k] = (d == Dist::zeros && rng.next() % 4 == 0) ? T(0) : static_cast<T>(rng.integer(int64_t(lo), int64_t(hi)));
        }
    }
}

/// n values of T from `d`; `lo`, `hi` bound the uniform part (ignored by mixed and large_sums).
/// Inputs larger than one chunk are drawn on several threads (host_chunks.hpp), each chunk
/// from its own generator seeded from `rng`: the same seed gives the same values.
template <class T>
std::vector<T> draw(Dist d, size_t n, Rng& rng, double lo = -1, double hi = 1) {
    std::vector<T> v(n);
    if (n <= kHostChunk) {
        draw_into(v, 0, n, d, rng, lo, hi);
    } else {
        for_each_seeded_chunk(n, rng, [&](size_t begin, size_t end, Rng& r) { draw_into(v, begin, end, d, r, lo, hi); });
    }
    return v;
}

}  // namespace grader
