// SPDX-License-Identifier: MIT
/// @file
/// @brief What a known-bad variant's test expects (`grade --expect-reject=R[,R…]`), and the
///        decisions that rest on it: pure host code, unit-tested without a GPU
///        (grader/tests/test_expectation.cpp).
///
/// A known-bad variant passes its test only when the grader rejects it for one of the
/// reasons named: `policy` (the policy check, before anything is built), `compile` (the
/// build: the variant must not link), or a reason an exercise's verdict carries (wrong,
/// slow, technique, …). A run with no expectation is a student's: it passes when every
/// graded exercise passes.
#pragma once
#include <set>
#include <string>
#include <vector>

#include "grader/common/results.hpp"
#include "grader/common/verdict.hpp"

namespace grader {

struct Expectation {
    std::vector<std::string> words;  ///< as given, in order (recorded in the results file)
    std::set<Reason> reasons;        ///< the exercises' reasons among them
    bool policy = false;             ///< `policy`: the policy check must reject the variant
    bool compile = false;            ///< `compile`: its build must fail

    /// "wrong,slow" → reasons {wrong, slow}. Throws std::invalid_argument on an unknown word.
    static Expectation parse(const std::string& list);
    bool known_bad() const { return !words.empty(); }
    /// Rejected only by a run (no policy or compile among the words): without a GPU such a
    /// variant cannot be judged, and need not be built.
    bool judged_by_running() const { return known_bad() && !policy && !compile; }
};

/// A stage's decision: the process's exit code (0 passed, 1 failed, 77 SKIP) and the lines
/// to print, each without its newline.
struct Decision {
    int rc = 0;
    std::vector<std::string> lines;
};

inline constexpr int kSkipExit = 77;  ///< what Meson (and Automake) read as SKIP

/// The policy check or the build (`stage`: "policy" or "compile") rejected the run, with
/// `detail` (the findings or the compiler's first errors, each line indented). `student`:
/// the message a student gets.
Decision rejected_before_running(const Expectation& e, const std::string& stage, const std::string& name,
                                 const std::string& student, const std::string& detail);

/// The policy check or the build let the run through. A variant that only that stage can
/// reject (its words name the stage and no exercise reason) has then failed its test.
/// Returns nothing (rc 0, no lines) when the run goes on.
Decision passed_stage(const Expectation& e, const std::string& stage, const std::string& name);

/// The exit code and the lines of the run's exercise verdicts: for a student's run, 0 when
/// every graded exercise passed; for a known-bad variant, 0 when every graded one was
/// rejected for an expected reason (a variant expected to be slow cannot be judged where
/// speed was not graded: skipped); 77 when nothing was graded.
Decision judge_exercises(const Expectation& e, const std::vector<ExerciseResult>& results);

}  // namespace grader
