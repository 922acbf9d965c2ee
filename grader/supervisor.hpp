// SPDX-License-Identifier: MIT
/// @file
/// @brief The supervisor's side: starts the lesson program (which holds the student's
///        code) once per exercise, in a process group of its own, with a time limit, a fresh
///        key for its sealed report and, under the memcheck or racecheck setup, inside
///        compute-sanitizer; then decides the verdict from what it can check itself.
#pragma once
#include <string>
#include <vector>

#include "grader/declared_thresholds.hpp"
#include "grader/results.hpp"
#include "grader/sealed_report.hpp"

namespace grader {

/// What every exercise's process is started with.
struct ChildSettings {
    std::string program;  ///< the lesson program
    std::string seed, ceilings, threshold_scale, sanitizer, sanitizer_path;
    std::string sms;      ///< `--sms`: the SM count as text, "" for the whole GPU
    int timeout_s = 180;  ///< per exercise (already multiplied under a sanitizer)
    /// The lesson's thresholds.txt as the supervisor read it, and the GPU's L2 size: every
    /// speed verdict is recomputed from these and the ceilings (declared_thresholds.hpp).
    std::vector<Declared> declared;
    double l2_bytes = 0;
};

/// The lesson program's answer to "list": its lesson, exercises and the extra ceilings it
/// needs. `error` is non-empty when the program did not give a sealed answer.
struct Listing {
    std::string lesson, title, theory, error;
    std::vector<std::string> exercises, ceilings;
};
Listing list_exercises(const ChildSettings& s);

/// The compute-sanitizer an exercise runs inside under the memcheck and racecheck setups.
std::string sanitizer_program(const ChildSettings& s);

/// Runs one exercise in a process of its own and returns its outcome: the sealed report's
/// verdict, or a FAIL the supervisor synthesizes (hang, crash, forged or missing report,
/// settings changed inside the process, compute-sanitizer findings).
ExerciseResult run_exercise_process(const ChildSettings& s, const std::string& exercise);

}  // namespace grader
