// SPDX-License-Identifier: MIT
#include <doctest/doctest.h>

#include <cmath>
#include <stdexcept>

#include "grader/ceilings.hpp"
#include "grader/json.hpp"

TEST_CASE("JSON strings are escaped and read back") {
    grader::JsonObject o;
    o.add("message", "a \"quote\", a back\\slash\nand a line").add("n", 3).add("x", 0.5).add("ok", true);
    std::string s = o.str();
    CHECK(s.find("\\\"quote\\\"") != std::string::npos);
    CHECK(grader::json_string_field(s, "message") == "a \"quote\", a back\\slash\nand a line");
    CHECK(grader::json_string_field(s, "absent").empty());
    CHECK(s.find("\"ok\": true") != std::string::npos);
}

TEST_CASE("non-finite numbers become null, which JSON allows") {
    grader::JsonObject o;
    o.add("x", std::nan(""));
    CHECK(o.str() == "{\"x\": null}");
}

TEST_CASE("ceilings survive the trip through the environment") {
    grader::Ceilings c;
    c.copy_gbs = 2950.5;
    c.dram_gbs = 3352;
    c.fma_gflops = 51234.25;
    grader::Ceilings back = grader::Ceilings::from_env(c.to_env());
    CHECK(back.copy_gbs == doctest::Approx(c.copy_gbs));
    CHECK(back.dram_gbs == doctest::Approx(c.dram_gbs));
    CHECK(back.fma_gflops == doctest::Approx(c.fma_gflops));
    CHECK_THROWS_AS(grader::Ceilings::from_env("copy_gbs=1"), std::invalid_argument);
    CHECK_THROWS_AS(grader::Ceilings::from_env("copy_gbs=1;bogus=2;dram_gbs=1;fma_gflops=1"), std::invalid_argument);
}
