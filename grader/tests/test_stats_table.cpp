// SPDX-License-Identifier: MIT
#include <doctest/doctest.h>

#include <cmath>

#include "grader/common/stats.hpp"
#include "grader/exercise/table.hpp"

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
    CHECK_FALSE(grader::speed_decided({3, 3}, 1.0));                    // too few runs to say anything
    CHECK(grader::speed_decided({4.5}, 1.0));                           // over four times the time allowed: one run
    CHECK_FALSE(grader::speed_decided({0.1}, 1.0));                     // a PASS takes three runs
    CHECK_FALSE(grader::speed_decided({}, 1.0));
    CHECK(grader::speed_decided({3, 2.1, 3}, 1.0));                     // every run over twice the time allowed
    CHECK(grader::speed_decided({0.4, 0.45, 0.3}, 1.0));                // every run under half of it
    CHECK_FALSE(grader::speed_decided({3, 1.9, 3}, 1.0));               // one run within a factor of two: go on
    CHECK_FALSE(grader::speed_decided({1.2, 1.2, 1.2, 1.2}, 1.0));      // near: 5 runs at least
    CHECK(grader::speed_decided({1.2, 1.21, 1.2, 1.19, 1.2}, 1.0));     // all 19 % slow, 2 % spread: decided
    CHECK(grader::speed_decided({0.9, 0.9, 0.91, 0.9, 0.9}, 1.0));      // all 9 % fast, 1 % spread: decided
    CHECK_FALSE(grader::speed_decided({1.04, 1.04, 1.04, 1.04, 1.04}, 1.0));  // inside the 5 % margin
    CHECK_FALSE(grader::speed_decided({1.1, 1.3, 1.2, 1.15, 1.2}, 1.0));      // 18 % spread: margin 36 %
    CHECK_FALSE(grader::speed_decided({0.7, 0.7, 0.7, 0.7, 1.01, 0.7, 0.7}, 1.0));  // one run past it
    CHECK_FALSE(grader::speed_decided(std::vector<double>(21, 1.0), 1.0));  // at the threshold: all the runs
}
