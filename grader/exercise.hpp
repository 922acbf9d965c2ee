// SPDX-License-Identifier: MIT
/// @file
/// @brief The API a lesson's grader is written in: one GRADER_EXERCISE per graded
///        exercise, checks that explain themselves, and one performance verdict.
///
/// Each exercise runs in a process of its own (see runner.hpp), so a kernel that faults,
/// hangs or corrupts the context fails that exercise only.
#pragma once
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "grader/compare.hpp"
#include "grader/device_buffer.cuh"
#include "grader/performance.hpp"
#include "grader/random.hpp"
#include "grader/stats.hpp"
#include "grader/timing.cuh"

namespace grader {

/// Why an exercise failed: the results file and the known-bad tests speak in these.
enum class Reason { none, wrong, bounds, fault, slow, impossible, hang, crash, skipped };
const char* to_string(Reason r);
/// Inverse of to_string(); Reason::none for an unknown word.
Reason reason_from_string(const std::string& s);

/// Thrown by a failed check; ends the exercise with a FAIL verdict.
struct Rejection : std::runtime_error {
    Rejection(Reason r, const std::string& message) : std::runtime_error(message), reason(r) {}
    Reason reason;
};

/// Which lesson this grader belongs to, for the hints (set by GRADER_LESSON).
struct LessonInfo {
    std::string number, title, theory;  ///< "01", "Memory coalescing", "lessons/01-coalescing/theory.md"
};
const LessonInfo& lesson();
struct LessonRegistration {
    LessonRegistration(const char* number, const char* title, const char* theory);
};

class Exercise {
public:
    explicit Exercise(std::string name) : name_(std::move(name)) {}
    const std::string& name() const { return name_; }

    /// The section of the lesson's theory page that explains this exercise.
    void theory(std::string section) { section_ = std::move(section); }
    /// One sentence on what to change, shown when the exercise is too slow.
    void hint(std::string text) { hint_ = std::move(text); }

    /// Inputs for `purpose`, reproducible from the run's seed.
    Rng rng(const std::string& purpose) const;

    /// Calls a student launcher, then surfaces launch errors and faults as FAIL (fault).
    void run(const std::string& what, const std::function<void()>& launch);

    /// FAIL (wrong) unless `got` matches `expected` within `tol`. `context` says which
    /// call and size, e.g. "shift_double3, n = 1000".
    template <class G, class E>
    void expect_close(const std::vector<G>& got, const std::vector<E>& expected, Tolerance tol, const std::string& context) {
        Comparison c = compare(got, expected, tol);
        if (!c.ok()) reject(Reason::wrong, context + ": " + c.describe());
    }
    /// FAIL (wrong) unless each listed element of `got` is within its own bound; `where`
    /// names an element in the message (default "[index]").
    template <class G>
    void expect_entries(const std::vector<G>& got, const std::vector<Expected>& expected, const std::string& context,
                        const std::function<std::string(size_t)>& where = {}) {
        Comparison c = compare_entries(got, expected);
        if (!c.ok()) reject(Reason::wrong, context + ": " + c.describe(where));
    }
    /// FAIL (bounds) when the kernel wrote past the end of `out`.
    template <class T>
    void expect_guard(const DeviceBuffer<T>& out, const std::string& context) {
        if (!out.guard_intact())
            reject(Reason::bounds, context + ": wrote past the end of the output (the guard bytes after element " +
                                       std::to_string(out.size() - 1) + " changed)");
    }
    /// FAIL (bounds) when a const input was modified.
    template <class T>
    void expect_unchanged(const DeviceBuffer<T>& in, const std::vector<T>& original, const std::string& context) {
        Comparison c = compare(in.download(), original, Tolerance{});
        if (!c.ok()) reject(Reason::bounds, context + ": the input is const in the contract but was modified: " + c.describe());
        expect_guard(in, context + " (input)");
    }
    /// Ends the exercise with FAIL for `reason`.
    [[noreturn]] void reject(Reason reason, const std::string& message);
    /// Ends the exercise with SKIP (e.g. the GPU lacks a feature the exercise needs).
    [[noreturn]] void skip(const std::string& why);

    /// Times `launch` and records the figure: the median time must meet the threshold
    /// (a result just short of it is measured again, with more runs, before it fails).
    /// Throws Rejection (slow, or impossible when faster than the GPU allows). Under
    /// compute-sanitizer nothing is timed: the exercise is graded on correctness only.
    void grade(const Performance& p, const std::function<void()>& launch);

    /// Marks this exercise as teaching output (a table measured on this GPU): its verdict
    /// is INFO and it counts neither as passed nor failed. Under compute-sanitizer it is
    /// skipped, since nothing is timed there. By convention its number is NN.0.
    void teaching_only();

    /// Says that this exercise's threshold cannot separate it from the version before it
    /// (the gain is too small to grade on every GPU), so an unchanged starter may pass.
    /// Shown in the verdict and in the results file; the self-test then does not require
    /// the starter to fail.
    void threshold_overlaps_previous(std::string why) { overlap_ = std::move(why); }

    /// Times without a verdict, for teaching tables. Never call under sanitizer_mode().
    Timing time(const std::function<void()>& launch, const TimingOptions& o = {}) const { return time_launch(launch, o); }

    /// An extra figure for the results file (e.g. the naive version's GB/s).
    void figure(const std::string& key, double value);

    // --- used by the runner ---
    /// Runs `body`, turning every failure into a verdict; prints the verdict line.
    void execute(void (*body)(Exercise&));
    Reason reason() const { return reason_; }
    bool skipped() const { return skipped_; }
    bool teaching() const { return teaching_; }
    bool perf_graded() const { return perf_graded_; }
    std::string report_json() const;

private:
    std::string where() const;
    std::string name_, section_, hint_, message_, detail_, overlap_;
    Reason reason_ = Reason::none;
    bool skipped_ = false, perf_graded_ = false, teaching_ = false;
    std::vector<std::pair<std::string, double>> figures_;
};

/// Elements of `bytes_per_element` for a timing run: the data is at least 16× the L2
/// and 256 MiB, at most a quarter of free memory; small under compute-sanitizer.
size_t timing_elements(size_t bytes_per_element);

}  // namespace grader

#define GRADER_CAT2(a, b) a##b
#define GRADER_CAT(a, b) GRADER_CAT2(a, b)

/// Declares the lesson once per grader file: its number, title and theory page.
#define GRADER_LESSON(number, title, theory) \
    static ::grader::LessonRegistration GRADER_CAT(grader_lesson_, __LINE__)(number, title, theory)

/// One graded exercise; the body receives `ex` (a grader::Exercise&). The name is also
/// the doctest test-case name, so `--test-args='-tc=01.2*'` runs just this one. Names
/// must not contain commas (doctest splits filters on them).
#define GRADER_EXERCISE(name) GRADER_EXERCISE_IMPL(name, GRADER_CAT(grader_exercise_, __LINE__))
#define GRADER_EXERCISE_IMPL(name, fn)                                 \
    static void fn(::grader::Exercise& ex);                            \
    TEST_CASE(name) { ::grader::run_exercise(name, &fn); }             \
    static void fn([[maybe_unused]] ::grader::Exercise& ex)

namespace grader {
/// In the test main's process: starts the exercise in a process of its own and waits
/// for its verdict. In that process (or with --in-process): runs `body`.
void run_exercise(const char* name, void (*body)(Exercise&));
}  // namespace grader
