// SPDX-License-Identifier: MIT
// The record of the kernels each timed call ran (grader/common/kernels_ran.hpp): windows, sets, the
// ways a trace can fall short, and the record's way through the sealed report into the
// results file.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "grader/common/kernels_ran.hpp"
#include "grader/common/results.hpp"
#include "grader/exercise/traced_calls.hpp"

namespace {

grader::Activity kernel(const std::string& name, uint64_t start) {
    grader::Activity a;
    a.kind = grader::Activity::Kind::kernel, a.name = name, a.start_ns = start, a.end_ns = start + 5;
    return a;
}

grader::Activity copy(uint64_t start) {
    grader::Activity a;
    a.kind = grader::Activity::Kind::copy_in, a.start_ns = start, a.end_ns = start + 5, a.bytes = 64;
    return a;
}

}  // namespace

TEST_CASE("calls that ran the same kernels, in any order and any number of times, count as one set") {
    grader::KernelsRan ran;
    ran.add_call({"_Z1bv", "_Z1av", "_Z1bv"});
    ran.add_call({"_Z1av", "_Z1bv"});
    ran.add_call({"_Z1av"});
    ran.add_call({});
    REQUIRE(ran.sets.size() == 3);
    CHECK(ran.sets[0].kernels == std::vector<std::string>{"_Z1av", "_Z1bv"});
    CHECK(ran.sets[0].calls == 2);
    CHECK(ran.sets[1].calls == 1);
    CHECK(ran.sets[2].kernels.empty());  // a call that ran no kernel is a set of its own
    CHECK(ran.calls() == 4);
}

TEST_CASE("a kernel belongs to the call whose window holds its start; copies and the grader's kernels outside do not count") {
    const std::vector<grader::TraceWindow> windows = {{100, 200}, {300, 400}, {500, 600}};
    const std::vector<grader::Activity> records = {
        kernel("_Z4fillv", 50),     // the grader's fresh inputs, before the first call
        kernel("_Z5naivev", 120),   // call 1
        kernel("_Z5naivev", 150),   // call 1 again: once in its set
        copy(130),                  // a copy is not a kernel
        kernel("_Z6verifyv", 250),  // the grader's check, between the calls
        kernel("_Z5tiledv", 300),   // call 2, starting on the window's edge
        kernel("_Z6helperv", 398),  // call 2
        kernel("_Z6verifyv", 700),  // after the last call
    };
    const auto sets = grader::kernels_in_windows(records, windows);
    REQUIRE(sets.size() == 3);
    CHECK(sets[0] == std::vector<std::string>{"_Z5naivev"});
    CHECK(sets[1] == std::vector<std::string>{"_Z5tiledv", "_Z6helperv"});
    CHECK(sets[2].empty());  // call 3 ran no kernel
}

TEST_CASE("a trace that failed, lost records or recorded nothing at all leaves the record incomplete, for good") {
    const std::vector<grader::TraceWindow> windows = {{100, 200}};
    const std::vector<grader::Activity> records = {kernel("_Z4fillv", 50), kernel("_Z5tiledv", 150)};
    SUBCASE("a trace that works") {
        grader::KernelsRan ran;
        grader::add_traced_calls(ran, records, "", 0, windows);
        CHECK(ran.recorded);
        CHECK(ran.note.empty());
        REQUIRE(ran.sets.size() == 1);
        CHECK(ran.sets[0].kernels == std::vector<std::string>{"_Z5tiledv"});
        grader::add_traced_calls(ran, records, "", 0, windows);  // a second grade() of the exercise
        CHECK(ran.calls() == 2);
    }
    SUBCASE("CUPTI failed") {
        grader::KernelsRan ran;
        grader::add_traced_calls(ran, {}, "CUPTI not found at build time", 0, {});
        CHECK_FALSE(ran.recorded);
        CHECK(ran.note == "CUPTI not found at build time");
    }
    SUBCASE("records were dropped") {
        grader::KernelsRan ran;
        grader::add_traced_calls(ran, records, "", 3, windows);
        CHECK_FALSE(ran.recorded);
        CHECK(ran.note.find("dropped 3 records") != std::string::npos);
        CHECK(ran.sets.empty());
    }
    SUBCASE("not a single kernel recorded, not even the grader's: the trace saw nothing") {
        grader::KernelsRan ran;
        grader::add_traced_calls(ran, {copy(150)}, "", 0, windows);
        CHECK_FALSE(ran.recorded);
        CHECK(ran.note.find("no kernel") != std::string::npos);
    }
    SUBCASE("a failure after calls that were recorded: the record is incomplete, and stays so") {
        grader::KernelsRan ran;
        grader::add_traced_calls(ran, records, "", 0, windows);
        grader::add_traced_calls(ran, {}, "cuptiActivityFlushAll failed: unknown", 0, windows);
        CHECK_FALSE(ran.recorded);
        CHECK(ran.sets.empty());
        grader::add_traced_calls(ran, records, "", 0, windows);
        CHECK_FALSE(ran.recorded);
        CHECK(ran.note == "cuptiActivityFlushAll failed: unknown");
    }
}

