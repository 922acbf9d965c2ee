// SPDX-License-Identifier: MIT
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>

#include "grader/exercise/inputs.hpp"

TEST_CASE("the zeros distribution has exact zeros of both signs") {
    grader::Rng rng(3);
    auto v = grader::draw<float>(grader::Dist::zeros, 4000, rng);
    int zeros = 0, negative_zeros = 0;
    for (float x : v) zeros += x == 0.0f, negative_zeros += x == 0.0f && std::signbit(x);
    CHECK(zeros > 700);
    CHECK(zeros < 1300);
    CHECK(negative_zeros > 200);
    auto ints = grader::draw<int>(grader::Dist::zeros, 4000, rng, -100, 100);
    int izeros = 0;
    for (int x : ints) izeros += x == 0;
    CHECK(izeros > 700);
}

TEST_CASE("mixed magnitudes span many decades and both signs") {
    grader::Rng rng(5);
    auto v = grader::draw<float>(grader::Dist::mixed, 4000, rng);
    float lo = 1e30f, hi = 0;
    int negative = 0;
    for (float x : v) lo = std::fmin(lo, std::fabs(x)), hi = std::fmax(hi, std::fabs(x)), negative += x < 0;
    CHECK(lo < 1e-4f);
    CHECK(hi > 1e4f);
    CHECK(negative > 1500);
    auto d = grader::draw<double>(grader::Dist::mixed, 4000, rng);
    double dhi = 0;
    for (double x : d) dhi = std::fmax(dhi, std::fabs(x));
    CHECK(dhi > 1e15);  // beyond float's exact integers and far beyond its precision
}

TEST_CASE("large sums pass 2^24 and stay inside int for any n") {
    grader::Rng rng(9);
    for (size_t n : {size_t(1), size_t(2), size_t(33), size_t(1000), size_t(65537), size_t(16777259)}) {
        auto v = grader::draw<int>(grader::Dist::large_sums, n, rng);
        int64_t sum = 0;
        bool positive = true;
        for (int x : v) sum += x, positive &= x > 0;
        CHECK(positive);
        CHECK(sum > (int64_t(1) << 24));
        CHECK(sum <= INT32_MAX);
    }
}

TEST_CASE("every distribution has a name for messages") {
    CHECK(grader::describe(grader::Dist::zeros) == "inputs with exact zeros");
    CHECK(grader::describe(grader::Dist::large_sums).find("2^24") != std::string::npos);
}

TEST_CASE("inputs larger than one chunk are drawn on threads, the same for the same seed") {
    const size_t n = 2 * grader::kHostChunk + 5;  // two whole chunks and a short one
    grader::Rng a(11), b(11), c(12);
    const auto x = grader::draw<float>(grader::Dist::uniform, n, a);
    const auto y = grader::draw<float>(grader::Dist::uniform, n, b);
    const auto z = grader::draw<float>(grader::Dist::uniform, n, c);
    CHECK(x == y);
    CHECK(x != z);
    // Each chunk has its own generator: no chunk repeats the first one's values.
    bool chunks_differ = true;
    for (size_t k = 1; k * grader::kHostChunk < n; ++k) chunks_differ &= x[k * grader::kHostChunk] != x[0];
    CHECK(chunks_differ);
    CHECK(a.next() == b.next());  // the caller's generator moved on by the same amount
}
