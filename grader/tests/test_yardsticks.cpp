// SPDX-License-Identifier: MIT
// The supervisor's yardstick figures (grader/common/yardsticks.hpp): their text, their floor,
// and the recheck that takes every baseline time from them (declared_thresholds.hpp).
#include <doctest/doctest.h>

#include <stdexcept>

#include "grader/common/declared_thresholds.hpp"
#include "grader/common/sealed_report.hpp"
#include "grader/common/settings.hpp"
#include "grader/common/yardsticks.hpp"

namespace {
grader::Ceilings gpu() {
    grader::Ceilings c;
    c.set(grader::ceiling::copy_gbs, 3000);
    c.set(grader::ceiling::dram_gbs, 3350);
    c.set(grader::ceiling::fma_gflops, 50000);
    return c;
}
// 3 GB of work: 1 ms at the copy bandwidth above, so the floor is 1 / kYardstickFloor ms.
grader::Yardstick cub(double ms) { return {"05.2 shared atomics", "CUB HistogramEven, 256 bins", ms, {3e9, 0}}; }

const grader::Declared kTwo = {"06.2 step 2", {{grader::Basis::baseline, 1.26}, {grader::Basis::baseline, 0.85}}};
const std::vector<grader::Yardstick> kMeasured = {
    {"06.2 step 2", "the grader's step 1", 2.0, {4e9, 1e9}},
    {"06.2 step 2", "block sum", 1.5, {4e9, 1e9}},
    {"06.1 step 1", "the grader's step 1", 9.0, {4e9, 1e9}},  // another exercise's, of the same name
};
// What an honest process reports for 06.2 at `ms` with the supervisor's figures.
grader::TimedReport honest_06(double ms) {
    grader::TimedReport r;
    r.median_ms = ms, r.bytes = 4e9, r.flops = 1e9;
    r.fractions = {1.26, 0.85}, r.baseline_ms = {2.0, 1.5}, r.baseline_names = {"the grader's step 1", "block sum"};
    r.threshold_ms = 1.5 / 0.85;  // the lower threshold: the longer time
    return r;
}
}  // namespace

TEST_CASE("yardstick figures round-trip through their text exactly, names with commas and symbols included") {
    const std::vector<grader::Yardstick> all = {cub(0.123456789012345678), {"07.1 pipeline", "h2d_ms, one copy × 1", 7.25, {}}};
    const auto back = grader::parse_yardsticks(grader::yardsticks_to_text(all));
    REQUIRE(back.size() == 2);
    CHECK(back[0].exercise == all[0].exercise);
    CHECK(back[0].name == all[0].name);
    CHECK(back[0].value == all[0].value);  // exactly: the exercise's process compares it bit for bit
    CHECK(back[0].work.bytes == 3e9);
    CHECK(back[0].is_baseline());
    CHECK(back[1].name == "h2d_ms, one copy × 1");
    CHECK_FALSE(back[1].is_baseline());
}

TEST_CASE("a yardstick name with a tab or a newline, or a malformed line, is refused") {
    CHECK_THROWS_AS(grader::yardsticks_to_text({{"05.1 x", "a\tb", 1, {}}}), std::invalid_argument);
    CHECK_THROWS_AS(grader::yardsticks_to_text({{"05.1 x", "a\nb", 1, {}}}), std::invalid_argument);
    CHECK_THROWS_AS(grader::parse_yardsticks("05.1 x\tname\t1\t2\n"), std::invalid_argument);          // 4 fields
    CHECK_THROWS_AS(grader::parse_yardsticks("05.1 x\tname\tfast\t2\t0\n"), std::invalid_argument);     // not a number
    CHECK_THROWS_AS(grader::parse_yardsticks("05.1 x\tname\t-1\t2\t0\n"), std::invalid_argument);       // negative
}

TEST_CASE("the n-th figure of an exercise and a figure by name are that exercise's, not another's") {
    CHECK(grader::nth_yardstick(kMeasured, "06.2 step 2", 1)->name == "block sum");
    CHECK(grader::nth_yardstick(kMeasured, "06.2 step 2", 2) == nullptr);
    CHECK(grader::nth_yardstick(kMeasured, "06.1 step 1", 0)->value == 9.0);
    CHECK(grader::find_yardstick(kMeasured, "06.1 step 1", "the grader's step 1")->value == 9.0);
    CHECK(grader::find_yardstick(kMeasured, "06.3 step 3", "block sum") == nullptr);
    CHECK(grader::duplicate_name(kMeasured).empty());
    auto twice = kMeasured;
    twice.push_back({"06.2 step 2", "block sum", 1.4, {4e9, 1e9}});
    CHECK(grader::duplicate_name(twice) == "06.2 step 2: block sum");
}

