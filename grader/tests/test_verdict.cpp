// SPDX-License-Identifier: MIT
#include <doctest/doctest.h>

#include "grader/common/verdict.hpp"

TEST_CASE("reasons read back from their words") {
    for (auto r : {grader::Reason::wrong, grader::Reason::bounds, grader::Reason::fault, grader::Reason::slow,
                   grader::Reason::impossible, grader::Reason::untimed, grader::Reason::hang, grader::Reason::crash})
        CHECK(grader::reason_from_string(grader::to_string(r)) == r);
    CHECK(grader::reason_from_string("nonsense") == grader::Reason::none);
}

TEST_CASE("a failure says what came, what to change and where to read") {
    grader::Verdict v{"01.1 matrix mapping", "FAIL", grader::Reason::slow, "too slow: 1682 GB/s, needs >= 2749",
                      "let threadIdx.x select the column", "read lessons/01-coalescing/theory.md", ""};
    const std::string s = grader::verdict_lines(v);
    CHECK(s.rfind("FAIL  01.1 matrix mapping", 0) == 0);
    CHECK(s.find("[slow] too slow") != std::string::npos);
    CHECK(s.find("\n      hint: let threadIdx.x") != std::string::npos);
    CHECK(s.find("\n      read lessons/01-coalescing/theory.md\n") != std::string::npos);
}

TEST_CASE("a pass shows its figures and its note; INFO and SKIP are one line") {
    grader::Verdict pass{"06.6 step 6", "PASS", grader::Reason::none, "2289 GB/s", "", "", "overlaps step 5"};
    CHECK(grader::verdict_lines(pass).find("2289 GB/s\n      note: overlaps step 5\n") != std::string::npos);
    grader::Verdict info{"06.0 table", "INFO", grader::Reason::none, "", "", "", ""};
    CHECK(grader::verdict_lines(info).find("teaching output, not graded\n") != std::string::npos);
    grader::Verdict skip{"06.0 table", "SKIP", grader::Reason::skipped, "nothing is timed", "", "", ""};
    CHECK(grader::verdict_lines(skip) == "SKIP  06.0 table                   nothing is timed\n");
}
