// SPDX-License-Identifier: MIT
#include <doctest/doctest.h>

#include <stdexcept>

#include "grader/supervisor/expectation.hpp"

namespace {

grader::ExerciseResult result(const char* verdict, grader::Reason reason, bool perf_graded = true) {
    grader::ExerciseResult e;
    e.verdict.exercise = "01.1 matrix mapping";
    e.verdict.verdict = verdict;
    e.verdict.reason = reason;
    e.perf_graded = perf_graded;
    return e;
}

}  // namespace

TEST_CASE("--expect-reject: run-time reasons, policy and compile, unknown words refused") {
    const auto e = grader::Expectation::parse("wrong,policy,slow");
    CHECK(e.known_bad());
    CHECK(e.policy);
    CHECK_FALSE(e.compile);
    CHECK(e.reasons == std::set<grader::Reason>{grader::Reason::wrong, grader::Reason::slow});
    CHECK(e.words == std::vector<std::string>{"wrong", "policy", "slow"});
    CHECK_FALSE(e.judged_by_running());
    CHECK(grader::Expectation::parse("technique,slow").judged_by_running());
    CHECK_FALSE(grader::Expectation::parse("compile").judged_by_running());
    CHECK_FALSE(grader::Expectation{}.known_bad());
    CHECK_THROWS_AS(grader::Expectation::parse("sluggish"), std::invalid_argument);
    CHECK_THROWS_AS(grader::Expectation::parse("skipped"), std::invalid_argument);
}

TEST_CASE("a stage that rejects: FAIL for a student, OK when expected, BAD otherwise") {
    const grader::Expectation student, policy = grader::Expectation::parse("policy"),
                                       wrong = grader::Expectation::parse("wrong");
    auto d = grader::rejected_before_running(student, "policy", "lesson01", "not allowed:", "\n      x");
    CHECK(d.rc == 1);
    CHECK(d.lines.at(0).rfind("FAIL  lesson01: [policy] not allowed:", 0) == 0);
    d = grader::rejected_before_running(policy, "policy", "lesson01-bad-x", "", "");
    CHECK(d.rc == 0);
    CHECK(d.lines.at(0).rfind("OK    ", 0) == 0);
    d = grader::rejected_before_running(wrong, "compile", "lesson01-bad-x", "", "");
    CHECK(d.rc == 1);
    CHECK(d.lines.at(0).rfind("BAD   ", 0) == 0);
}

TEST_CASE("a stage that lets a variant through fails it only when that stage alone could reject it") {
    CHECK(grader::passed_stage(grader::Expectation::parse("policy"), "policy", "v").rc == 1);
    CHECK(grader::passed_stage(grader::Expectation::parse("compile"), "compile", "v").rc == 1);
    CHECK(grader::passed_stage(grader::Expectation::parse("policy"), "compile", "v").lines.empty());
    CHECK(grader::passed_stage(grader::Expectation::parse("policy,wrong"), "policy", "v").lines.empty());  // a run may still
    CHECK(grader::passed_stage(grader::Expectation{}, "policy", "v").lines.empty());
}

TEST_CASE("the exercises' verdicts decide the exit code") {
    using grader::Reason;
    const grader::Expectation student, slow = grader::Expectation::parse("slow,technique");
    CHECK(grader::judge_exercises(student, {result("PASS", Reason::none)}).rc == 0);
    CHECK(grader::judge_exercises(student, {result("PASS", Reason::none), result("FAIL", Reason::slow)}).rc == 1);
    CHECK(grader::judge_exercises(student, {}).rc == grader::kSkipExit);
    grader::ExerciseResult table = result("INFO", Reason::none);
    table.teaching = true;
    CHECK(grader::judge_exercises(student, {table}).rc == 0);             // a teaching table alone: nothing failed
    CHECK(grader::judge_exercises(slow, {table}).rc == grader::kSkipExit);  // but a variant was not judged
    CHECK(grader::judge_exercises(slow, {result("FAIL", Reason::technique)}).rc == 0);
    auto d = grader::judge_exercises(slow, {result("FAIL", Reason::wrong)});
    CHECK(d.rc == 1);
    CHECK(d.lines.at(0).find("rejected [wrong], not rejected for an expected reason") != std::string::npos);
    d = grader::judge_exercises(slow, {result("PASS", Reason::none)});
    CHECK(d.rc == 1);
    CHECK(d.lines.at(0).find("ACCEPTED") != std::string::npos);
    // Expected to be slow, but speed was not graded (under compute-sanitizer): not judged.
    d = grader::judge_exercises(slow, {result("PASS", Reason::none, false)});
    CHECK(d.rc == grader::kSkipExit);
    CHECK(d.lines.at(0).rfind("SKIP  ", 0) == 0);
    CHECK(grader::judge_exercises(slow, {result("SKIP", Reason::skipped)}).rc == grader::kSkipExit);
}
