// SPDX-License-Identifier: MIT
#include <doctest/doctest.h>

#include "grader/common/results.hpp"

TEST_CASE("the results document carries its schema, the run and every exercise") {
    grader::RunResult r;
    r.test = "lesson01", r.lesson = "01", r.submission = "/home/alice", r.grader_revision = "v1-3-gabc";
    r.timestamp = "2026-11-22T01:02:03Z", r.seed = "42", r.filters = {"-tc=01.1*"};
    r.has_gpu = true;
    r.gpu.name = "Some \"GPU\"";
    r.ceilings.set("copy_gbs", 3000);
    grader::ExerciseResult e;
    e.verdict = {"01.1 matrix mapping", "FAIL", grader::Reason::slow, "too slow", "a hint", "read x", ""};
    e.perf_graded = true, e.fraction = 0.65, e.figures_json = "{\"figure\": 1682}";
    r.exercises = {e};
    r.exit_code = 1;
    const std::string j = grader::results_json(r);
    CHECK(j.find("\"schema\": \"cuda-lessons-results\"") != std::string::npos);
    CHECK(j.find("\"schema_version\": 1") != std::string::npos);
    CHECK(j.find("\"submission\": \"/home/alice\"") != std::string::npos);
    CHECK(j.find("\"filters\": [\"-tc=01.1*\"]") != std::string::npos);
    CHECK(j.find("\"name\": \"Some \\\"GPU\\\"\"") != std::string::npos);
    CHECK(j.find("\"reason\": \"slow\"") != std::string::npos);
    CHECK(j.find("\"figures\": {\"figure\": 1682}") != std::string::npos);
    CHECK(j.find("\"summary\": {\"passed\": 0, \"failed\": 1, \"skipped\": 0, \"info\": 0}") != std::string::npos);
}

TEST_CASE("a run that graded nothing still writes a complete document") {
    grader::RunResult r;
    r.test = "lesson02", r.status = "missing_files", r.status_message = "missing: 1_tiled_transpose.cu";
    const std::string j = grader::results_json(r);
    CHECK(j.find("\"gpu\": null") != std::string::npos);
    CHECK(j.find("\"exercises\": []") != std::string::npos);
    CHECK(j.find("\"status\": \"missing_files\"") != std::string::npos);
    CHECK(grader::utc_timestamp().size() == 20);
}

TEST_CASE("a run under --sms records the SMs asked, the SMs used and the whole GPU's") {
    grader::RunResult r;
    r.test = "lesson01", r.sms_limit = 33, r.has_gpu = true;
    r.gpu.sms = 34, r.gpu.sms_total = 132, r.gpu.sms_limited = true;  // the driver rounded 33 up
    const std::string j = grader::results_json(r);
    CHECK(j.find("\"sms_limit\": 33") != std::string::npos);
    CHECK(j.find("\"sms\": 34") != std::string::npos);
    CHECK(j.find("\"sms_total\": 132") != std::string::npos);
    grader::RunResult whole;  // no --sms: 0, and the GPU's count twice
    whole.has_gpu = true, whole.gpu.sms = whole.gpu.sms_total = 132;
    const std::string w = grader::results_json(whole);
    CHECK(w.find("\"sms_limit\": 0") != std::string::npos);
    CHECK(w.find("\"sms\": 132") != std::string::npos);
    CHECK(w.find("\"sms_total\": 132") != std::string::npos);
}

TEST_CASE("an exercise's fields go through the sealed report into the results file unchanged") {
    grader::ExerciseResult e;
    e.verdict = {"02.0 teaching table", "INFO", grader::Reason::none, "", "", "", "a note\nover two lines"};
    e.teaching = true, e.fraction = 0.123456789;
    e.figures_json = "{\"naive_gbs\": 1200}";
    e.tables_json = "[{\"caption\": \"Transposes\", \"unit\": \"GB/s\", \"relative\": false, \"columns\": [\"stage\", "
                    "\"GB/s\"], \"rows\": [{\"key\": \"naive_gbs\", \"label\": \"naive\", \"student\": false}]}]";
    grader::Report r;
    grader::add_exercise_fields(r, e);
    const grader::ExerciseResult back = grader::exercise_from_report(r);
    CHECK(back.verdict.exercise == e.verdict.exercise);
    CHECK(back.verdict.verdict == "INFO");
    CHECK(back.verdict.note == e.verdict.note);
    CHECK(back.teaching);
    CHECK(!back.perf_graded);
    CHECK(back.fraction == e.fraction);
    CHECK(back.figures_json == e.figures_json);
    CHECK(back.labels_json == "{}");
    CHECK(back.tables_json == e.tables_json);
    grader::RunResult run;
    run.exercises = {back};
    const std::string j = grader::results_json(run);
    CHECK(j.find("\"tables\": [{\"caption\": \"Transposes\"") != std::string::npos);
    CHECK(j.find("\"labels\": {}") != std::string::npos);
    CHECK(j.find("\"teaching\": true") != std::string::npos);
    // A result the supervisor made itself (a hang, a crash) has an empty list of tables.
    run.exercises = {grader::ExerciseResult{}};
    CHECK(grader::results_json(run).find("\"tables\": []") != std::string::npos);
}
