// SPDX-License-Identifier: MIT
#include <doctest/doctest.h>

#include "grader/exercise/inputs.hpp"

TEST_CASE("the same seed and purpose give the same data; another purpose does not") {
    auto a = grader::rng_for(42, "01.1/sizes"), b = grader::rng_for(42, "01.1/sizes"), c = grader::rng_for(42, "01.2/sizes");
    uint64_t x = a.next();
    CHECK(x == b.next());
    CHECK(x != c.next());
}

TEST_CASE("random values stay in their range") {
    grader::Rng rng(7);
    auto f = grader::draw<float>(grader::Dist::uniform, 10000, rng, -2, 3);
    auto i = grader::draw<int>(grader::Dist::uniform, 10000, rng, 0, 9);
    bool f_ok = true, i_ok = true, saw_nine = false;
    for (float v : f) f_ok &= v >= -2 && v < 3;
    for (int v : i) i_ok &= v >= 0 && v <= 9, saw_nine |= v == 9;
    CHECK(f_ok);
    CHECK(i_ok);
    CHECK(saw_nine);
}
