// SPDX-License-Identifier: MIT
#include <doctest/doctest.h>

#include "grader/performance.hpp"

namespace {
grader::Ceilings gpu() {
    grader::Ceilings c;
    c.copy_gbs = 3000;   // GB/s
    c.dram_gbs = 3350;
    c.fma_gflops = 50000;
    return c;
}
}  // namespace

TEST_CASE("a memory-bound threshold is a fraction of the copy bandwidth") {
    auto p = grader::memory_bound(3e9, 0.6);  // 3 GB: 1 ms at the ceiling
    auto t = grader::target_for(p, gpu(), 1.0);
    CHECK_FALSE(t.in_flops);
    CHECK(t.floor_ms == doctest::Approx(1.0));
    CHECK(t.required_ms == doctest::Approx(1.0 / 0.6));
    CHECK(t.figure(p, t.required_ms) == doctest::Approx(1800));  // GB/s
    CHECK(t.ceiling == "copy 3000 GB/s");
}

TEST_CASE("a compute-bound exercise is measured against the FMA peak") {
    auto p = grader::roofline(1e6, 1e11, 0.5);  // intensity 1e5 flop/byte
    auto t = grader::target_for(p, gpu(), 1.0);
    CHECK(t.in_flops);
    CHECK(t.floor_ms == doctest::Approx(2.0));
    CHECK(t.figure(p, t.required_ms) == doctest::Approx(25000));
}

TEST_CASE("a vendor baseline replaces the roofline") {
    auto p = grader::versus("cuBLAS", 4.0, 0, 2e11, 0.4);
    auto t = grader::target_for(p, gpu(), 1.0);
    CHECK(t.in_flops);
    CHECK(t.required_ms == doctest::Approx(10.0));
    CHECK(t.ceiling.rfind("cuBLAS", 0) == 0);
}

TEST_CASE("the instructor's scale moves every threshold") {
    auto p = grader::memory_bound(3e9, 0.6);
    CHECK(grader::target_for(p, gpu(), 0.5).required_ms == doctest::Approx(2 * grader::target_for(p, gpu(), 1.0).required_ms));
    CHECK_THROWS(grader::target_for(p, gpu(), 0));
    CHECK_THROWS(grader::target_for(grader::memory_bound(1, 0), gpu(), 1));
}

TEST_CASE("results faster than the hardware allows are impossible") {
    auto p = grader::memory_bound(3.35e9 + 50e6, 0.6);  // about 1 ms of DRAM traffic beyond a 50 MB L2
    CHECK(grader::impossible(p, gpu(), 50e6, 0.5));
    CHECK_FALSE(grader::impossible(p, gpu(), 50e6, 1.0));
    auto f = grader::roofline(1e6, 1e11, 0.5);  // 2 ms at the FMA peak
    CHECK(grader::impossible(f, gpu(), 50e6, 1.0));
    CHECK_FALSE(grader::impossible(f, gpu(), 50e6, 1.9));
}
