// SPDX-License-Identifier: MIT
/// @file
/// @brief The results file, schema version 1 (documented in docs/results_schema.md): one
///        JSON document per test run, written by the supervisor for every outcome — graded,
///        skipped, missing files, a policy finding, a compile error, a filter that matches
///        nothing, a program that does not start.
#pragma once
#include <string>
#include <vector>

#include "grader/common/ceilings.hpp"
#include "grader/common/gpu.cuh"
#include "grader/common/kernels_ran.hpp"
#include "grader/common/sealed_report.hpp"
#include "grader/common/verdict.hpp"

namespace grader {

inline constexpr int kResultsSchemaVersion = 1;

struct ExerciseResult {
    Verdict verdict;
    bool perf_graded = false;
    bool teaching = false;           ///< a teaching table (NN.0): never counts as passed or failed
    double fraction = 0;             ///< required fraction of the ceiling (0: not graded on speed)
    std::string figures_json = "{}"; ///< the exercise's figures, a JSON object of numbers
    std::string labels_json = "{}";  ///< the exercise's labels, a JSON object of strings
    std::string tables_json = "[]";  ///< the exercise's teaching tables, a JSON array (teaching_table.hpp)
    KernelsRan kernels_ran;          ///< the kernels its timed calls ran, where the supervisor asked (kernels_ran.hpp)
    /// What the mechanism check read for this exercise's PASS: "ran" (the kernels its timed
    /// calls ran), "compiled" (every kernel compiled from the file: nothing was recorded), or
    /// "" (no check applied). The supervisor's alone: it replaces whatever a report says.
    std::string technique_read;
};

/// The fields of an exercise's result, listed once for the three places that carry them:
/// the exercise's sealed report (Exercise::report), the supervisor that opens it
/// (supervisor.cpp) and the results file (results_json), in the results file's order.
/// `v` has text, reason, flag, number, json (name, member[, default]) and kernels members.
template <class Result, class Visitor>
void exercise_fields(Result& e, Visitor&& v) {
    v.text("exercise", e.verdict.exercise);
    v.text("verdict", e.verdict.verdict);
    v.reason("reason", e.verdict.reason);
    v.text("message", e.verdict.message);
    v.text("hint", e.verdict.hint);
    v.text("theory", e.verdict.theory);
    v.text("note", e.verdict.note);
    v.flag("perf_graded", e.perf_graded);
    v.flag("teaching", e.teaching);
    v.number("fraction", e.fraction);
    v.json("figures", e.figures_json, "{}");
    v.json("labels", e.labels_json, "{}");
    v.json("tables", e.tables_json, "[]");
    v.kernels("kernels_ran", e.kernels_ran);
    v.text("technique_read", e.technique_read);
}

/// Adds the exercise's fields to a sealed report, and reads them back (exercise_fields).
void add_exercise_fields(Report& r, const ExerciseResult& e);
ExerciseResult exercise_from_report(const Report& r);

struct RunResult {
    std::string test;                 ///< the Meson test: lesson01, lesson01-bad-faults
    std::string lesson, title, theory;
    std::string submission;           ///< the folder of kernels graded (-Dkernels)
    std::string grader_revision;      ///< `git describe` of the course when it was configured
    std::string timestamp;            ///< UTC, ISO 8601
    std::string seed;
    double threshold_scale = 1;
    std::string sanitizer;            ///< "", "memcheck" or "racecheck"
    int sms_limit = 0;                ///< `--sms=N` as asked (gpu.sms: the SMs obtained); 0 for the whole GPU
    std::vector<std::string> filters; ///< -tc / -tce as given
    std::vector<std::string> expect_reject;
    /// graded, skipped, missing_files, policy, compile_error, no_match or error
    std::string status = "graded";
    std::string status_message;
    /// The mechanism check (technique.hpp): "" where the lesson has none or the run ended
    /// before the exercises, "checked", or "not checked: " and why (no cuobjdump, say)
    std::string technique_check;
    bool has_gpu = false;
    GpuInfo gpu;
    Ceilings ceilings;
    std::vector<ExerciseResult> exercises;
    int exit_code = 0;
    double wall_s = 0;
};

/// How many exercises got each verdict; teaching exercises count as info whatever theirs.
struct Tally {
    int passed = 0, failed = 0, skipped = 0, info = 0;
};
Tally tally(const std::vector<ExerciseResult>& exercises);

/// The document, as text.
std::string results_json(const RunResult& r);

/// The current time, UTC, as 2026-11-22T01:02:03Z.
std::string utc_timestamp();

}  // namespace grader
