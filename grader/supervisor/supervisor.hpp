// SPDX-License-Identifier: MIT
/// @file
/// @brief The supervisor's side: starts the lesson program (which holds the student's
///        code) once per exercise, in a process group of its own, with a time limit, a fresh
///        key for its sealed report and, under the memcheck or racecheck setup, inside
///        compute-sanitizer; then decides the verdict from what it can check itself.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "grader/common/declared_thresholds.hpp"
#include "grader/common/results.hpp"
#include "grader/common/sealed_report.hpp"
#include "grader/common/yardsticks.hpp"

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
    /// Whether each exercise's process may start while the one before it runs (ExerciseQueue):
    /// not under a sanitizer, and not on a GPU in exclusive-process compute mode.
    bool head_start = true;
    /// The exercises whose processes record the kernels each timed call ran (GRADER_TRACE,
    /// kernels_ran.hpp): those with a mechanism check. The others trace nothing.
    std::vector<std::string> traced;
    /// GRADER_TRACE for `exercise`'s process.
    std::string trace_for(const std::string& exercise) const;
    /// The lesson's student-free yardstick program (build/lessonNN-yardsticks), "" for none.
    std::string yardstick_program;
    /// What the yardstick run measured (yardsticks.hpp): the supervisor's figures, which its
    /// recheck uses, and their text, which every exercise's process gets (GRADER_YARDSTICKS).
    std::vector<Yardstick> measured;
    std::string yardsticks;
};

struct StartedExercise;

/// The lesson's yardstick program (yardsticks.hpp), started ahead like the exercises'
/// processes, so that its loading and its CUDA context (about 0.4 s) take none of the
/// lesson's time: it is started before the exercises are listed, makes its context while the
/// supervisor lists them and checks the GPU, and waits at its gate. Before the ceilings are
/// measured the supervisor waits until it has made its context (no timing shares the GPU with
/// that); once they are measured, run() gives it the ceilings and the exercises (a job file,
/// settings.hpp) and opens its gate, with no process of the student's left (the listing has
/// ended and the ExerciseQueue is made only afterwards). Its figures are checked against
/// their floors on the ceilings (judge_yardsticks). Destroyed unrun, it is killed. With
/// `--sms` it starts at run(): its green context, made before its gate, would be a context
/// made ahead on a GPU whose mode may allow one (the program itself makes none ahead on a GPU
/// in exclusive-process mode, exercise_process.cpp).
class YardstickProgram {
public:
    explicit YardstickProgram(const ChildSettings& s);  ///< s.yardstick_program; none when ""
    ~YardstickProgram();
    /// Blocks until it has made its context (10 s at most).
    void wait_until_ready();
    /// Runs it once on `exercises` with `s`'s ceilings, alone on the GPU.
    YardstickRun run(const ChildSettings& s, const std::vector<std::string>& exercises);

private:
    void start(const ChildSettings& s);
    std::unique_ptr<StartedExercise> p_;
    bool started_ = false;  // run() was called: it runs once
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

/// Runs exercises one after another, each in a process of its own, and returns each one's
/// outcome: the sealed report's verdict, or a FAIL the supervisor synthesizes (hang, crash,
/// forged or missing report, settings changed inside the process, compute-sanitizer
/// findings).
///
/// A process spends about 0.3–0.4 s loading and making its CUDA context before any of its
/// work (a program that only makes one took 0.34–0.42 s on an H200 machine, 2026-11-27).
/// So all of a lesson's processes are started at once, before the first exercise runs: each
/// makes its context, closes a pipe, and waits at a gate — a pipe it reads one byte from, in
/// a start-up constructor that runs before any code of the submission (exercise_process.cpp)
/// — until the one before it has ended. Making a context is work on the GPU too: the first
/// exercise times nothing until every process has made its own, so no timing shares the GPU
/// with it (its gate opens at once and closes once they are made: head_start.hpp; where
/// memory is short, it opens only then).
/// Under a sanitizer, and on a GPU in exclusive-process mode (ChildSettings::head_start),
/// each process starts at its turn and runs alone. Where free memory is short, the waiting
/// processes hold at most an eighth of it: one process is started first to measure what a
/// context takes, then as many more as that share holds, and the rest start at their turn
/// (the constructor prints how many started ahead), so that a small GPU's largest checks are
/// sized as they would be with no process waiting. A queue is made only once the yardstick
/// run (YardstickProgram::run) has ended: no process of the student's exists while it times.
class ExerciseQueue {
public:
    ExerciseQueue(const ChildSettings& s, std::vector<std::string> exercises);
    ~ExerciseQueue();
    /// The next exercise's outcome, in the order given; call it once per exercise.
    ExerciseResult run_next();

private:
    ChildSettings s_;
    std::vector<std::string> names_;
    size_t next_index_ = 0;
    bool ahead_;
    bool all_ahead_ = false;  // every process started ahead: the first one's gate opens at once (run_next)
    std::vector<std::unique_ptr<StartedExercise>> started_;  // ahead_: every process, waiting at its gate
};

}  // namespace grader
