// SPDX-License-Identifier: MIT
#include <doctest/doctest.h>

#include "grader/common/wildcard.hpp"

TEST_CASE("filters match like doctest's: * and ?, letters without case") {
    CHECK(grader::wildcard_match("01.2*", "01.2 AoS vs SoA"));
    CHECK(grader::wildcard_match("*step 3*", "06.3 step 3 sequential addressing"));
    CHECK(grader::wildcard_match("06.?", "06.7"));
    CHECK(grader::wildcard_match("*AOS*", "01.2 AoS vs SoA"));
    CHECK(grader::wildcard_match("*", ""));
    CHECK_FALSE(grader::wildcard_match("01.2", "01.2 AoS vs SoA"));
    CHECK_FALSE(grader::wildcard_match("06.?", "06.10"));
    CHECK(grader::wildcard_match("a*b*c", "aXbYbZc"));
    CHECK_FALSE(grader::wildcard_match("a*b*c", "aXbYbZ"));
}

TEST_CASE("include and exclude lists keep the right names, in order") {
    const std::vector<std::string> names = {"06.0 table", "06.1 step 1", "06.5 step 5", "06.7 step 7"};
    CHECK(grader::filter_names(names, {}, {}) == names);
    CHECK(grader::filter_names(names, {"06.1*,06.7*"}, {}) == std::vector<std::string>{"06.1 step 1", "06.7 step 7"});
    CHECK(grader::filter_names(names, {}, {"06.0*"}).size() == 3);
    CHECK(grader::filter_names(names, {"*step*"}, {"*5*"}) == std::vector<std::string>{"06.1 step 1", "06.7 step 7"});
    CHECK(grader::filter_names(names, {"07.*"}, {}).empty());
}

TEST_CASE("comma-separated lists split into their items") {
    CHECK(grader::split_commas("01.1*,01.2*") == std::vector<std::string>{"01.1*", "01.2*"});
    CHECK(grader::split_commas("one") == std::vector<std::string>{"one"});
    CHECK(grader::split_commas("").empty());
    CHECK(grader::split_commas("a,,b") == std::vector<std::string>{"a", "", "b"});
}
