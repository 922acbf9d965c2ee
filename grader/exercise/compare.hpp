// SPDX-License-Identifier: MIT
/// @file
/// @brief Comparing a kernel's output with a host reference computed in higher precision.
#pragma once
#include <cmath>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace grader {

/// γ_n = n·u / (1 − n·u), u = 2^-24: a float result of n roundings in a row (a sum of n
/// terms in any order, with or without fused multiply-adds) is within γ_n Σ|terms| of the
/// exact one (Higham, Accuracy and Stability of Numerical Algorithms, §3.1). The lessons'
/// tolerances derive from it; each theory page says how ("How close is correct").
inline double fp32_gamma(double n) {
    const double nu = n * 0x1p-24;
    return nu / (1 - nu);
}

/// |got − expected| ≤ abs + rel·|expected|. Integers use {0, 0}: exact.
struct Tolerance {
    double abs = 0, rel = 0;
};

/// One wrong element, for the failure message.
struct Mismatch {
    size_t index = 0;
    double expected = 0, got = 0;
    double bound = -1;       ///< the element's own allowed error, or -1 for a shared tolerance
    bool unwritten = false;  ///< still holds the poison the grader wrote before the call
};

struct Comparison {
    size_t checked = 0, wrong = 0, nan = 0, unwritten = 0;
    std::vector<Mismatch> first;  ///< the first few, in index order
    bool ok() const { return checked > 0 && wrong == 0; }
    /// "37 of 3000 values wrong (12 never written); first: [12] expected 1.5, got 1.75; …".
    /// `where` names an element (default "[index]"), e.g. "C(3, 7)" for a matrix.
    std::string describe(const std::function<std::string(size_t)>& where = {}) const;
};

/// One element a result must match, with its own error bound: for results whose rounding
/// error depends on the element (a dot product over K terms, a sum of n values).
struct Expected {
    size_t index = 0;
    double value = 0, bound = 0;
};

/// True when every byte of `value` is 0xFF, the grader's poison (NaN for floating
/// point, −1 for integers).
template <class T>
bool is_poison(const T& value) {
    unsigned char bytes[sizeof(T)];
    std::memcpy(bytes, &value, sizeof(T));
    for (unsigned char b : bytes)
        if (b != 0xFF) return false;
    return true;
}

/// Element-wise comparison. NaN never passes; a size mismatch fails every element.
namespace detail {
template <class G>
void tally(Comparison& c, const std::vector<G>& got, size_t i, double e, double allowed, double bound, size_t keep) {
    bool missing = i >= got.size();
    double g = missing ? NAN : static_cast<double>(got[i]);
    bool poisoned = missing || is_poison(got[i]);
    bool bad = std::isnan(g) || std::isnan(e) || !(std::fabs(g - e) <= allowed);
    if (!bad) return;
    ++c.wrong;
    if (std::isnan(g) && !poisoned) ++c.nan;
    if (poisoned) ++c.unwritten;
    if (c.first.size() < keep) c.first.push_back({i, e, g, bound, poisoned});
}
}  // namespace detail

/// Checks only the listed elements, each against its own bound. NaN never passes.
template <class G>
Comparison compare_entries(const std::vector<G>& got, const std::vector<Expected>& expected, size_t keep = 5) {
    Comparison c;
    c.checked = expected.size();
    for (const Expected& e : expected) detail::tally(c, got, e.index, e.value, e.bound, e.bound, keep);
    return c;
}

/// Checks elements 0 … n−1 of `got` against `expected_at(i)`, an Expected with its own bound,
/// computed on the fly: for large outputs whose bound depends on the element.
template <class G, class F>
Comparison compare_each(const std::vector<G>& got, size_t n, const F& expected_at, size_t keep = 5) {
    Comparison c;
    c.checked = n;
    for (size_t i = 0; i < n; ++i) {
        const Expected e = expected_at(i);
        detail::tally(c, got, e.index, e.value, e.bound, e.bound, keep);
    }
    return c;
}

template <class G, class E>
Comparison compare(const std::vector<G>& got, const std::vector<E>& expected, Tolerance tol, size_t keep = 5) {
    Comparison c;
    c.checked = expected.size();
    for (size_t i = 0; i < expected.size(); ++i) {
        double e = static_cast<double>(expected[i]);
        detail::tally(c, got, i, e, tol.abs + tol.rel * std::fabs(e), -1, keep);
    }
    return c;
}

}  // namespace grader
