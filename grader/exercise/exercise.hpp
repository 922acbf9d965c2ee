// SPDX-License-Identifier: MIT
/// @file
/// @brief The API a lesson's grader is written in: one GRADER_EXERCISE per graded
///        exercise, calls described once (call.hpp) and checked the same way whether timed
///        or not, checks that explain themselves, and one performance verdict.
///
/// Each exercise runs in a process of its own, started by the supervisor (the `grade`
/// program, which holds no student code), so a kernel that faults, hangs or corrupts the
/// context fails that exercise only, and the verdict is decided from a sealed report the
/// student's code cannot forge (docs/trust_model.md).
#pragma once
#include <functional>
#include <initializer_list>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "grader/common/declared_thresholds.hpp"
#include "grader/common/kernels_ran.hpp"
#include "grader/common/performance.hpp"
#include "grader/common/random.hpp"
#include "grader/common/sealed_report.hpp"
#include "grader/common/stats.hpp"
#include "grader/common/timing.cuh"
#include "grader/common/verdict.hpp"
#include "grader/common/yardsticks.hpp"
#include "grader/exercise/call.hpp"
#include "grader/exercise/compare.hpp"
#include "grader/exercise/device_buffer.cuh"
#include "grader/exercise/device_compare.cuh"
#include "grader/exercise/device_inputs.cuh"
#include "grader/exercise/run_ceilings.hpp"

namespace grader {

/// Thrown by a failed check; ends the exercise with a FAIL verdict.
struct Rejection : std::runtime_error {
    Rejection(Reason r, const std::string& message) : std::runtime_error(message), reason(r) {}
    Reason reason;
};

/// Which lesson this grader belongs to (set by GRADER_LESSON).
struct LessonInfo {
    std::string number, title, theory;  ///< "01", "Memory coalescing", "lessons/01-coalescing/theory.md"
    std::vector<std::string> ceilings;  ///< extra ceilings the supervisor measures (ceilings.hpp)
};
const LessonInfo& lesson();
struct LessonRegistration {
    LessonRegistration(const char* number, const char* title, const char* theory, std::initializer_list<const char*> ceilings = {});
};

/// This lesson's thresholds.txt, compiled in (declared_thresholds.hpp): meson.build
/// generates one registration per lesson program from grader/exercise/lesson_thresholds.cpp.in.
const std::vector<Declared>& declared_thresholds();
struct ThresholdsRegistration {
    ThresholdsRegistration(const char* text, const char* file);
};

/// The exercises of this program, in the order they were declared.
const std::vector<std::string>& exercise_names();
struct ExerciseRegistration {
    explicit ExerciseRegistration(const char* name);
};

/// What a too-slow kernel is compared with, so that the hint fits what was measured:
/// `launch`, a grader-owned kernel shaped like the version the exercise starts from, timed
/// on the same data when the kernel is found slow. A kernel at most 1.15 × its speed
/// performs like that version and gets `if_like` (make this step's change); a faster one
/// gets `otherwise` (the change is there; something else holds it back). `label` names the
/// grader's kernel ("the speed of …").
struct SlowDiagnosis {
    std::string label;
    std::function<void()> launch;
    std::string if_like, otherwise;
};

class Exercise {
public:
    explicit Exercise(std::string name) : name_(std::move(name)) {}
    const std::string& name() const { return name_; }

    /// The section of the lesson's theory page that explains this exercise.
    void theory(std::string section) { section_ = std::move(section); }
    /// One sentence on what to change, shown when the exercise is too slow.
    void hint(std::string text) { hint_ = std::move(text); }
    /// Replaces the hint, when too slow, by one chosen from a measurement (see SlowDiagnosis).
    void diagnose_slow(SlowDiagnosis d) { diagnosis_ = std::move(d); }

    /// Inputs for `purpose`, reproducible from the run's seed.
    Rng rng(const std::string& purpose) const;

    // ------------------------------------------------------------------ correctness
    /// Calls a launcher, then surfaces launch errors and faults as FAIL (fault).
    void run(const std::string& what, const std::function<void()>& launch);

    /// One call, checked in full: in-place data restored, outputs poisoned, the launcher run,
    /// then no byte written next to any buffer (bounds), const inputs unchanged (bounds) and
    /// the call's verify function (wrong).
    void check(Call& call);

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
    /// FAIL (wrong) unless elements 0 … n−1 of `got` are each within the bound of
    /// `expected_at(i)` (an Expected), computed on the fly.
    template <class G, class F>
    void expect_each(const std::vector<G>& got, size_t n, const F& expected_at, const std::string& context) {
        Comparison c = compare_each(got, n, expected_at);
        if (!c.ok() && n > 0) reject(Reason::wrong, context + ": " + c.describe());
    }
    /// FAIL (wrong) unless got[0 … n−1] matches expected[0 … n−1] within `tol`, compared on
    /// the device (device_compare.cuh: the bound is tol.abs + tol.rel·|scale[i]|, or
    /// ·|expected[i]| without a scale). For timed_verify; `where` names an element.
    template <class T>
    void expect_on_device(const T* got, const T* expected, size_t n, Tolerance tol, const std::string& context,
                          const T* scale = nullptr, const std::function<std::string(size_t)>& where = {}) {
        Comparison c = compare_on_device(got, expected, n, tol, scale);
        if (!c.ok() && n > 0) reject(Reason::wrong, context + ": " + c.describe(where));
    }
    /// Ends the exercise with FAIL for `reason`.
    [[noreturn]] void reject(Reason reason, const std::string& message);
    /// Ends the exercise with SKIP (e.g. the GPU lacks a feature the exercise needs).
    [[noreturn]] void skip(const std::string& why);