TEST_CASE("a set is one line of the report, and only a well-formed line reads back") {
    grader::KernelSet s{{"_Z1av", "_ZN56_GLOBAL__N__5b82dede_23_x_cu_ecaf206618conv_kernelEPKfPfiii"}, 21};
    const std::string text = grader::kernel_set_text(s);
    CHECK(text == "21 _Z1av _ZN56_GLOBAL__N__5b82dede_23_x_cu_ecaf206618conv_kernelEPKfPfiii");
    grader::KernelSet back;
    REQUIRE(grader::kernel_set_from_text(text, back));
    CHECK(back.calls == 21);
    CHECK(back.kernels == s.kernels);
    CHECK(grader::kernel_set_from_text("3", back));  // three calls that ran no kernel
    CHECK(back.kernels.empty());
    CHECK_FALSE(grader::kernel_set_from_text("", back));
    CHECK_FALSE(grader::kernel_set_from_text("0 _Z1av", back));          // no call
    CHECK_FALSE(grader::kernel_set_from_text("-2 _Z1av", back));
    CHECK_FALSE(grader::kernel_set_from_text("x _Z1av", back));
    CHECK_FALSE(grader::kernel_set_from_text("2 _Z1bv _Z1av", back));    // not sorted
    CHECK_FALSE(grader::kernel_set_from_text("2 _Z1av _Z1av", back));    // twice
}

TEST_CASE("the record goes through the sealed report into the results file") {
    grader::ExerciseResult e;
    e.verdict.exercise = "04.2 halo tiles in shared memory";
    e.kernels_ran.add_call({"_Z5tiledv"});
    e.kernels_ran.add_call({"_Z5naivev", "_Z6helperv"});
    e.kernels_ran.add_call({"_Z5naivev", "_Z6helperv"});
    e.kernels_ran.recorded = true;
    e.technique_read = "ran";
    grader::Report r;
    grader::add_exercise_fields(r, e);
    const grader::ExerciseResult back = grader::exercise_from_report(r);
    CHECK(back.kernels_ran.recorded);
    REQUIRE(back.kernels_ran.sets.size() == 2);
    CHECK(back.kernels_ran.sets[1].calls == 2);
    CHECK(back.kernels_ran.sets[1].kernels == std::vector<std::string>{"_Z5naivev", "_Z6helperv"});
    grader::RunResult run;
    run.exercises = {back};
    const std::string j = grader::results_json(run);
    CHECK(j.find("\"kernels_ran\": {\"recorded\": true, \"note\": \"\", \"sets\": [{\"calls\": 1, \"kernels\": "
                 "[\"_Z5tiledv\"]}, {\"calls\": 2, \"kernels\": [\"_Z5naivev\", \"_Z6helperv\"]}]}") != std::string::npos);
    CHECK(j.find("\"technique_read\": \"ran\"") != std::string::npos);

    SUBCASE("not recorded: the note says why, and no set is kept") {
        grader::ExerciseResult none;
        none.kernels_ran.fail("CUPTI not found at build time");
        grader::Report q;
        grader::add_exercise_fields(q, none);
        const grader::ExerciseResult b = grader::exercise_from_report(q);
        CHECK_FALSE(b.kernels_ran.recorded);
        CHECK(b.kernels_ran.note == "CUPTI not found at build time");
        run.exercises = {b};
        CHECK(grader::results_json(run).find("\"kernels_ran\": {\"recorded\": false, \"note\": \"CUPTI not found at build "
                                             "time\", \"sets\": []}") != std::string::npos);
    }
    SUBCASE("a report that says recorded but holds no call, or a set it cannot read, is no record") {
        grader::Report q;
        q.add("kernels_ran_recorded", "true").add("kernels_ran_note", "");
        CHECK_FALSE(grader::exercise_from_report(q).kernels_ran.recorded);
        q.add("kernels_ran_set", "2 _Z1bv _Z1av");
        const grader::ExerciseResult b = grader::exercise_from_report(q);
        CHECK_FALSE(b.kernels_ran.recorded);
        CHECK(b.kernels_ran.note.find("cannot be read") != std::string::npos);
    }
}