TEST_CASE("an exercise's process takes the supervisor's figures in order, each of the name and work it asks for") {
    CHECK(grader::given_figure(kMeasured, "06.2 step 2", 0, "the grader's step 1", {4e9, 1e9}) == 2.0);
    CHECK(grader::given_figure(kMeasured, "06.2 step 2", 1, "block sum", {4e9, 1e9}) == 1.5);
    // Another name, another work (sized otherwise), or one figure more than was measured: a grader bug.
    CHECK_THROWS_AS(grader::given_figure(kMeasured, "06.2 step 2", 0, "block sum", {4e9, 1e9}), std::runtime_error);
    CHECK_THROWS_AS(grader::given_figure(kMeasured, "06.2 step 2", 0, "the grader's step 1", {4e9 - 4, 1e9}),
                    std::runtime_error);
    CHECK_THROWS_AS(grader::given_figure(kMeasured, "06.2 step 2", 2, "block sum", {4e9, 1e9}), std::runtime_error);
    try {
        grader::given_figure(kMeasured, "06.3 step 3", 0, "block sum", {4e9, 1e9});
        FAIL("no figure was measured for 06.3");
    } catch (const std::runtime_error& e) {
        CHECK(std::string(e.what()).find("grader bug") != std::string::npos);
        CHECK(std::string(e.what()).find("measured none") != std::string::npos);
    }
}

TEST_CASE("a baseline below its floor fails the measurement, naming the baseline, its figure, the floor and the cause") {
    const double floor_ms = 1.0 / grader::kYardstickFloor;  // the roofline of 3 GB is 1 ms here
    CHECK(grader::below_floor(cub(floor_ms * 0.999), gpu()).empty());
    const std::string low = grader::below_floor(cub(floor_ms * 1.01), gpu());
    REQUIRE_FALSE(low.empty());
    CHECK(low.find("CUB HistogramEven, 256 bins") != std::string::npos);
    CHECK(low.find("05.2 shared atomics") != std::string::npos);
    CHECK(low.find("GB/s") != std::string::npos);
    CHECK(low.find("another process using the GPU") != std::string::npos);
    CHECK(low.find("not the submission") != std::string::npos);
    // A figure with no work (lesson 07's stage times) has no roofline; 0 is "not timed" (sanitizer).
    CHECK(grader::below_floor({"07.1 pipeline", "h2d_ms", 1e9, {}}, gpu()).empty());
    CHECK(grader::below_floor(cub(0), gpu()).empty());
    // A compute-bound baseline is measured against the FMA peak: 5e10 flops take 1 ms at 50000 GFLOP/s.
    CHECK(grader::below_floor({"03.2 tiles", "cuBLAS", floor_ms * 1.01, {1e6, 5e10}}, gpu()).find("GFLOP/s") !=
          std::string::npos);
    CHECK(grader::below_floor({"03.2 tiles", "cuBLAS", floor_ms * 0.99, {1e6, 5e10}}, gpu()).empty());
}

TEST_CASE("the floor is below every baseline the self-tests measured, the slowest by design included") {
    // docs/measured: 05.1's grader copy of the starter read at 0.0010 of its roofline on the
    // H200, the lowest of all; a floor above it would fail every honest run of 05.1.
    CHECK(grader::kYardstickFloor < 0.0010);
    CHECK(grader::kYardstickFloor > 0);
}

TEST_CASE("the recheck takes every baseline time from the supervisor's figures") {
    const auto v = grader::recheck_speed(kTwo, gpu(), 1, 50e6, honest_06(1.7), "06.2 step 2", kMeasured);
    CHECK(v.reason == grader::Reason::none);
    CHECK(v.threshold_ms == doctest::Approx(1.5 / 0.85));
    CHECK(grader::recheck_speed(kTwo, gpu(), 1, 50e6, honest_06(1.8), "06.2 step 2", kMeasured).reason ==
          grader::Reason::slow);
}

