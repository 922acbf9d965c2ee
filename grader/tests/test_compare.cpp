// SPDX-License-Identifier: MIT
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "grader/exercise/compare.hpp"

using grader::compare;
using grader::Tolerance;

TEST_CASE("compare accepts values within the tolerance and rejects the rest") {
    std::vector<float> got{1.0f, 2.0f, 3.001f};
    std::vector<double> want{1.0, 2.0, 3.0};
    CHECK(compare(got, want, Tolerance{0, 1e-3}).ok());
    auto strict = compare(got, want, Tolerance{0, 1e-5});
    CHECK_FALSE(strict.ok());
    CHECK(strict.wrong == 1);
    CHECK(strict.first.at(0).index == 2);
}

TEST_CASE("NaN never passes, whatever the tolerance") {
    std::vector<float> got{std::numeric_limits<float>::quiet_NaN()};
    std::vector<double> want{1.0};
    auto c = compare(got, want, Tolerance{1e30, 1e30});
    CHECK_FALSE(c.ok());
    CHECK(c.nan == 1);
    std::vector<double> nan_want{std::nan("")};
    CHECK_FALSE(compare(std::vector<double>{1.0}, nan_want, Tolerance{1, 1}).ok());
}

TEST_CASE("an element still holding the poison is reported as never written") {
    float poison;
    std::memset(&poison, 0xFF, sizeof poison);
    std::vector<float> got{1.0f, poison};
    auto c = compare(got, std::vector<double>{1.0, 2.0}, Tolerance{0, 1e-6});
    CHECK(c.unwritten == 1);
    CHECK(c.describe().find("never written") != std::string::npos);
    std::vector<int> ints{-1};
    CHECK(grader::is_poison(ints[0]));
    CHECK(compare(ints, std::vector<long long>{5}, Tolerance{}).unwritten == 1);
}

TEST_CASE("a short output fails every missing element; an empty comparison is not a pass") {
    auto c = compare(std::vector<int>{1}, std::vector<int>{1, 2, 3}, Tolerance{});
    CHECK(c.wrong == 2);
    CHECK_FALSE(compare(std::vector<int>{}, std::vector<int>{}, Tolerance{}).ok());
}

TEST_CASE("integers compare exactly") {
    CHECK(compare(std::vector<int>{7, 8}, std::vector<long long>{7, 8}, Tolerance{}).ok());
    CHECK_FALSE(compare(std::vector<int>{7, 9}, std::vector<long long>{7, 8}, Tolerance{}).ok());
}

TEST_CASE("describe names counts and the first mismatches") {
    auto c = compare(std::vector<float>{0, 5, 6}, std::vector<double>{0, 1, 2}, Tolerance{});
    std::string d = c.describe();
    CHECK(d.find("2 of 3 values wrong") == 0);
    CHECK(d.find("[1] expected 1, got 5") != std::string::npos);
}

TEST_CASE("listed elements are checked against their own bounds and named by the caller") {
    std::vector<float> got{1.0f, 2.5f, 3.0f};
    std::vector<grader::Expected> want{{0, 1.0, 0.0}, {1, 2.0, 1.0}, {2, 2.0, 0.5}};
    auto c = grader::compare_entries(got, want);
    CHECK(c.wrong == 1);
    CHECK(c.first.at(0).index == 2);
    std::string d = c.describe([](size_t i) { return "C(0, " + std::to_string(i) + ")"; });
    CHECK(d.find("C(0, 2) expected 2 ± 0.5, got 3") != std::string::npos);
    float poison;
    std::memset(&poison, 0xFF, sizeof poison);
    CHECK(grader::compare_entries(std::vector<float>{poison}, {{0, 1.0, 1e9}}).unwritten == 1);
}

TEST_CASE("fp32_gamma is n u / (1 - n u) and bounds a float sum's error") {
    CHECK(grader::fp32_gamma(0) == 0);
    CHECK(grader::fp32_gamma(1) == doctest::Approx(0x1p-24).epsilon(1e-6));
    CHECK(grader::fp32_gamma(1000) > 1000 * 0x1p-24);  // the 1 / (1 − n u) factor
    // 4097 terms of 1 + 2^-23 summed left to right in float: within the bound of the exact sum.
    const float x = 1.0f + 0x1p-23f;
    float sum = 0;
    for (int i = 0; i < 4097; ++i) sum += x;
    const double exact = 4097.0 * double(x);
    CHECK(std::fabs(double(sum) - exact) <= grader::fp32_gamma(4096) * exact);
}