    // ------------------------------------------------------------------ speed
    /// Times `call` and records the figure: the median must meet the threshold (a result just
    /// short of it is measured again, with more runs, before it fails). Every timed call gets
    /// fresh inputs and is verified in full on the device (call.hpp: timed_inputs and
    /// timed_verify, both required) and, with Call::timed_size, a size of its own, its time
    /// scaled to the nominal work `p` declares (timed_sizes.hpp). FAIL: slow, impossible (faster than this GPU allows),
    /// untimed (work left running on another stream past the timed interval), wrong. Under
    /// compute-sanitizer nothing is timed: the exercise is graded on correctness only.
    /// Under Clock::wall (p.clock) the timer holds all streams; "untimed" then means work the
    /// default stream does not wait for (a non-blocking stream left unjoined).
    /// `part` names one of several grades of one exercise (lesson 05.3: skewed bytes, then
    /// uniform ones); thresholds.txt then declares it as "NAME / PART".
    void grade(Performance p, Call& call, const std::string& part = "");

    /// Times a routine on the same work as the exercise, in the same run: a vendor library
    /// (`vendor` true: recorded as "vendor_figure", shown as "% vendor" by the self-test) or
    /// a ceiling of the exercise's own shape. Does nothing under compute-sanitizer (ms = 0).
    /// Unchecked, so only for what the call cannot verify, each checked once by the caller
    /// before timing (a mismatch is a grader bug: throw, FAIL [crash]): the oracle of the
    /// call's timed_verify (cuBLAS in 03, CUB in 05), against an independent reference such as
    /// a host sample; a routine doing other work (another layout, another border rule), against
    /// the grader's reference on what they share. Any other baseline goes through the Call
    /// overload below: an unchecked figure from a routine that skips work lowers a threshold.
    Baseline baseline(const std::string& name, Work work, const std::function<void()>& launch, bool vendor = true,
                      const TimingOptions& options = {});
    /// The same, for a routine that does the exercise's work on the exercise's own buffers:
    /// `call` is the student's call with the routine as its launcher (Call::with_launch), and
    /// every timed run is prepared and verified as grade() does the student's, so that a
    /// baseline that skips work, or writes its result elsewhere, stops the grader (a grader
    /// bug: FAIL [crash]) instead of lowering a threshold.
    Baseline baseline(const std::string& name, Work work, Call& call, bool vendor = true, const TimingOptions& options = {});
    // Where both are timed (yardsticks.hpp): in the student-free yardstick program, which the
    // supervisor runs once per lesson run, and which records each figure; in an exercise's
    // process the supervisor started, neither times: each returns the supervisor's figure for
    // the exercise's next baseline, which must carry this name and work (a grader bug
    // otherwise: FAIL [crash]); unsupervised (a debugger, a profiler), each times here.

    /// A figure a threshold rests on that is no baseline (lesson 07: the stage times its
    /// threshold is computed from, the work steps it calibrates), measured by `measure` where
    /// baseline() times and taken from the supervisor where baseline() takes its figure.
    /// Names are unique within an exercise, baselines' included.
    double yardstick(const std::string& name, const std::function<double()>& measure);
    /// The figures this exercise measured, in the yardstick program.
    const std::vector<Yardstick>& yardsticks() const { return yardsticks_; }
    /// True where baseline() times (the yardstick program, an unsupervised run); false where it
    /// takes the supervisor's figure or nothing is timed (compute-sanitizer). A check of a
    /// baseline's routine made before timing it, a grader self-check (03's cuBLAS sample,
    /// 04.4's NPP pixels, 01.2's array of structures), is needed only where it is timed: the
    /// yardstick program runs the same code on the same sizes.
    bool times_baselines() const;

    // ------------------------------------------------------------------ teaching
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
    /// A figure for the results file (e.g. a teaching table's cell).
    void figure(const std::string& key, double value) { figures_[key] = value; }
    /// A word for the results file (e.g. the vendor routine's name).
    void label(const std::string& key, const std::string& value) { labels_[key] = value; }
    /// The teaching tables of this exercise for the results file, in the order they were made:
    /// each a JSON object its TeachingTable keeps up to date (teaching_table.hpp).
    std::vector<std::string>& tables() { return tables_; }