TEST_CASE("a report whose baseline time differs from the supervisor's figure is tampering") {
    // A slower baseline, and the threshold that goes with it, as a process whose baselines a
    // thread of the student's slowed down would have reported them.
    grader::TimedReport r = honest_06(2.5);
    r.baseline_ms = {2.0, 3.0}, r.threshold_ms = 3.0 / 0.85;
    const auto v = grader::recheck_speed(kTwo, gpu(), 1, 50e6, r, "06.2 step 2", kMeasured);
    CHECK(v.reason == grader::Reason::crash);
    CHECK(v.message.find("block sum") != std::string::npos);
    CHECK(v.message.find("cannot be trusted") != std::string::npos);
    // The same report passes the old recheck, which took the report's baseline times.
    CHECK(grader::recheck_speed(kTwo, gpu(), 1, 50e6, r).reason == grader::Reason::none);
}

TEST_CASE("a baseline the yardstick run did not measure, of this exercise, or with no name, is tampering") {
    grader::TimedReport other = honest_06(1.7);
    other.baseline_names = {"the grader's step 1", "a baseline of my own"};
    CHECK(grader::recheck_speed(kTwo, gpu(), 1, 50e6, other, "06.2 step 2", kMeasured).reason == grader::Reason::crash);
    // 06.1's figure of the same name is not 06.2's.
    grader::TimedReport borrowed = honest_06(1.7);
    CHECK(grader::recheck_speed(kTwo, gpu(), 1, 50e6, borrowed, "06.3 step 3", kMeasured).reason == grader::Reason::crash);
    grader::TimedReport nameless = honest_06(1.7);
    nameless.baseline_names = {};
    CHECK(grader::recheck_speed(kTwo, gpu(), 1, 50e6, nameless, "06.2 step 2", kMeasured).reason == grader::Reason::crash);
}

TEST_CASE("the names of a grade's baselines go through the sealed report and back") {
    grader::Report rep;
    grader::add_timed(rep, "06.2 step 2", honest_06(1.7));
    grader::TimedReport copy_bound;
    copy_bound.fractions = {0.65}, copy_bound.baseline_ms = {0}, copy_bound.baseline_names = {""};
    grader::add_timed(rep, "01.1 matrix mapping", copy_bound);
    const auto back = grader::timed_reports(rep);
    REQUIRE(back.size() == 2);
    CHECK(back[0].second.baseline_names == std::vector<std::string>{"the grader's step 1", "block sum"});
    CHECK(back[1].second.baseline_names == std::vector<std::string>{""});
}

TEST_CASE("the supervisor judges the yardstick report: floors, bodies that stopped, unreadable figures") {
    const double floor_ms = 1.0 / grader::kYardstickFloor;
    const std::string text = grader::yardsticks_to_text({cub(0.9), {"05.3 skewed", "CUB", floor_ms * 2, {3e9, 0}}});
    const grader::YardstickRun y = grader::judge_yardsticks(text, {"05.4 uniform\tgrader bug: no such buffer"}, gpu());
    CHECK(y.error.empty());
    CHECK(y.figures.size() == 2);
    CHECK(y.failed.count("05.2 shared atomics") == 0);
    REQUIRE(y.failed.count("05.3 skewed") == 1);
    CHECK(y.failed.at("05.3 skewed").find("below its floor") != std::string::npos);
    REQUIRE(y.failed.count("05.4 uniform") == 1);
    CHECK(y.failed.at("05.4 uniform").find("grader bug: no such buffer") != std::string::npos);
    CHECK(y.failed.at("05.4 uniform").find("not the submission") != std::string::npos);
    CHECK_FALSE(grader::judge_yardsticks("05.2 x\tCUB\n", {}, gpu()).error.empty());
    const std::string twice = grader::yardsticks_to_text({cub(0.9), cub(0.8)});
    CHECK(grader::judge_yardsticks(twice, {}, gpu()).error.find("two figures of one name") != std::string::npos);
}

TEST_CASE("the yardstick program's key goes through its job file as 32 hex digits, and nothing else reads as one") {
    const std::array<uint8_t, 16> key = grader::random_key();
    std::array<uint8_t, 16> back{};
    REQUIRE(grader::key_from_text(grader::key_text(key), back));
    CHECK(back == key);
    CHECK(grader::key_text(key).size() == 32);
    CHECK_FALSE(grader::key_from_text(grader::key_text(key).substr(1), back));           // too short
    CHECK_FALSE(grader::key_from_text("0123456789abcdef0123456789abcdeg", back));        // not hex
    CHECK_FALSE(grader::key_from_text("0123456789ABCDEF0123456789abcdef", back));        // as written: lower case
}
