// SPDX-License-Identifier: MIT
#include "grader/common/results.hpp"

#include <cstdio>
#include <cstdlib>
#include <ctime>

#include "grader/common/json.hpp"

namespace grader {

namespace {
std::string array(const std::vector<std::string>& items) {
    std::string s = "[";
    for (size_t i = 0; i < items.size(); ++i) s += (i ? ", \"" : "\"") + json_escape(items[i]) + "\"";
    return s + "]";
}

// The three visitors of exercise_fields: into a sealed report, out of one, into the results file.
struct ToReport {
    Report& r;
    void text(const char* k, const std::string& x) { r.add(k, x); }
    void reason(const char* k, Reason x) { r.add(k, to_string(x)); }
    void flag(const char* k, bool x) { r.add(k, x ? "true" : "false"); }
    void number(const char* k, double x) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.17g", x);
        r.add(k, buf);
    }
    void json(const char* k, const std::string& x, const char*) { r.add(k, x); }
    // One field for whether it was recorded, one for the note, one per set (kernel_set_text).
    void kernels(const char* k, const KernelsRan& x) {
        const std::string key = k;
        r.add(key + "_recorded", x.recorded ? "true" : "false").add(key + "_note", x.note);
        for (const KernelSet& s : x.sets) r.add(key + "_set", kernel_set_text(s));
    }
};
struct FromReport {
    const Report& r;
    void text(const char* k, std::string& x) { x = r.get(k); }
    void reason(const char* k, Reason& x) { x = reason_from_string(r.get(k)); }
    void flag(const char* k, bool& x) { x = r.get(k) == "true"; }
    void number(const char* k, double& x) { x = std::atof(r.get(k).c_str()); }
    void json(const char* k, std::string& x, const char* otherwise) {
        x = r.get(k);
        if (x.empty()) x = otherwise;
    }
    void kernels(const char* k, KernelsRan& x) {
        const std::string key = k;
        x = KernelsRan();
        for (const std::string& line : r.all(key + "_set")) {
            KernelSet s;
            if (!kernel_set_from_text(line, s)) return x.fail("the exercise's report holds a set of kernels that cannot be read");
            x.sets.push_back(s);
        }
        x.recorded = r.get(key + "_recorded") == "true" && x.calls() > 0;
        x.note = x.recorded ? "" : r.get(key + "_note");
        if (!x.recorded) x.sets.clear();
    }
};
struct ToJson {
    JsonObject& o;
    void text(const char* k, const std::string& x) { o.add(k, x); }
    void reason(const char* k, Reason x) { o.add(k, to_string(x)); }
    void flag(const char* k, bool x) { o.add(k, x); }
    void number(const char* k, double x) { o.add(k, x); }
    void json(const char* k, const std::string& x, const char* otherwise) { o.add_raw(k, x.empty() ? otherwise : x); }
    void kernels(const char* k, const KernelsRan& x) { o.add_raw(k, kernels_ran_json(x)); }
};
}  // namespace

void add_exercise_fields(Report& r, const ExerciseResult& e) { exercise_fields(e, ToReport{r}); }

ExerciseResult exercise_from_report(const Report& r) {
    ExerciseResult e;
    exercise_fields(e, FromReport{r});
    return e;
}

Tally tally(const std::vector<ExerciseResult>& exercises) {
    Tally t;
    for (const ExerciseResult& e : exercises) {
        const std::string& v = e.verdict.verdict;
        (e.teaching || v == "INFO" ? t.info : v == "PASS" ? t.passed : v == "FAIL" ? t.failed : t.skipped)++;
    }
    return t;
}

std::string results_json(const RunResult& r) {
    std::string exercises;
    for (const ExerciseResult& e : r.exercises) {
        JsonObject o;
        exercise_fields(e, ToJson{o});
        exercises += (exercises.empty() ? "\n    " : ",\n    ") + o.str();
    }
    JsonObject summary;
    const Tally t = tally(r.exercises);
    summary.add("passed", t.passed).add("failed", t.failed).add("skipped", t.skipped).add("info", t.info);
    JsonObject ceilings;
    for (const auto& [k, v] : r.ceilings.values()) ceilings.add(k, v);
    JsonObject doc;
    doc.add("schema", "cuda-lessons-results")
        .add("schema_version", kResultsSchemaVersion)
        .add("test", r.test)
        .add("lesson", r.lesson)
        .add("title", r.title)
        .add("theory", r.theory)
        .add("submission", r.submission)
        .add("grader_revision", r.grader_revision)
        .add("timestamp", r.timestamp)
        .add("seed", r.seed)
        .add("threshold_scale", r.threshold_scale)
        .add("sanitizer", r.sanitizer)
        .add("sms_limit", r.sms_limit)
        .add_raw("filters", array(r.filters))
        .add_raw("expect_reject", array(r.expect_reject))
        .add("status", r.status)
        .add("status_message", r.status_message)
        .add("technique_check", r.technique_check);
    if (r.has_gpu) {
        JsonObject gpu;
        gpu.add("name", r.gpu.name).add("arch", r.gpu.arch()).add("sms", r.gpu.sms).add("l2_bytes", r.gpu.l2_bytes);
        gpu.add("memory_bytes", r.gpu.global_bytes).add("sms_total", r.gpu.sms_total);
        doc.add_raw("gpu", gpu.str());
    } else {
        doc.add_raw("gpu", "null");
    }
    doc.add_raw("ceilings", ceilings.str())
        .add_raw("exercises", "[" + exercises + (exercises.empty() ? "]" : "\n  ]"))
        .add_raw("summary", summary.str())
        .add("exit_code", r.exit_code)
        .add("wall_s", r.wall_s);
    return doc.str() + "\n";
}

std::string utc_timestamp() {
    std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

}  // namespace grader
