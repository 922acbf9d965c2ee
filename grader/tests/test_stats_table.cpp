// SPDX-License-Identifier: MIT
#include <doctest/doctest.h>

#include <cmath>

#include "grader/stats.hpp"
#include "grader/table.hpp"

TEST_CASE("the median ignores outliers; min, max and spread describe them") {
    auto t = grader::summarize({5.0, 1.0, 1.1, 0.9, 1.0});
    CHECK(t.median_ms == doctest::Approx(1.0));
    CHECK(t.min_ms == doctest::Approx(0.9));
    CHECK(t.max_ms == doctest::Approx(5.0));
    CHECK(t.runs == 5);
    CHECK(t.spread() == doctest::Approx(4.1));
    CHECK(grader::summarize({1.0, 3.0}).median_ms == doctest::Approx(2.0));
    CHECK_THROWS(grader::summarize({}));
}

TEST_CASE("better_of keeps the faster series as it was measured") {
    auto a = grader::summarize({2, 2, 2}), b = grader::summarize({1, 1, 1, 1});
    auto t = grader::better_of(a, b);
    CHECK(t.median_ms == doctest::Approx(1.0));
    CHECK(t.runs == 4);  // the median, min and max are those of these four runs
}

TEST_CASE("tables align their columns") {
    grader::Table t({"stage", "GB/s"});
    t.row({"naive", "12"});
    t.row({"coalesced — wide", "2950"});
    std::string s = t.str();
    CHECK(s.find("  naive               12\n") != std::string::npos);
    CHECK(s.find("  coalesced — wide  2950\n") != std::string::npos);
    CHECK(grader::fixed(std::nan("")) == "—");
    CHECK(grader::fixed(3.14159, 2) == "3.14");
}

TEST_CASE("timing stops only once more runs could not change the verdict") {
    CHECK_FALSE(grader::speed_decided({3, 3, 3, 3}, 1.0));          // too few runs to say anything
    CHECK(grader::speed_decided({3, 3, 1.6, 3, 3}, 1.0));           // even the fastest is 1.6 × the time allowed
    CHECK_FALSE(grader::speed_decided({3, 3, 1.4, 3, 3}, 1.0));     // one run within reach: go on
    CHECK_FALSE(grader::speed_decided({0.5, 0.5, 0.5, 0.5, 0.5}, 1.0));  // fast, but too few runs to stop
    CHECK(grader::speed_decided(std::vector<double>(9, 0.7), 1.0));
    CHECK_FALSE(grader::speed_decided({0.7, 0.7, 0.7, 0.7, 0.9, 0.7, 0.7, 0.7, 0.7}, 1.0));  // one run near it
    CHECK_FALSE(grader::speed_decided(std::vector<double>(21, 1.0), 1.0));  // at the threshold: all the runs
}
