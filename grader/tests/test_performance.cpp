// SPDX-License-Identifier: MIT
#include <doctest/doctest.h>

#include <stdexcept>

#include "grader/common/performance.hpp"

namespace {
grader::Ceilings gpu() {
    grader::Ceilings c;
    c.set(grader::ceiling::copy_gbs, 3000);  // GB/s
    c.set(grader::ceiling::dram_gbs, 3350);
    c.set(grader::ceiling::fma_gflops, 50000);
    return c;
}
// The fraction an exercise's thresholds.txt line would give it.
grader::Performance at(grader::Performance p, double fraction) {
    p.fraction = fraction;
    return p;
}
}  // namespace

TEST_CASE("a memory-bound threshold is a fraction of the copy bandwidth") {
    auto p = at(grader::memory_bound(3e9), 0.6);  // 3 GB: 1 ms at the ceiling
    auto t = grader::target_for(p, gpu(), 1.0);
    CHECK_FALSE(t.in_flops);
    CHECK(t.floor_ms == doctest::Approx(1.0));
    CHECK(t.required_ms == doctest::Approx(1.0 / 0.6));
    CHECK(t.figure(p, t.required_ms) == doctest::Approx(1800));  // GB/s
    CHECK(t.ceiling == "copy 3000 GB/s");
}

TEST_CASE("a compute-bound exercise is measured against the FMA peak") {
    auto p = at(grader::roofline(1e6, 1e11), 0.5);  // intensity 1e5 flop/byte
    auto t = grader::target_for(p, gpu(), 1.0);
    CHECK(t.in_flops);
    CHECK(t.floor_ms == doctest::Approx(2.0));
    CHECK(t.figure(p, t.required_ms) == doctest::Approx(25000));
}

TEST_CASE("a vendor baseline replaces the roofline") {
    auto p = at(grader::versus("cuBLAS", 4.0, 0, 2e11), 0.4);
    auto t = grader::target_for(p, gpu(), 1.0);
    CHECK(t.in_flops);
    CHECK(t.required_ms == doctest::Approx(10.0));
    CHECK(t.ceiling.rfind("cuBLAS", 0) == 0);
}

TEST_CASE("the instructor's scale moves every threshold") {
    auto p = at(grader::memory_bound(3e9), 0.6);
    CHECK(grader::target_for(p, gpu(), 0.5).required_ms == doctest::Approx(2 * grader::target_for(p, gpu(), 1.0).required_ms));
    CHECK_THROWS(grader::target_for(p, gpu(), 0));
    CHECK_THROWS(grader::target_for(at(grader::memory_bound(1), 0), gpu(), 1));
}

TEST_CASE("results faster than the hardware allows are impossible") {
    auto p = at(grader::memory_bound(3.35e9 + 50e6), 0.6);  // about 1 ms of DRAM traffic beyond a 50 MB L2
    CHECK(grader::impossible(p, gpu(), 50e6, 0.5));
    CHECK_FALSE(grader::impossible(p, gpu(), 50e6, 1.0));
    auto f = at(grader::roofline(1e6, 1e11), 0.5);  // 2 ms at the FMA peak
    CHECK(grader::impossible(f, gpu(), 50e6, 1.0));
    CHECK_FALSE(grader::impossible(f, gpu(), 50e6, 1.9));
}

TEST_CASE("with the tensor peak measured, flops are bounded by room times that peak, not by the FMA peak") {
    auto c = gpu();
    c.set(grader::ceiling::tensor_fp16_gflops, 500000);  // 10 × the FMA peak
    auto f = at(grader::roofline(1e6, 1e12), 0.5);      // 2 ms at the tensor peak, 20 ms at the FMA peak
    CHECK_FALSE(grader::impossible(f, c, 50e6, 2.0));    // at the tensor peak: possible
    CHECK_FALSE(grader::impossible(f, c, 50e6, 1.01 * 2.0 / grader::kTensorPeakRoom));  // within the room
    CHECK(grader::impossible(f, c, 50e6, 0.99 * 2.0 / grader::kTensorPeakRoom));        // beyond it
    CHECK(grader::impossible(f, gpu(), 50e6, 2.0));      // without it, the FMA peak still decides
    c.set(grader::ceiling::tensor_fp16_gflops, 1000);    // a tensor peak below the FMA peak does not lower the bound
    CHECK_FALSE(grader::impossible(at(grader::roofline(1e6, 1e11), 0.5), c, 50e6, 1.9));
}

TEST_CASE("a baseline carries its own work and figure into a threshold") {
    grader::Baseline cub{"CUB", grader::Work{4e9, 0}, 1.0};
    CHECK(cub.figure() == doctest::Approx(4000));  // GB/s
    auto t = grader::target_for(at(grader::versus(cub), 0.8), gpu(), 1.0);
    CHECK(t.required_ms == doctest::Approx(1.25));
    CHECK(t.ceiling == "CUB 4000 GB/s");
    CHECK(grader::Work{0, 2e12}.figure(100) == doctest::Approx(20000));  // GFLOP/s
    CHECK(grader::Baseline{"none", grader::Work{1, 0}, 0}.figure() == 0);  // not timed (sanitizer)
}

TEST_CASE("a threshold against a missing ceiling names it") {
    grader::Ceilings empty;
    CHECK_THROWS_WITH_AS(grader::target_for(at(grader::memory_bound(1), 0.5), empty, 1.0),
                         doctest::Contains("copy_gbs"), std::out_of_range);
}

TEST_CASE("with two thresholds, the lower one applies") {
    // 1 ms at the copy ceiling; a baseline of 0.5 ms on the same work.
    const auto copy_line = at(grader::memory_bound(3e9), 0.6);                   // 1.667 ms
    const auto baseline_line = at(grader::versus("step before", 0.5, 3e9, 0), 0.25);  // 2 ms
    const auto t = grader::target_for(grader::lower_of(copy_line, baseline_line), gpu(), 1.0);
    CHECK(t.required_ms == doctest::Approx(2.0));
    CHECK(t.fraction == doctest::Approx(0.25));
    CHECK(t.ceiling.rfind("step before", 0) == 0);
    const auto u = grader::target_for(grader::lower_of(baseline_line, copy_line), gpu(), 1.0);
    CHECK(u.required_ms == doctest::Approx(2.0));  // whichever order they come in
}
