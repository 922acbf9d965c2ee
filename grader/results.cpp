// SPDX-License-Identifier: MIT
#include "grader/results.hpp"

#include <ctime>

#include "grader/json.hpp"

namespace grader {

namespace {
std::string array(const std::vector<std::string>& items) {
    std::string s = "[";
    for (size_t i = 0; i < items.size(); ++i) s += (i ? ", \"" : "\"") + json_escape(items[i]) + "\"";
    return s + "]";
}
}  // namespace

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
        const Verdict& v = e.verdict;
        JsonObject o;
        o.add("exercise", v.exercise)
            .add("verdict", v.verdict)
            .add("reason", to_string(v.reason))
            .add("message", v.message)
            .add("hint", v.hint)
            .add("theory", v.theory)
            .add("note", v.note)
            .add("perf_graded", e.perf_graded)
            .add("teaching", e.teaching)
            .add("fraction", e.fraction)
            .add_raw("figures", e.figures_json.empty() ? "{}" : e.figures_json)
            .add_raw("labels", e.labels_json.empty() ? "{}" : e.labels_json);
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
