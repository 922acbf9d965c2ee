// SPDX-License-Identifier: MIT
/// @file
/// @brief An exercise's outcome in words: the reasons a verdict can give, and the lines a
///        student reads (pure host code, shared by the supervisor and unsupervised runs).
#pragma once
#include <string>

namespace grader {

/// Why an exercise failed: the results file and the known-bad tests speak in these.
enum class Reason {
    none,
    wrong,       ///< a result differs from the reference, or an output was left unwritten
    bounds,      ///< something was written outside an output, or a const input changed
    fault,       ///< the GPU reported an error (illegal address, …) or compute-sanitizer did
    slow,        ///< below the threshold
    impossible,  ///< faster than this GPU can move the data or do the arithmetic: work was skipped
    untimed,     ///< the launcher left work running past the timed interval (another stream)
    hang,        ///< the exercise's process did not finish in time
    crash,       ///< the process died, exited early, or sent no sealed report
    technique,   ///< correct (and fast enough) without this exercise's technique: its compiled code lacks it (technique.hpp)
    outside,     ///< the submission left a thread or a process running outside its calls (outside_calls.hpp)
    skipped,
};
const char* to_string(Reason r);
/// Inverse of to_string(); Reason::none for an unknown word.
Reason reason_from_string(const std::string& s);

/// One exercise's outcome as a student sees it.
struct Verdict {
    std::string exercise;
    std::string verdict;  ///< PASS, FAIL, SKIP, INFO (a teaching table)
    Reason reason = Reason::none;
    std::string message;  ///< PASS: what was measured; FAIL: what was expected and what came; SKIP: why
    std::string hint;     ///< FAIL: what to change, fitted to what was measured
    std::string theory;   ///< FAIL: the theory page and section that explain it
    std::string note;     ///< PASS: a remark (e.g. the threshold overlaps the step before)
};

/// The lines printed for a verdict, each ending in a newline:
///     FAIL  01.1 matrix mapping          [slow] too slow: …
///           hint: …
///           read lessons/01-coalescing/theory.md, section "…"
std::string verdict_lines(const Verdict& v);

}  // namespace grader
