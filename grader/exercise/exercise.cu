// SPDX-License-Identifier: MIT
#include <cuda_runtime.h>
#include <nvtx3/nvToolsExt.h>  // header-only: a no-op unless a profiler is attached

#include <algorithm>
#include <cstdio>
#include <memory>
#include <stdexcept>

#include "grader/common/cuda_check.cuh"
#include "grader/common/json.hpp"
#include "grader/common/results.hpp"
#include "grader/common/session.hpp"
#include "grader/common/settings.hpp"
#include "grader/exercise/activity_trace.hpp"
#include "grader/exercise/device_inputs.cuh"
#include "grader/exercise/exercise.hpp"
#include "grader/exercise/outside_calls.hpp"
#include "grader/exercise/traced_calls.hpp"

namespace grader {

namespace {
LessonInfo& lesson_storage() {
    static LessonInfo info;
    return info;
}
std::vector<std::string>& names_storage() {
    static std::vector<std::string> names;
    return names;
}
constexpr double kRemeasureBand = 1.15;  // within 15 % of the threshold: measure again before failing
// Work still running after the timed interval: more than this much of the timed median, or
// this many ms, whichever is larger. Work on the default stream leaves a few µs, but the
// median tail of a correct 0.33 ms kernel (all of it on the default stream) once read 12 µs
// on the H100 (GPU self-test, 2026-11-27), over the 10 µs floor used before: the floor is
// twice that.
constexpr double kTailFraction = 0.02, kTailFloorMs = 0.025;
// Under the wall clock (work spread over streams on purpose: lesson 07) no share of the
// median is allowed, since one chunk of a pipeline is a small share of it: the floor alone.
// Joined pipelines left 3–20 µs on the H100. What it cannot see: a chunk whose unjoined copy
// ends within 50 µs of the default stream's work. A 4 MiB chunk's copy back, left unjoined,
// showed 55–63 µs on the H100 (rejected in one run of two); 16 MiB shows several times the
// floor (docs/trust_model.md).
constexpr double kWallTailMs = 0.050;
// A kernel within this factor of the slow-diagnosis kernel's speed counts as "as slow".
constexpr double kAsSlowFactor = 1.15;

// NVTX ranges around every call of the student's launcher, so that a profiler can select
// the student's kernels by range (docs/profiling.md): "student" for checked calls,
// "student_timed" for timed ones.
constexpr const char* kStudentRange = "student";
constexpr const char* kTimedRange = "student_timed";
struct Range {
    explicit Range(const char* name) { nvtxRangePushA(name); }
    ~Range() { nvtxRangePop(); }
};

// The kernels each timed call of grade() runs, where the supervisor asked for them
// (GRADER_TRACE; traced_calls.hpp says why a window per call): a window opens once the call is
// prepared and closes once the call has ended, both outside the timed interval; the records
// are read after the last call and added to `into`. Without the request nothing is traced.
class TimedKernels {
public:
    explicit TimedKernels(KernelsRan& into) : into_(into) {
        if (!settings().trace_kernels() || !into_.note.empty()) return;  // not asked, or incomplete already
        trace_ = std::make_unique<ActivityTrace>(/*copies=*/false);
        if (trace_->error().empty()) return;
        add_traced_calls(into_, {}, trace_->error(), 0, {});  // no CUPTI, or it would not start
        trace_.reset();
    }
    ~TimedKernels() {
        try {
            finish();
        } catch (...) {  // on the way out of a failed call: the verdict is decided already
        }
    }
    TimedKernels(const TimedKernels&) = delete;
    TimedKernels& operator=(const TimedKernels&) = delete;
    // `hooks` with the call's window around each run.
    RunHooks around(const RunHooks& hooks) {
        if (!trace_) return hooks;
        RunHooks h = hooks;  // its work_share too (timed sizes)
        h.before = [this, hooks](int i) {
            if (hooks.before) hooks.before(i);  // prepare(): ends with the device idle
            windows_.emplace_back();
            windows_.back().open();
        };
        h.after = [this, hooks](int i) {
            if (!windows_.empty()) windows_.back().close();  // the device is idle: time_launch waited
            if (hooks.after) hooks.after(i);
        };
        return h;
    }
    void finish() {
        if (!trace_) return;
        const std::vector<Activity> records = trace_->stop();
        add_traced_calls(into_, records, trace_->error(), trace_->dropped(), windows_);
        trace_.reset();
    }

private:
    KernelsRan& into_;
    std::unique_ptr<ActivityTrace> trace_;
    std::vector<TraceWindow> windows_;
};
// Sets the sizes of one run of `call` (call.hpp, Call::timed_size), and makes the pristine
// copies of its in-place buffers as long as the buffers, since a timed call keeps their fresh
// contents there.
RunSize apply_size(Call& call, SizeDraw draw) {
    if (!call.timed_size()) return {};
    RunSize run = call.timed_size()(draw);
    for (Call::Buffer& b : call.buffers())
        if (b.role == Call::Role::in_out) b.initial().use(b.device().bytes());
    if (draw.is_nominal() && run.work_share != 1)
        throw std::logic_error("grader bug: " + call.context() + ": its nominal size does not do the nominal work");
    return run;
}

// True in an exercise's process the supervisor started, where every baseline and yardstick is
// the supervisor's figure (but a teaching table's: the yardstick program skips those, and no
// verdict rests on them). Under compute-sanitizer nothing is timed, and nothing given.
bool figures_given() { return settings().mode == "run" && !sanitizer_mode(); }
const std::vector<Yardstick>& given_yardsticks() {
    static const std::vector<Yardstick> all = parse_yardsticks(settings().yardsticks);
    return all;
}

std::string format(const char* fmt, double a, double b = 0, double c = 0) {
    char buf[512];
    std::snprintf(buf, sizeof buf, fmt, a, b, c);
    return buf;
}
}  // namespace

const LessonInfo& lesson() { return lesson_storage(); }

LessonRegistration::LessonRegistration(const char* number, const char* title, const char* theory,
                                       std::initializer_list<const char*> ceilings) {
    lesson_storage() = {number, title, theory, {ceilings.begin(), ceilings.end()}};
}

const std::vector<std::string>& exercise_names() { return names_storage(); }

namespace {
std::vector<Declared>& declared_storage() {
    static std::vector<Declared> d;
    return d;
}
// Takes the fraction `target` declares, after checking that the lesson's code measures the
// exercise against what the declaration says.
void apply_declared(Performance& p, const DeclaredTarget& target, const std::string& exercise) {
    const bool fits = target.basis == Basis::baseline ? !p.baseline.empty()
                      : target.basis == Basis::copy   ? p.baseline.empty() && p.flops == 0
                                                      : p.baseline.empty();
    if (!fits || p.fraction != 0)
        throw std::logic_error("grader bug: " + exercise + " is graded against something else than thresholds.txt declares (" +
                               to_string(target.basis) + "), or passes a fraction of its own");
    p.fraction = target.fraction;
}
}  // namespace

const std::vector<Declared>& declared_thresholds() { return declared_storage(); }

ThresholdsRegistration::ThresholdsRegistration(const char* text, const char* file) {
    declared_storage() = parse_declared(text, file);
}

ExerciseRegistration::ExerciseRegistration(const char* name) { names_storage().push_back(name); }

Rng Exercise::rng(const std::string& purpose) const { return rng_for(seed(), name_ + "/" + purpose); }

void Exercise::run(const std::string& what, const std::function<void()>& launch) {
    if (yardstick_run()) return;  // the student's side, switched off
    entering_student_code();
    try {
        launch();
        check_launch(what.c_str());
    } catch (const CudaError& e) {
        reject(Reason::fault, e.what());
    }
    expect_nothing_left_running(what);
}

void Exercise::reject(Reason reason, const std::string& message) { throw Rejection(reason, message); }

void Exercise::skip(const std::string& why) { throw Rejection(Reason::skipped, why); }

void Exercise::teaching_only() {
    teaching_ = true;
    if (yardstick_run()) skip("teaching table: no verdict rests on it, so the yardstick program leaves it out");
    if (sanitizer_mode()) skip("teaching table: nothing is timed under compute-sanitizer");
}

// ---------------------------------------------------------------------- one call

void Exercise::prepare(Call& call, bool timed) {
    // Nothing of the submission may see the fresh inputs before its call starts.
    expect_nothing_left_running("before preparing " + call.context());
    if (call.before_each()) call.before_each()();
    if (timed) call.timed_inputs()(fresh_key());
    for (Call::Buffer& b : call.buffers()) {
        switch (b.role) {
            case Call::Role::input: b.checksum = b.memory->checksum(); break;
            case Call::Role::in_out:  // a timed call keeps the fresh contents as its starting point
                if (timed) b.initial().copy_from(b.device());
                else b.device().copy_from(b.initial());
                break;
            case Call::Role::output:
            case Call::Role::scratch: b.memory->fill(kPoisonByte); break;
        }
    }
    // The fills above go to the legacy default stream, which streams made with
    // cudaStreamNonBlocking do not wait for (nor, under --sms, any stream: a green context's
    // default stream is not the legacy one). The call starts once they are done, or a
    // launcher's copies could read the poison that is still being written.
    CUDA_CHECK(cudaDeviceSynchronize());
}

void Exercise::check_after(Call& call, const std::string& which, bool verify) {
    const std::string ctx = call.context() + (which.empty() ? "" : " (" + which + ")");
    for (const Call::Buffer& b : call.buffers())
        if (!b.memory->guards_intact())
            reject(Reason::bounds, ctx + ": something was written next to " + b.name +
                                       ", before its first or after its last element (its guard bytes changed)");
    for (const Call::Buffer& b : call.buffers())
        if (b.role == Call::Role::input && b.memory->checksum() != b.checksum)
            reject(Reason::bounds, ctx + ": " + b.name + " is a const input in the contract but was modified");
    if (!verify || !call.verifier()) return;
    try {
        call.verifier()();
    } catch (const Rejection& r) {
        if (which.empty()) throw;
        throw Rejection(r.reason, which + ": " + r.what());
    }
}

void Exercise::check(Call& call) {
    if (yardstick_run()) return;  // the student's side, switched off
    prepare(call, false);
    run(call.context(), [&] {
        Range r(kStudentRange);
        call.launch()();
    });
    check_after(call, "");
}

// ---------------------------------------------------------------------- speed

Baseline Exercise::baseline(const std::string& name, Work work, const std::function<void()>& launch, bool vendor,
                            const TimingOptions& options) {
    return timed_baseline(name, work, launch, vendor, options, {});
}

Baseline Exercise::timed_baseline(const std::string& name, Work work, const std::function<void()>& launch, bool vendor,
                                  const TimingOptions& options, const RunHooks& hooks) {
    if (sanitizer_mode()) return {name, work, 0};
    if (takes_given_figures()) return recorded_baseline(name, work, given(name, work), vendor);
    double ms = 0;
    try {
        ms = time_launch(launch, options, hooks).median_ms;
    } catch (const CudaError& e) {
        throw std::runtime_error("the baseline " + name + " failed: " + e.what());  // the grader's fault, not the student's
    }
    return recorded_baseline(name, work, ms, vendor);
}

Baseline Exercise::recorded_baseline(const std::string& name, Work work, double ms, bool vendor) {
    const Baseline b{name, work, ms};
    if (yardstick_run()) yardsticks_.push_back({name_, name, ms, work});
    const std::string key = vendor ? "vendor" : "shape";
    label(key, name);
    figure(key + "_figure", b.figure());
    figure(key + "_ms", b.ms);
    return b;
}

double Exercise::given(const std::string& name, const Work& work) {
    return given_figure(given_yardsticks(), name_, given_taken_++, name, work);
}

bool Exercise::takes_given_figures() const { return figures_given() && !teaching_; }

bool Exercise::times_baselines() const { return !sanitizer_mode() && !takes_given_figures(); }

double Exercise::yardstick(const std::string& name, const std::function<double()>& measure) {
    if (takes_given_figures()) return given(name, {});
    const double v = measure();
    if (yardstick_run()) yardsticks_.push_back({name_, name, v, {}});
    return v;
}

Baseline Exercise::baseline(const std::string& name, Work work, Call& call, bool vendor, const TimingOptions& options) {
    if (sanitizer_mode()) return {name, work, 0};
    if (!call.timed_inputs() || !call.timed_verifier())
        throw std::logic_error("grader bug: a baseline's call needs timed_inputs and timed_verify (call.hpp)");
    if (takes_given_figures()) return recorded_baseline(name, work, given(name, work), vendor);
    int calls = 0;
    const RunHooks hooks = verified_runs(call, calls);
    try {
        const Baseline b = timed_baseline(name, work, call.launch(), vendor, options, hooks);
        apply_size(call, SizeDraw::nominal());
        return b;
    } catch (const Rejection& r) {  // the grader's fault, not the student's
        throw std::runtime_error("grader self-check: the baseline " + name + " failed the checks of a timed call: " + r.what());
    }
}

std::string Exercise::slow_hint(const Timing& student, const Target& t, const Performance& p) {
    const SlowDiagnosis& d = diagnosis_;
    const std::string yours = format("your kernel reaches %.0f ", t.figure(p, student.median_ms)) + t.unit();
    if (d.launch) {
        // A few runs: this only chooses between two hints (15 % apart), and the kernel is often
        // slow; one run after its warm-up where that run takes the budget (the starter's kernel
        // of 03.1 and 03.4 takes 0.1 s a run on an H200: four runs took 0.4 s, #19).
        TimingOptions few{1, 3};
        few.budget_ms = kInformingBudgetMs;
        few.l2_resident = p.l2_resident;  // timed as the student's calls were
        const double other_ms = time_launch(d.launch, few).median_ms;
        const double speed = other_ms / student.median_ms;  // > 1: the student's is faster
        const std::string measured = yours + format(", %.2f× ", speed) + d.label +
                                     format(" (%.0f ", t.figure(p, other_ms)) + t.unit() + ", measured now)";
        return speed <= kAsSlowFactor ? measured + ": " + d.if_like
                                      : measured + ", so that is not what holds it back: " + d.otherwise;
    }
    return hint_;
}

RunHooks Exercise::verified_runs(Call& call, int& calls) {
    RunHooks hooks;
    // The size of the run in progress, from a series no launcher can predict (timed_sizes.hpp).
    const auto run = std::make_shared<RunSize>();
    const uint64_t series = fresh_key();
    hooks.before = [this, &call, run, series](int i) {
        *run = apply_size(call, SizeDraw(series, i));
        prepare(call, true);
    };
    hooks.work_share = [run] { return run->work_share; };
    hooks.after = [this, &call, &calls, run](int) {
        ++calls;
        const std::string which = "timed call " + std::to_string(calls) + (run->text.empty() ? "" : ", " + run->text);
        for (const Call::Buffer& b : call.buffers()) {
            if (b.role != Call::Role::output) continue;
            const size_t left = b.memory->count_poisoned(b.element_bytes);
            if (!left) continue;
            const std::string counted = std::to_string(left) + " of " + std::to_string(b.memory->bytes() / b.element_bytes) +
                                        " elements of " + b.name;
            reject(Reason::wrong, call.context() + " (" + which + "): " + counted +
                                      (b.memory->on_host()
                                           ? " still hold the poison: never copied back, or copied back before the work "
                                             "that writes them had finished (a copy that does not wait for its kernel)"
                                           : " never written: every call must compute the whole result, not only the first"));
        }
        check_after(call, which, false);  // guards and const inputs
        try {
            call.timed_verifier()();
        } catch (const Rejection& r) {
            throw Rejection(r.reason, which + ": " + r.what());
        }
    };
    return hooks;
}

void Exercise::grade(Performance p, Call& call, const std::string& part) {
    if (yardstick_run()) return;  // the student's side, switched off: the body goes on to its next baseline
    if (sanitizer_mode()) {
        detail_ = "correct; speed not graded under compute-sanitizer";
        return;
    }
    if (!call.timed_inputs() || !call.timed_verifier())
        throw std::logic_error("grader bug: a graded call needs timed_inputs and timed_verify (call.hpp)");
    const std::string key = declared_name(name_, part);
    const Declared* declared = find_declared(declared_thresholds(), key);
    if (!declared || declared->targets.size() != 1 + p.alternatives.size())
        throw std::logic_error("grader bug: thresholds.txt has no line for " + key + ", or one with another number of targets");
    apply_declared(p, declared->targets[0], name_);
    for (size_t k = 0; k < p.alternatives.size(); ++k) apply_declared(p.alternatives[k], declared->targets[k + 1], name_);
    perf_graded_ = true;
    const Target t = target_for(p, ceilings(), threshold_scale());
    fraction_ = t.fraction;
    TimingOptions o;
    o.clock = p.clock;
    o.l2_resident = p.l2_resident;
    o.decided = [&](const std::vector<double>& s) { return speed_decided(s, t.required_ms); };
    // Every call, warm-ups included, gets fresh inputs and is verified in full: which call
    // is timed, or checked, is nothing a launcher could tell or needs to.
    int calls = 0;
    TimedKernels ran(kernels_ran_);  // for the mechanism check, where it was asked for
    const RunHooks hooks = ran.around(verified_runs(call, calls));
    Timing m;
    bool remeasured = false;
    try {
        const auto timed = [&] {
            Range r(kTimedRange);
            call.launch()();
        };
        m = time_launch(timed, o, hooks);
        if (m.median_ms > t.required_ms && m.median_ms < t.required_ms * kRemeasureBand) {
            o.warmups = 1, o.runs = 41;
            m = better_of(m, time_launch(timed, o, hooks));
            remeasured = true;
        }
    } catch (const CudaError& e) {
        reject(Reason::fault, call.context() + ", while timing: " + e.what());
    } catch (const LeftRunning& e) {
        throw LeftRunning(call.context() + ", " + e.what());
    }
    ran.finish();
    apply_size(call, SizeDraw::nominal());  // what follows (the slow diagnosis) runs at the nominal size
    TimedReport raw;
    raw.median_ms = m.median_ms, raw.bytes = p.bytes, raw.flops = p.flops, raw.threshold_ms = t.required_ms;
    raw.fractions = {p.fraction}, raw.baseline_ms = {p.baseline_ms}, raw.baseline_names = {p.baseline};
    for (const Performance& a : p.alternatives)
        raw.fractions.push_back(a.fraction), raw.baseline_ms.push_back(a.baseline_ms), raw.baseline_names.push_back(a.baseline);
    timed_.emplace_back(key, raw);
    const double got = t.figure(p, m.median_ms), need = t.figure(p, t.required_ms);
    figure("figure", got);
    figure("threshold", need);
    // One unit per exercise: a baseline timed on this work is recorded again in the unit of
    // the exercise's own figure (a roofline-graded exercise can be in GB/s while its vendor
    // routine's work, counted with flops, would read in GFLOP/s).
    for (const char* b : {"vendor", "shape"}) {
        const auto ms = figures_.find(std::string(b) + "_ms");
        if (ms != figures_.end() && ms->second > 0) figure(std::string(b) + "_figure", t.figure(p, ms->second));
    }
    figure("ceiling", t.ceiling_figure);
    figure("fraction_of_ceiling", got / t.ceiling_figure);
    figure("median_ms", m.median_ms);
    figure("min_ms", m.min_ms);
    figure("max_ms", m.max_ms);
    figure("tail_ms", m.tail_ms);
    figure("runs", m.runs);
    figure("bytes", p.bytes);  // the declared work: with flops, places the exercise on a roofline
    figure("flops", p.flops);
    label("unit", t.unit());
    label("ceiling", t.ceiling);
    if (p.with_median) p.with_median(m.median_ms);
    char buf[320];
    std::snprintf(buf, sizeof buf, "%.0f %s, needs >= %.0f (%.0f %% of %s); median of %d runs%s, spread %.0f %%", got,
                  t.unit(), need, 100 * t.fraction * threshold_scale(), t.ceiling.c_str(), m.runs,
                  remeasured ? " (close to the threshold: measured twice, the better series kept)" : "", 100 * m.spread());
    detail_ = buf;
    // Under the wall clock the timer held every stream: what the tail still shows there is
    // work the default stream does not wait for, which a later call on it could overtake.
    const double tail_allowed = p.clock == Clock::wall ? kWallTailMs : std::max(kTailFloorMs, kTailFraction * m.median_ms);
    // Under --sms the default stream is a green context's, which (measured on the H100, at
    // 16, 34 and 66 SMs) does not wait for streams made by cudaStreamCreate as the legacy
    // default stream does: lesson 07's reference then shows its whole pipeline as a tail.
    // The wall clock timed all of it anyway, so only the check is lost, and said so.
    if (m.tail_ms > tail_allowed && p.clock == Clock::wall && gpu().sms_limited)
        detail_ += "; work left on other streams not checked under --sms (a green context's default stream does not "
                   "wait for blocking streams: docs/thresholds.md, \"Other GPU shapes\")";
    else if (m.tail_ms > tail_allowed)
        reject(Reason::untimed,
               p.clock == Clock::wall
                   ? format("the launcher returned work that the default stream does not wait for: the GPU stayed busy "
                            "%.3f ms (median) after an event recorded on the default stream had completed, against %.3f "
                            "ms timed. A stream made with cudaStreamNonBlocking must be joined before the launcher "
                            "returns: record an event on it and make the default stream wait for it "
                            "(cudaStreamWaitEvent), or use streams made by cudaStreamCreate, which it waits for",
                            m.tail_ms, m.median_ms)
                   : format("the launcher's work outlived the timer: the GPU stayed busy %.3f ms (median) after the work "
                            "on the default stream had ended, against %.3f ms timed. Work on another stream must be "
                            "finished before the launcher's default-stream work ends: record an event on that stream and "
                            "make the default stream wait for it (cudaStreamWaitEvent), or launch on the default stream",
                            m.tail_ms, m.median_ms));
    if (impossible(p, ceilings(), double(gpu().l2_bytes), m.median_ms))
        reject(Reason::impossible,
               "faster than this GPU can move the data or do the arithmetic: the kernel must be skipping work "
               "(is every output computed from the inputs on every call?)");
    if (m.median_ms > t.required_ms) {
        hint_ = slow_hint(m, t, p);
        reject(Reason::slow, "too slow" + (part.empty() ? std::string() : ", " + part) + ": " + std::string(buf));
    }
    // The verdict line shows the exercise's last grade; an earlier, named one gets a line here.
    if (!part.empty()) std::printf("      %s: %s\n", part.c_str(), buf);
}

// ---------------------------------------------------------------------- the verdict

std::string Exercise::where() const {
    std::string s = "read " + lesson().theory;
    if (!section_.empty()) s += ", section \"" + section_ + "\"";
    return s;
}

void Exercise::execute(void (*body)(Exercise&)) {
    try {
        // The threads alive now were recorded when the context was made, before any static
        // initializer of the submission ran (exercise_process.cpp): one more is the submission's.
        expect_nothing_left_running("before the exercise's first call (started by a static initializer?)");
        body(*this);
    } catch (const LeftRunning& e) {
        reason_ = Reason::outside;
        message_ = e.what();
    } catch (const Rejection& r) {
        reason_ = r.reason;
        message_ = r.what();
    } catch (const CudaError& e) {
        reason_ = Reason::fault;
        message_ = e.what();
    } catch (const std::exception& e) {
        reason_ = Reason::crash;
        message_ = std::string("the grader stopped: ") + e.what();
    }
}

Verdict Exercise::verdict() const {
    Verdict v;
    v.exercise = name_;
    v.reason = reason_;
    if (reason_ == Reason::skipped) {
        v.verdict = "SKIP", v.message = message_;
    } else if (reason_ != Reason::none) {
        v.verdict = "FAIL", v.message = message_, v.theory = where();
        if (reason_ == Reason::slow) v.hint = hint_;
    } else {
        v.verdict = teaching_ ? "INFO" : "PASS", v.message = detail_, v.note = overlap_;
    }
    return v;
}

Report Exercise::report() const {
    ExerciseResult e;
    e.verdict = verdict();
    e.perf_graded = perf_graded_, e.teaching = teaching_, e.fraction = fraction_;
    JsonObject figures, labels;
    for (const auto& [k, x] : figures_) figures.add(k, x);
    for (const auto& [k, x] : labels_) labels.add(k, x);
    e.figures_json = figures.str(), e.labels_json = labels.str();
    std::string tables;
    for (const std::string& t : tables_) tables += (tables.empty() ? "" : ", ") + t;
    e.tables_json = "[" + tables + "]";
    e.kernels_ran = kernels_ran_;
    if (settings().trace_kernels() && !e.kernels_ran.recorded && e.kernels_ran.note.empty())
        e.kernels_ran.note = sanitizer_mode() ? "nothing is timed under compute-sanitizer, so no call's kernels were recorded"
                                              : "no timed call ran";
    Report r;
    r.add("kind", "exercise");
    add_exercise_fields(r, e);  // results.hpp: the one list of an exercise result's fields
    for (const auto& [key, raw] : timed_) add_timed(r, key, raw);
    return r;
}

// No student code is linked there, so nothing of the student's side may run (its functions
// resolve to address 0).
bool yardstick_run() { return settings().yardstick_run(); }

size_t timing_elements(size_t bytes_per_element) {
    if (sanitizer_mode()) return (size_t(1) << 16) + 3;
    // The supervisor's reading when it has one (ceilings.hpp, timing_free_bytes): the same in
    // every process of the run; unsupervised, this process's own.
    size_t free_b = 0, total_b = 0;
    if (ceilings().has(ceiling::timing_free_bytes)) free_b = size_t(ceilings().get(ceiling::timing_free_bytes));
    else CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    size_t want = std::max<size_t>(size_t(256) << 20, 16 * size_t(gpu().l2_bytes));
    size_t bytes = std::min(want, free_b / 4);
    // Odd on purpose: a size that is no multiple of any block size.
    return (bytes / bytes_per_element) | 1;
}

bool largest_check_fits(size_t need, const std::string& what) {
    if (sanitizer_mode() || yardstick_run()) return false;
    size_t free_b = 0, total_b = 0;
    CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    need += size_t(512) << 20;  // the allocator's rounding, cuBLAS's workspace
    if (need <= free_b) return true;
    std::printf("      %s not checked: it needs %.1f GiB of GPU memory; %.1f GiB are free\n", what.c_str(), need / 1073741824.0,
                free_b / 1073741824.0);
    return false;
}

std::string past_int32_cause() {
    return "past 2^31 bytes; every smaller size was right, so the likely cause is a byte offset, index or count held in "
           "an int, which turns negative past 2^31 - 1: compute it in size_t";
}

}  // namespace grader
