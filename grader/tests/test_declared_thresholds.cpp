// SPDX-License-Identifier: MIT
#include <doctest/doctest.h>

#include <cmath>
#include <stdexcept>

#include "grader/common/declared_thresholds.hpp"

namespace {
grader::Ceilings gpu() {
    grader::Ceilings c;
    c.set(grader::ceiling::copy_gbs, 3000);
    c.set(grader::ceiling::dram_gbs, 3350);
    c.set(grader::ceiling::fma_gflops, 50000);
    return c;
}
const char* kTable = R"(# a comment
01.1 matrix mapping | copy | 0.65

06.2 step 2 | baseline | 1.26 | baseline | 0.85
05.3 skewed inputs / uniform bytes | baseline | 0.7
)";
// What an honest exercise process reports for 01.1 at `ms`: 3 GB moved, 65 % of copy.
grader::TimedReport honest_01(double ms) {
    grader::TimedReport r;
    r.median_ms = ms, r.bytes = 3e9, r.flops = 0;
    r.fractions = {0.65}, r.baseline_ms = {0};
    r.threshold_ms = 1.0 / 0.65;  // 1 ms at 3000 GB/s
    return r;
}
}  // namespace

TEST_CASE("a thresholds file parses, comments and blank lines aside") {
    const auto all = grader::parse_declared(kTable, "t.txt");
    REQUIRE(all.size() == 3);
    CHECK(all[0].exercise == "01.1 matrix mapping");
    CHECK(all[0].targets.size() == 1);
    CHECK(all[0].targets[0].basis == grader::Basis::copy);
    CHECK(all[1].targets.size() == 2);
    CHECK(all[1].targets[1].fraction == doctest::Approx(0.85));
    CHECK(grader::find_declared(all, "05.3 skewed inputs / uniform bytes") != nullptr);
    CHECK(grader::find_declared(all, "05.3 skewed inputs") == nullptr);
    CHECK(grader::declared_name("05.3 skewed inputs", "uniform bytes") == "05.3 skewed inputs / uniform bytes");
    CHECK(grader::declared_name("01.1 matrix mapping", "") == "01.1 matrix mapping");
}

TEST_CASE("a malformed thresholds file is an error naming its line") {
    CHECK_THROWS_WITH_AS(grader::parse_declared("01.1 x | copy\n", "t.txt"), doctest::Contains("t.txt:1"), std::invalid_argument);
    CHECK_THROWS_WITH_AS(grader::parse_declared("\n01.1 x | dram | 0.5\n", "t.txt"), doctest::Contains("t.txt:2"),
                         std::invalid_argument);
    CHECK_THROWS_AS(grader::parse_declared("01.1 x | copy | -1\n", "t.txt"), std::invalid_argument);
    CHECK_THROWS_AS(grader::parse_declared("01.1 x | copy | 0.5x\n", "t.txt"), std::invalid_argument);
    CHECK_THROWS_WITH_AS(grader::parse_declared("a | copy | 0.5\na | copy | 0.6\n", "t.txt"), doctest::Contains("twice"),
                         std::invalid_argument);
}

TEST_CASE("the supervisor's recomputation agrees with an honest report") {
    const auto all = grader::parse_declared(kTable, "t.txt");
    const auto& d = *grader::find_declared(all, "01.1 matrix mapping");
    CHECK(grader::recheck_speed(d, gpu(), 1.0, 50e6, honest_01(1.2)).reason == grader::Reason::none);
    CHECK(grader::recheck_speed(d, gpu(), 1.0, 50e6, honest_01(1.6)).reason == grader::Reason::slow);
    // 3 GB, less the L2, in 0.5 ms: faster than 3350 GB/s of DRAM allows.
    CHECK(grader::recheck_speed(d, gpu(), 1.0, 50e6, honest_01(0.5)).reason == grader::Reason::impossible);
    // The instructor's scale moves the supervisor's threshold, and the report must follow.
    auto scaled = honest_01(2.0);
    scaled.threshold_ms = 1.0 / (0.65 * 0.5);
    CHECK(grader::recheck_speed(d, gpu(), 0.5, 50e6, scaled).reason == grader::Reason::none);
}

TEST_CASE("a report whose fraction, threshold or shape differs is refused") {
    const auto all = grader::parse_declared(kTable, "t.txt");
    const auto& d = *grader::find_declared(all, "01.1 matrix mapping");
    auto lowered_fraction = honest_01(2.0);
    lowered_fraction.fractions = {0.3};
    lowered_fraction.threshold_ms = 1.0 / 0.3;
    CHECK(grader::recheck_speed(d, gpu(), 1.0, 50e6, lowered_fraction).reason == grader::Reason::crash);
    // A process whose ceilings were lowered computes a longer time allowed.
    auto lowered_ceiling = honest_01(2.0);
    lowered_ceiling.threshold_ms = 10;
    const auto v = grader::recheck_speed(d, gpu(), 1.0, 50e6, lowered_ceiling);
    CHECK(v.reason == grader::Reason::crash);
    CHECK(v.message.find("threshold") != std::string::npos);
    auto two = honest_01(1.2);
    two.fractions = {0.65, 0.5}, two.baseline_ms = {0, 0};
    CHECK(grader::recheck_speed(d, gpu(), 1.0, 50e6, two).reason == grader::Reason::crash);
    auto missing = honest_01(std::nan(""));
    CHECK(grader::recheck_speed(d, gpu(), 1.0, 50e6, missing).reason == grader::Reason::crash);
}

TEST_CASE("two declared thresholds: the lower applies, each against its own baseline") {
    const auto all = grader::parse_declared(kTable, "t.txt");
    const auto& d = *grader::find_declared(all, "06.2 step 2");
    grader::TimedReport r;
    r.bytes = 1e9, r.median_ms = 1.1;
    r.fractions = {1.26, 0.85}, r.baseline_ms = {1.5, 0.8};  // 1.5 / 1.26 = 1.19 ms; 0.8 / 0.85 = 0.94 ms
    r.threshold_ms = 1.5 / 1.26;
    CHECK(grader::recheck_speed(d, gpu(), 1.0, 50e6, r).reason == grader::Reason::none);
    r.median_ms = 1.3;
    CHECK(grader::recheck_speed(d, gpu(), 1.0, 50e6, r).reason == grader::Reason::slow);
    r.baseline_ms = {1.5, 0};  // no time for a baseline: nothing to recompute from
    CHECK(grader::recheck_speed(d, gpu(), 1.0, 50e6, r).reason == grader::Reason::crash);
}

TEST_CASE("timed reports travel through a sealed report's fields and back") {
    grader::Report rep;
    auto a = honest_01(1.25);
    grader::TimedReport b;
    b.median_ms = 2, b.bytes = 1e9, b.flops = 5e9, b.fractions = {1.26, 0.85}, b.baseline_ms = {1.5, 0.8}, b.threshold_ms = 1.2;
    grader::add_timed(rep, "x", a);
    grader::add_timed(rep, "x / part", b);
    const auto back = grader::timed_reports(rep);
    REQUIRE(back.size() == 2);
    CHECK(back[0].first == "x");
    CHECK(back[0].second.median_ms == 1.25);
    CHECK(back[0].second.threshold_ms == a.threshold_ms);  // exactly: %.17g round-trips
    CHECK(back[1].first == "x / part");
    CHECK(back[1].second.fractions == std::vector<double>{1.26, 0.85});
    CHECK(back[1].second.flops == 5e9);
}
