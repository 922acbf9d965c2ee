// SPDX-License-Identifier: MIT
#include <doctest/doctest.h>

#include <cmath>
#include <stdexcept>

#include "grader/common/ceilings.hpp"
#include "grader/common/json.hpp"

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

TEST_CASE("ceilings are a keyed table that survives the trip through the environment") {
    grader::Ceilings c;
    c.set("copy_gbs", 2950.5);
    c.set("fma_gflops", 51234.25);
    c.set("h2d_gbs", 24.75);  // a lesson's own ceiling travels the same way
    grader::Ceilings back = grader::Ceilings::from_text(c.to_text());
    CHECK(back.values() == c.values());
    CHECK(back.get("h2d_gbs") == doctest::Approx(24.75));
    CHECK_FALSE(back.has("dram_gbs"));
    CHECK_THROWS_AS(back.get("dram_gbs"), std::out_of_range);
    CHECK_THROWS_AS(grader::Ceilings::from_text("copy_gbs"), std::invalid_argument);
    CHECK_THROWS_AS(grader::Ceilings::from_text("copy_gbs=fast"), std::invalid_argument);
    CHECK_THROWS_AS(grader::Ceilings::from_text("copy_gbs=1x"), std::invalid_argument);
    CHECK(grader::Ceilings::from_text("").values().empty());
}
