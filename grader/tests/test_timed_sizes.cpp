// SPDX-License-Identifier: MIT
#include <doctest/doctest.h>

#include <algorithm>
#include <set>
#include <stdexcept>

#include "grader/common/timed_sizes.hpp"

TEST_CASE("a band's span is the largest power of two within its share of the size") {
    CHECK(grader::band_span(100000000) == (size_t(1) << 19));  // 1 % is 10^6: 2^19 = 524288 ≤ it < 2^20
    CHECK(grader::band_span(65536) == 512);                     // 655.36
    CHECK(grader::band_span(8191, 64.0 / 8191) == 64);          // a share that asks for exactly one tile
    CHECK(grader::band_span(99) == 0);                          // under one element: no band
    CHECK(grader::band_span(0) == 0);
}

TEST_CASE("the nominal draw keeps every dimension at its maximum") {
    grader::SizeDraw d = grader::SizeDraw::nominal();
    CHECK(d.is_nominal());
    CHECK(d.pick(1000, 64) == 1000);
    CHECK(d.pick(7, 7, 1) == 7);
}

TEST_CASE("picks stay in their band, on their step, and reach both of its ends") {
    std::set<size_t> seen;
    for (uint64_t series = 1; series <= 40; ++series)
        for (int run = 0; run < 30; ++run) {
            grader::SizeDraw d(series * 0x9E3779B97F4A7C15ull, run);
            const size_t n = d.pick(1000, 64, 4);
            CHECK(n <= 1000);
            CHECK(n >= 1000 - 64);
            CHECK((1000 - n) % 4 == 0);
            seen.insert(n);
        }
    CHECK(seen.size() == 17);  // 1000, 996, …, 936: every size the band holds
    CHECK(seen.count(1000) == 1);
    CHECK(seen.count(936) == 1);
}

TEST_CASE("the first run of every timing works on the largest size of every band") {
    for (uint64_t series : {1ull, 42ull, 0xDEADBEEFull, ~0ull}) {
        grader::SizeDraw d(series, 0);
        CHECK_FALSE(d.is_nominal());
        CHECK(d.pick(3996, 16, 4) == 3996);
        CHECK(d.pick(4100, 16, 4) == 4100);
        CHECK(d.pick(100003, 512) == 100003);
    }
    // So a launcher that keeps buffers for the largest call so far, and drops what it kept
    // whenever they grow, keeps them from run 1 on: with drawn first runs it had grown them at
    // every one of 8 runs in about 1.4 % of series on lesson 03's band.
    for (uint64_t series = 1; series <= 200; ++series) {
        size_t largest = 0;
        for (int run = 0; run < 8; ++run) {
            grader::SizeDraw d(series * 0x9E3779B97F4A7C15ull, run);
            const size_t m = d.pick(3996, 16, 4), n = d.pick(4100, 16, 4);
            if (run > 0) CHECK(m * n <= largest);
            largest = std::max(largest, m * n);
        }
    }
}

TEST_CASE("every residue modulo 4 comes up within four consecutive runs from run 1, for every dimension") {
    for (uint64_t series : {1ull, 42ull, 0xDEADBEEFull, ~0ull}) {
        for (int first = 1; first < 20; ++first) {
            std::set<size_t> rows, cols;
            for (int run = first; run < first + 4; ++run) {
                grader::SizeDraw d(series, run);
                rows.insert(d.pick(100003, 512) % 4);
                cols.insert(d.pick(8191, 64) % 4);
            }
            CHECK(rows.size() == 4);
            CHECK(cols.size() == 4);
        }
    }
}

TEST_CASE("the same series and run give the same sizes; another series gives others") {
    grader::SizeDraw a(7, 3), b(7, 3);
    CHECK(a.pick(1 << 20, 1 << 12) == b.pick(1 << 20, 1 << 12));
    int differ = 0;
    for (uint64_t s = 100; s < 120; ++s) {
        grader::SizeDraw c(s, 3), e(s + 1000, 3);
        differ += c.pick(1 << 20, 1 << 12) != e.pick(1 << 20, 1 << 12);
    }
    CHECK(differ >= 18);
}

TEST_CASE("a band of one choice, and bands that reach below zero") {
    grader::SizeDraw d(5, 0);
    CHECK(d.pick(10, 0) == 10);
    CHECK(d.pick(10, 3, 4) == 10);  // no multiple of 4 fits in a span of 3
    CHECK_THROWS_AS(d.pick(10, 11), std::invalid_argument);
    CHECK_THROWS_AS(d.pick(10, 4, 0), std::invalid_argument);
}

TEST_CASE("a run's time is scaled to the nominal work") {
    CHECK(grader::scaled_sample(2.0, 0.5) == doctest::Approx(4.0));
    CHECK(grader::scaled_sample(3.0, 1.0) == doctest::Approx(3.0));
    CHECK_THROWS_AS(grader::scaled_sample(1.0, 0.0), std::logic_error);
    CHECK_THROWS_AS(grader::scaled_sample(1.0, 1.5), std::logic_error);
}
