// SPDX-License-Identifier: MIT
/// @file
/// @brief The figures every "baseline" threshold rests on, measured by the student-free
///        yardstick program (build/lessonNN-yardsticks) and handed to the exercises' processes
///        by the supervisor (pure host code, unit-tested without a GPU).
///
/// Each lesson run, before any process of the student's exists, the supervisor runs the
/// lesson's yardstick program once: the same sealed grader, linked without the student's
/// object, running every chosen exercise's body with the student's side switched off
/// (Exercise: run(), check() and grade() do nothing there). Every Exercise::baseline() and
/// Exercise::yardstick() it reaches is measured and recorded as one Yardstick, in the order
/// the body asks for them. The supervisor keeps the list, checks each figure against a floor
/// derived from its own ceilings (below_floor) and passes the list to every exercise's process
/// (GRADER_YARDSTICKS), whose baseline() then returns the supervisor's figure instead of timing.
/// In its recheck, a baseline time a report gives must be the supervisor's figure of that name
/// (docs/trust_model.md, "Baselines in the supervisor").
#pragma once
#include <map>
#include <string>
#include <vector>

#include "grader/common/ceilings.hpp"
#include "grader/common/performance.hpp"

namespace grader {

/// One measured figure of one exercise: a baseline's median time in ms (with the work it was
/// timed on), or a figure of another kind (Exercise::yardstick: lesson 07's stage times, the
/// work steps it calibrates) with no work.
struct Yardstick {
    std::string exercise, name;
    double value = 0;  ///< ms for a baseline
    Work work;         ///< zero for a figure that is no baseline
    bool is_baseline() const { return work.bytes > 0 || work.flops > 0; }
};

/// One line per figure: exercise, name, value, bytes, flops, tab-separated, numbers written so
/// they read back exactly. Throws std::invalid_argument for a name holding a tab or a newline.
std::string yardsticks_to_text(const std::vector<Yardstick>& all);
/// Inverse of yardsticks_to_text(). Throws std::invalid_argument naming the line on a
/// malformed one.
std::vector<Yardstick> parse_yardsticks(const std::string& text);

/// The `index`-th figure (from 0) of `exercise` in `all`, or nullptr.
const Yardstick* nth_yardstick(const std::vector<Yardstick>& all, const std::string& exercise, size_t index);
/// The figure of `exercise` named `name`, or nullptr. Names repeat in no exercise
/// (duplicate_name() says so for a list that breaks this).
const Yardstick* find_yardstick(const std::vector<Yardstick>& all, const std::string& exercise, const std::string& name);
/// What an exercise's process takes for the `index`-th yardstick (from 0) its body asks for:
/// the supervisor's figure, when it carries `name` and `work`. Otherwise throws
/// std::runtime_error saying what was asked and what was measured: a grader bug, since both
/// processes run the same body on the same sizes (FAIL [crash], never the student's).
double given_figure(const std::vector<Yardstick>& all, const std::string& exercise, size_t index, const std::string& name,
                    const Work& work);
/// "" or the first "exercise: name" that occurs twice: the recheck finds a baseline by name.
std::string duplicate_name(const std::vector<Yardstick>& all);

/// The floor a baseline's figure must reach, as a share of the roofline of its work on this
/// run's ceilings (min(copy × intensity, FMA peak), as target_for computes it). Where it
/// comes from: the lowest baseline-to-roofline ratio in the GPU self-tests' results under
/// docs/measured/ (H100 and H200, reference and starter runs, 2026-11-22) is 0.0010, the
/// grader's copy of 05.1's starter on skewed bytes (global atomics, contended by design, on
/// the H200); the floor is a quarter of that. Every other baseline measured there reads at
/// 0.085 of its roofline or more (NPP's filter in 04.4 the lowest): a floor for every
/// baseline from one number can only be as low as the slowest baseline by design.
inline constexpr double kYardstickFloor = 0.0010 / 4;

/// "" when `y` reaches the floor (or is no baseline, or was not timed: 0 under
/// compute-sanitizer), else a message naming the baseline, its figure, the floor and the
/// likely cause. Such a figure fails the run's measurement, never lowers a bar.
std::string below_floor(const Yardstick& y, const Ceilings& c);

/// The outcome of the yardstick run: the figures, and the exercises whose measurement failed,
/// each with a message that says so (a figure below its floor, a body that stopped there: never
/// the student's fault). `error`: the run as a whole failed, which fails every exercise.
struct YardstickRun {
    std::vector<Yardstick> figures;
    std::map<std::string, std::string> failed;
    std::string error;
};
/// The yardstick program's report, judged: `figures_text` (yardsticks_to_text) and `errors`
/// (the exercise, a tab and why, one per body that stopped there), each figure against its floor.
YardstickRun judge_yardsticks(const std::string& figures_text, const std::vector<std::string>& errors,
                              const Ceilings& ceilings);

}  // namespace grader
