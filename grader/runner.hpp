// SPDX-License-Identifier: MIT
/// @file
/// @brief The test main's side: each exercise in a process of its own, with a time
///        limit, so a fault, a hang or a corrupted context fails that exercise only.
#pragma once
#include <set>
#include <string>
#include <vector>

#include "grader/exercise.hpp"

namespace grader {

/// Options the test main takes besides doctest's own (documented in --grader-help).
struct RunnerOptions {
    std::string seed;                 ///< --seed=N
    std::set<Reason> expect_reject;   ///< --expect-reject=wrong,bounds: a known-bad variant's test
    bool in_process = false;          ///< --in-process: no child processes (debuggers, profilers)
    int timeout_s = 0;                ///< --timeout=S per exercise; 0: the default
};

/// Parses and removes the grader's own options from argv. Throws std::invalid_argument
/// on a malformed one.
RunnerOptions parse_runner_options(int& argc, char** argv);

/// One exercise's outcome as the runner saw it.
struct Outcome {
    std::string exercise;
    std::string verdict;  ///< PASS, FAIL, SKIP, INFO (teaching output)
    Reason reason = Reason::none;
    bool perf_graded = false;
    std::string report;  ///< the exercise's JSON record
};

/// Configures the runner before doctest runs the test cases.
void configure_runner(const RunnerOptions& options, const std::string& self_path);

/// Every outcome so far, in order.
const std::vector<Outcome>& outcomes();

/// The process exit code for this run: 0 all passed (or, with --expect-reject, all
/// rejected for an expected reason), 77 nothing could be graded, 1 otherwise.
int exit_code();

/// The exit code the exercise process returns (set by run_exercise in that process).
int child_exit_code();

}  // namespace grader
