// SPDX-License-Identifier: MIT
/// @file
/// @brief What each graded exercise must reach, declared once per lesson in
///        `lessons/NN-topic/thresholds.txt`, and the supervisor's own recomputation of
///        every speed verdict from it (pure host code, unit-tested without a GPU).
///
/// The file is read twice from the same text: compiled into the lesson program, where
/// Exercise::grade() takes each exercise's fractions from it, and read by the supervisor,
/// which decides the speed verdict itself. The exercise's process reports raw numbers (its
/// median time, the work it timed, the times of the baselines it measured) with the
/// fractions and threshold it used; the supervisor recomputes the threshold from the
/// ceilings it measured itself and the declared fractions, and a report whose fractions or
/// threshold differ from its own is FAIL [crash]: something changed the grader's state
/// inside that process (docs/trust_model.md).
///
/// Format: one exercise a line, `name | against | fraction`, optionally followed by
/// `| against | fraction` for a second threshold, of which the lower applies. `against` is
/// `copy` (the copy bandwidth measured in the run), `roofline` (min(copy × intensity, FMA
/// peak)), or `baseline` (a routine the exercise times on the same work in the same run:
/// cuBLAS, CUB, a grader kernel — timed by the student-free yardstick program, whose figure
/// the supervisor keeps: the time an exercise's report gives for it is checked against that
/// figure, yardsticks.hpp). `#` starts a comment line.
#pragma once
#include <string>
#include <vector>

#include "grader/common/ceilings.hpp"
#include "grader/common/sealed_report.hpp"
#include "grader/common/verdict.hpp"
#include "grader/common/yardsticks.hpp"

namespace grader {

/// What a threshold is a fraction of.
enum class Basis { copy, roofline, baseline };
const char* to_string(Basis b);

struct DeclaredTarget {
    Basis basis = Basis::copy;
    double fraction = 0;
};

/// One graded exercise's line.
struct Declared {
    std::string exercise;
    std::vector<DeclaredTarget> targets;  ///< one or two; with two, the lower threshold applies
};

/// Parses a thresholds file's text; `file` names it in errors. Throws std::invalid_argument
/// with "FILE:LINE: why" on a malformed line or an exercise declared twice.
std::vector<Declared> parse_declared(const std::string& text, const std::string& file);

/// The line of `exercise`, or nullptr.
const Declared* find_declared(const std::vector<Declared>& all, const std::string& exercise);

/// What an exercise's process reports of one graded call (raw numbers).
struct TimedReport {
    double median_ms = 0, bytes = 0, flops = 0;
    std::vector<double> fractions;    ///< as it used them, one per declared target
    std::vector<double> baseline_ms;  ///< one per target; 0 where the target is no baseline
    /// One per target: the baseline's name ("" where the target is no baseline), by which the
    /// supervisor finds its own figure for it (yardsticks.hpp)
    std::vector<std::string> baseline_names;
    double threshold_ms = 0;          ///< the slowest median it accepted
};

/// The supervisor's verdict on speed: Reason::none (fast enough), slow, impossible, or crash
/// (the report disagrees with the declaration or the recomputation), with a message.
struct SpeedVerdict {
    Reason reason = Reason::none;
    std::string message;
    double threshold_ms = 0;  ///< the supervisor's own
};

/// Recomputes the threshold of `r` from `d`, this run's ceilings `c`, the instructor's
/// `scale` and the GPU's L2 size (for the impossibility check), and decides.
SpeedVerdict recheck_speed(const Declared& d, const Ceilings& c, double scale, double l2_bytes, const TimedReport& r);

/// The same, with every baseline time taken from `measured`, the supervisor's yardstick
/// figures of `exercise` (yardsticks.hpp), found by the name the report gives: a baseline the
/// yardstick run did not measure, or a time that differs from the supervisor's figure, is
/// tampering (Reason::crash), as is a report that gives no name.
SpeedVerdict recheck_speed(const Declared& d, const Ceilings& c, double scale, double l2_bytes, const TimedReport& r,
                           const std::string& exercise, const std::vector<Yardstick>& measured);

/// The declared name of one grade of an exercise: "05.3 skewed inputs / uniform bytes", or
/// the exercise's name alone when `part` is empty.
std::string declared_name(const std::string& exercise, const std::string& part);

/// One grade's raw numbers as fields of a sealed report (repeated once per grade, in
/// order), and read back: the supervisor's side of the same field list.
void add_timed(Report& r, const std::string& declared, const TimedReport& t);
/// The grades in `r`, in order; a field missing or malformed reads as NaN, which
/// recheck_speed() then refuses.
std::vector<std::pair<std::string, TimedReport>> timed_reports(const Report& r);

/// Fractions as the report writes them ("0.65,0.85"), and back.
std::string format_numbers(const std::vector<double>& v);
std::vector<double> parse_numbers(const std::string& text);

}  // namespace grader