    // ------------------------------------------------------------------ used by the exercise process
    /// Runs `body`, turning every failure into a verdict.
    void execute(void (*body)(Exercise&));
    Verdict verdict() const;
    bool perf_graded() const { return perf_graded_; }
    /// The fields the exercise's process seals and sends to the supervisor.
    Report report() const;

private:
    void prepare(Call& call, bool timed);
    void check_after(Call& call, const std::string& which, bool verify = true);
    /// Hooks that prepare every timed run of `call` and verify it in full (grade() and the
    /// Call-based baseline()); `calls` counts the runs, for messages.
    RunHooks verified_runs(Call& call, int& calls);
    /// Both baseline()s: times `launch` with `hooks` around each run and records the figure.
    Baseline timed_baseline(const std::string& name, Work work, const std::function<void()>& launch, bool vendor,
                            const TimingOptions& options, const RunHooks& hooks);
    /// True where baseline() and yardstick() take the supervisor's figures instead of timing.
    bool takes_given_figures() const;
    /// The supervisor's figure for this exercise's next yardstick, which must be `name` on `work`.
    double given(const std::string& name, const Work& work);
    /// Records a baseline's figure for the results file and, in the yardstick program, as a yardstick.
    Baseline recorded_baseline(const std::string& name, Work work, double ms, bool vendor);
    std::string slow_hint(const Timing& student, const Target& t, const Performance& p);
    std::string where() const;
    std::string name_, section_, hint_, message_, detail_, overlap_;
    SlowDiagnosis diagnosis_;
    Reason reason_ = Reason::none;
    bool perf_graded_ = false, teaching_ = false;
    double fraction_ = 0;
    // The raw numbers the supervisor recomputes each speed verdict from, one per grade() call.
    std::vector<std::pair<std::string, TimedReport>> timed_;
    // The kernels every timed call ran, where the supervisor asked (kernels_ran.hpp).
    KernelsRan kernels_ran_;
    std::map<std::string, double> figures_;
    std::map<std::string, std::string> labels_;
    std::vector<std::string> tables_;
    std::vector<Yardstick> yardsticks_;  // measured here, in the yardstick program
    size_t given_taken_ = 0;             // the supervisor's figures taken so far
};

/// True in the student-free yardstick program (grader/common/yardsticks.hpp), where run(),
/// check() and grade() do nothing: a body leaves out there what only checks the student's
/// results outside those (08's energy check reads accelerations no call computed) or costs
/// the run's time for nothing (host references of checks that do not run).
bool yardstick_run();

/// Elements of `bytes_per_element` for a timing run: the data is at least 16× the L2
/// and 256 MiB, at most a quarter of free memory; small under compute-sanitizer.
size_t timing_elements(size_t bytes_per_element);

/// 2^31 bytes: the first byte offset an int cannot hold. A buffer of floats reaches it at
/// 2^29 elements, far above any timed size (16 × the L2), so the lessons whose contracts
/// allow larger buffers check one size past it (largest_check_fits).
inline constexpr size_t kInt32Bytes = size_t(1) << 31;

/// Whether a check of a size the timed ones never reach may run: true when `need` bytes of
/// GPU memory (everything the check allocates) and 512 MiB to spare for the allocator's rounding
/// and library workspaces are free. Otherwise it
/// prints the line that says `what` ("n = 2^30", "a 23173 × 23173 matrix, 2 GiB a buffer")
/// is not checked, and why, and returns false. Also false, silently, under compute-sanitizer
/// (every buffer exact, and slow) and in the yardstick program (nothing of the student's runs).
bool largest_check_fits(size_t need, const std::string& what);

/// What a failure past kInt32Bytes most likely means, for the check's context: every smaller
/// size passed, so an offset, index or count held in 32 bits.
std::string past_int32_cause();

}  // namespace grader

#define GRADER_CAT2(a, b) a##b
#define GRADER_CAT(a, b) GRADER_CAT2(a, b)

/// Declares the lesson once per grader file: its number, title, theory page and, optionally,
/// the extra ceilings it needs measured, e.g. {"h2d_gbs"}.
#define GRADER_LESSON(number, title, theory, ...) \
    static ::grader::LessonRegistration GRADER_CAT(grader_lesson_, __LINE__)(number, title, theory, ##__VA_ARGS__)

/// One graded exercise; the body receives `ex` (a grader::Exercise&). The name is also
/// the doctest test-case name, so `--test-args=-tc=01.2*` runs just this one. Names
/// must not contain commas, `*` or `?` (filters split on commas and treat those as wildcards).
#define GRADER_EXERCISE(name) GRADER_EXERCISE_IMPL(name, GRADER_CAT(grader_exercise_, __LINE__))
#define GRADER_EXERCISE_IMPL(name, fn)                                                           \
    static void fn(::grader::Exercise& ex);                                                      \
    static ::grader::ExerciseRegistration GRADER_CAT(fn, _registration)(name);                   \
    TEST_CASE(name) { ::grader::run_exercise(name, &fn); }                                       \
    static void fn([[maybe_unused]] ::grader::Exercise& ex)

namespace grader {
/// Runs one exercise in this process: in a process the supervisor started, sends the
/// sealed report; in an unsupervised run (a debugger, a profiler), prints the verdict.
void run_exercise(const char* name, void (*body)(Exercise&));
}  // namespace grader
