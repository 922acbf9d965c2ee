// SPDX-License-Identifier: MIT
/// @file
/// @brief Nothing of the submission runs outside its calls: the threads and processes of an
///        exercise's process, checked around every run of the student's code.
///
/// A launcher may start threads, and must join them before it returns. A thread it leaves
/// running could load the GPU while the grader times a baseline in the same process, or
/// watch the inputs change and compute the next result while the grader prepares the next
/// call; a child process could do the same from outside. So every run of code that can be the
/// student's (a checked call, a timed run, a teaching table's cell) is bracketed:
///
/// - before it, every thread alive is the grader's or the CUDA driver's — the check after the
///   previous run found none of the submission's, and only grader code ran since — and is
///   recorded as such (`entering_student_code`);
/// - after it, once the device is idle, a thread not so recorded, or any child process, is
///   the submission's: the exercise fails as FAIL [outside] (`expect_nothing_left_running`).
///
/// The threads alive when the lesson program's start-up constructor has made the CUDA context
/// (exercise_process.cpp, priority 103, before any C++ static initializer of the submission)
/// are the first record; `expect_nothing_left_running` at the start of an exercise therefore
/// also sees a thread that a static initializer of the submission started.
///
/// Only supervised runs outside compute-sanitizer are checked (see expect_nothing_left_running).
/// Threads are read from /proc/self/task, child processes from each thread's `children` list
/// (or, where the kernel lacks it, from every process's parent in /proc). A thread that ends
/// between the call's return and the check escapes it: it ran for microseconds, outside no
/// interval the grader times or prepares. docs/trust_model.md says what remains possible.
#pragma once
#include <functional>
#include <stdexcept>
#include <string>

namespace grader {

/// Thrown when the submission left something running outside its calls; the exercise ends
/// with FAIL [outside] (Exercise::execute).
struct LeftRunning : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// Records every thread alive now as the grader's or the driver's. Called by the start-up
/// constructor once the context is made, and before every run of code that can be the
/// student's.
void entering_student_code();

/// Runs `start`, grader code that may start threads of its own (CUPTI starts its workers when
/// an activity kind is first enabled, activity_trace.cpp), and records the threads that
/// appeared while it ran as the grader's. A thread alive before is not recorded by this: if it
/// is the submission's, the next check still finds it.
void grader_starts_threads(const std::function<void()>& start);

/// What is running now that the grader did not start: threads not recorded by
/// entering_student_code and child processes, in words ("2 threads (worker, worker) and 1
/// child process (pid 4242, spin)"); "" when nothing.
std::string left_running();

/// Throws LeftRunning, naming `after` ("timed call 3 of reduce_step7 (float), n = 268435457")
/// and what was found, unless left_running() is empty. Checks nothing in a run by hand or under
/// compute-sanitizer: sanitizers, profilers and debuggers start threads in the process.
void expect_nothing_left_running(const std::string& after);

}  // namespace grader
