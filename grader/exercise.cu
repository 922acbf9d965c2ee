// SPDX-License-Identifier: MIT
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>

#include "grader/exercise.hpp"
#include "grader/json.hpp"
#include "grader/session.hpp"

namespace grader {

namespace {
LessonInfo& lesson_storage() {
    static LessonInfo info;
    return info;
}
constexpr double kRemeasureBand = 1.15;  // within 15 % of the threshold: measure again before failing
}  // namespace

const LessonInfo& lesson() { return lesson_storage(); }

LessonRegistration::LessonRegistration(const char* number, const char* title, const char* theory) {
    lesson_storage() = {number, title, theory};
}

const char* to_string(Reason r) {
    switch (r) {
        case Reason::none: return "none";
        case Reason::wrong: return "wrong";
        case Reason::bounds: return "bounds";
        case Reason::fault: return "fault";
        case Reason::slow: return "slow";
        case Reason::impossible: return "impossible";
        case Reason::hang: return "hang";
        case Reason::crash: return "crash";
        case Reason::skipped: return "skipped";
    }
    return "none";
}

Reason reason_from_string(const std::string& s) {
    for (Reason r : {Reason::wrong, Reason::bounds, Reason::fault, Reason::slow, Reason::impossible, Reason::hang,
                     Reason::crash, Reason::skipped})
        if (s == to_string(r)) return r;
    return Reason::none;
}

Rng Exercise::rng(const std::string& purpose) const { return rng_for(seed(), name_ + "/" + purpose); }

void Exercise::run(const std::string& what, const std::function<void()>& launch) {
    try {
        launch();
        check_launch(what.c_str());
    } catch (const CudaError& e) {
        reject(Reason::fault, e.what());
    }
}

void Exercise::reject(Reason reason, const std::string& message) { throw Rejection(reason, message); }

void Exercise::skip(const std::string& why) { throw Rejection(Reason::skipped, why); }

void Exercise::teaching_only() {
    teaching_ = true;
    if (sanitizer_mode()) skip("teaching table: nothing is timed under compute-sanitizer");
}

void Exercise::figure(const std::string& key, double value) { figures_.emplace_back(key, value); }

std::string Exercise::where() const {
    std::string s = "read " + lesson().theory;
    if (!section_.empty()) s += ", section \"" + section_ + "\"";
    return s;
}

void Exercise::grade(const Performance& p, const std::function<void()>& launch) {
    if (sanitizer_mode()) {
        detail_ = "correct; speed not graded under compute-sanitizer";
        return;
    }
    perf_graded_ = true;
    Target t = target_for(p, ceilings(), threshold_scale());
    Timing m;
    try {
        m = time_launch(launch);
        if (m.median_ms > t.required_ms && m.median_ms < t.required_ms * kRemeasureBand)
            m = better_of(m, time_launch(launch, TimingOptions{3, 41, true}));
    } catch (const CudaError& e) {
        reject(Reason::fault, std::string("while timing: ") + e.what());
    }
    double got = t.figure(p, m.median_ms), need = t.figure(p, t.required_ms);
    figure("figure", got);
    figure("threshold", need);
    figure("ceiling", t.ceiling_figure);
    figure("fraction_of_ceiling", got / t.ceiling_figure);
    figure("median_ms", m.median_ms);
    figure("min_ms", m.min_ms);
    figure("max_ms", m.max_ms);
    figure("runs", m.runs);
    char buf[320];
    std::snprintf(buf, sizeof buf, "%.0f %s, needs >= %.0f (%.0f %% of %s); median of %d runs, spread %.0f %%", got,
                  t.unit(), need, 100 * p.fraction * threshold_scale(), t.ceiling.c_str(), m.runs, 100 * m.spread());
    detail_ = buf;
    if (impossible(p, ceilings(), double(gpu().l2_bytes), m.median_ms))
        reject(Reason::impossible,
               "faster than this GPU can move the data or do the arithmetic: the kernel must be skipping work "
               "(is every output computed from the inputs on every call?)");
    if (m.median_ms > t.required_ms) {
        std::string msg = "too slow: " + std::string(buf);
        if (!hint_.empty()) msg += "\n      hint: " + hint_;
        reject(Reason::slow, msg);
    }
}

void Exercise::execute(void (*body)(Exercise&)) {
    try {
        body(*this);
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
    skipped_ = reason_ == Reason::skipped;
    if (skipped_) {
        std::printf("SKIP  %s: %s\n", name_.c_str(), message_.c_str());
    } else if (reason_ == Reason::none && teaching_) {
        std::printf("INFO  %-28s teaching output, not graded\n", name_.c_str());
    } else if (reason_ == Reason::none) {
        std::printf("PASS  %-28s %s\n", name_.c_str(), detail_.empty() ? "correct" : detail_.c_str());
        if (!overlap_.empty()) std::printf("      note: %s\n", overlap_.c_str());
    } else {
        std::printf("FAIL  %-28s [%s] %s\n      %s\n", name_.c_str(), to_string(reason_), message_.c_str(),
                    where().c_str());
    }
    std::fflush(stdout);
}

std::string Exercise::report_json() const {
    JsonObject o;
    o.add("exercise", name_)
        .add("verdict", skipped_ ? "SKIP" : reason_ != Reason::none ? "FAIL" : teaching_ ? "INFO" : "PASS")
        .add("reason", to_string(reason_))
        .add("message", message_)
        .add("perf_graded", perf_graded_);
    if (!overlap_.empty()) o.add("overlaps_previous", overlap_);
    for (const auto& [k, v] : figures_) o.add(k, v);
    return o.str();
}

size_t timing_elements(size_t bytes_per_element) {
    if (sanitizer_mode()) return (size_t(1) << 16) + 3;
    size_t free_b = 0, total_b = 0;
    CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    size_t want = std::max<size_t>(size_t(256) << 20, 16 * size_t(gpu().l2_bytes));
    size_t bytes = std::min(want, free_b / 4);
    // Odd on purpose: a size that is no multiple of any block size.
    return (bytes / bytes_per_element) | 1;
}

}  // namespace grader
