// SPDX-License-Identifier: MIT
// The mechanism check on the kernels that ran (grader/supervisor/technique_ran.hpp): each timed call's
// set against a rule, the names that are not the file's, the messages, and the fallback to
// every compiled kernel where the exercise recorded none. The functions are short SASS
// listings written for these tests (sass_listing.hpp; test_technique.cpp says what each trait reads).
#include <doctest/doctest.h>

#include <string>
#include <utility>
#include <vector>

#include "grader/supervisor/technique_ran.hpp"
#include "grader/tests/sass_listing.hpp"

namespace {

// One function of `code` (sass_listing.hpp), ending with the exit and the branch to itself.
grader::SassFunction function(const std::string& name, std::vector<std::string> code, const std::string& arch = "sm_90") {
    const auto f = grader::parse_sass(sass_listing::listing(name, sass_listing::with_end(std::move(code)), arch));
    REQUIRE(f.size() == 1);
    return f[0];
}

// 04.2's shapes: a halo tile (store, barrier, loads from the tile only), and the untiled
// kernel, every tap a global load.
const std::string kTiled = "_ZN12_GLOBAL__N_117conv_tiled_kernelEPKfPfiii";
const std::string kNaive = "_ZN12_GLOBAL__N_119conv_untiled_kernelEPKfPfiii";
const std::string kTiled16 = "_ZN12_GLOBAL__N_119conv_tiled16_kernelEPKfPfiii";
grader::SassFunction tiled(const std::string& name = kTiled, const std::string& arch = "sm_90") {
    return function(name, {"LDG.E R0, desc[UR4][R2.64]", "STS [R4], R0", "BAR.SYNC.DEFER_BLOCKING 0x0", "LDS R5, [R4+0x4]",
                           "STG.E desc[UR4][R6.64], R5"}, arch);
}
grader::SassFunction naive(const std::string& name = kNaive) {
    return function(name, {"LDG.E R0, desc[UR4][R2.64]", "FFMA R5, R0, c[0x3][0x0], RZ", "STG.E desc[UR4][R6.64], R5"});
}

grader::TechniqueRule rule(const std::string& text) {
    const auto rules = grader::parse_technique_rules(text, "technique.txt");
    REQUIRE(rules.size() == 1);
    return rules[0];
}
const char* kHaloRule = "[04.2 2_halo_tile.cu]\ntheory Halo tiles in shared memory\n"
                        "kernel shared-store barrier shared-load-after-barrier no-global-load-after-last-barrier\n"
                        "hint Load the tile into shared memory.\n";

grader::KernelsRan ran(const std::vector<std::pair<std::vector<std::string>, int>>& sets) {
    grader::KernelsRan r;
    for (const auto& [kernels, calls] : sets)
        for (int i = 0; i < calls; ++i) r.add_call(kernels);
    r.recorded = true;
    return r;
}

}  // namespace

TEST_CASE("every timed call ran a kernel with the technique: the rule holds, whatever else the file compiled") {
    const std::vector<grader::SassFunction> sass = {tiled(), naive()};
    CHECK(grader::check_ran_kernels(rule(kHaloRule), sass, ran({{{kTiled}, 24}})) == "");
    // A kernel that is not the file's (a library's, the grader's) is passed over.
    CHECK(grader::check_ran_kernels(rule(kHaloRule), sass, ran({{{kTiled, "_Z13cub_scan_kernv"}, 24}})) == "");
    // An unusual but correct launcher: two tiled kernels, chosen by the image's size.
    const std::vector<grader::SassFunction> two = {tiled(), tiled(kTiled16), naive()};
    CHECK(grader::check_ran_kernels(rule(kHaloRule), two, ran({{{kTiled}, 20}, {{kTiled16}, 4}})) == "");
}

TEST_CASE("the technique on the first call only, or only at sizes the timing never reaches: the calls that lack it are named") {
    const std::vector<grader::SassFunction> sass = {tiled(), naive()};
    const std::string m = grader::check_ran_kernels(rule(kHaloRule), sass, ran({{{kTiled}, 3}, {{kNaive}, 21}}));
    // Without a barrier, what comes after one says nothing more.
    CHECK(m == "in 21 of 24 timed calls only conv_untiled_kernel of 2_halo_tile.cu ran, which stores nothing to shared "
               "memory and has no block-wide barrier (__syncthreads)");
    CHECK(grader::check_ran_kernels(rule(kHaloRule), sass, ran({{{kNaive}, 24}})).rfind("in 24 of 24 timed calls only", 0) == 0);
}

TEST_CASE("a call that ran no kernel of the file is a finding of its own, and says what did run") {
    const std::vector<grader::SassFunction> sass = {tiled(), naive()};
    CHECK(grader::check_ran_kernels(rule(kHaloRule), sass, ran({{{kTiled}, 20}, {{"_Z13cub_scan_kernv"}, 4}})) ==
          "in 4 of 24 timed calls no kernel of 2_halo_tile.cu ran (only cub_scan_kern did)");
    CHECK(grader::check_ran_kernels(rule(kHaloRule), sass, ran({{{}, 24}})) ==
          "in 24 of 24 timed calls no kernel of 2_halo_tile.cu ran (no kernel ran at all)");
}

TEST_CASE("several kernels of the file in one call: the closest is named; sets are listed by how many calls ran them") {
    const std::string kOther = "_ZN12_GLOBAL__N_112token_kernelEPKfPfiii";
    // A shared store and a barrier, but every tap still a global load after it.
    const grader::SassFunction token = function(kOther, {"STS [R4], R0", "BAR.SYNC.DEFER_BLOCKING 0x0", "LDS R5, [R4]",
                                                         "LDG.E R0, desc[UR4][R2.64]", "STG.E desc[UR4][R6.64], R5"});
    const std::vector<grader::SassFunction> sass = {tiled(), naive(), token};
    const std::string m = grader::check_ran_kernels(rule(kHaloRule), sass, ran({{{kNaive}, 2}, {{kNaive, kOther}, 22}}));
    CHECK(m == "in 22 of 24 timed calls only conv_untiled_kernel and token_kernel of 2_halo_tile.cu ran, and none has it "
               "all: token_kernel, the closest, still loads from global memory after its last barrier; in 2 of 24 timed "
               "calls only conv_untiled_kernel of 2_halo_tile.cu ran, which stores nothing to shared memory and has no "
               "block-wide barrier (__syncthreads)");
}

TEST_CASE("more than three sets that lack it: the three most frequent, and a count of the rest") {
    std::vector<grader::SassFunction> sass;
    std::vector<std::pair<std::vector<std::string>, int>> sets;
    for (int i = 0; i < 5; ++i) {
        const std::string name = "_Z7naive_" + std::to_string(i) + "v";
        sass.push_back(naive(name));
        sets.push_back({{name}, i + 1});
    }
    const std::string m = grader::check_ran_kernels(rule(kHaloRule), sass, ran(sets));
    CHECK(m.rfind("in 5 of 15 timed calls only naive_4 of", 0) == 0);
    CHECK(m.find("; and 2 more sets of kernels that lack it, in 3 calls") != std::string::npos);
}

TEST_CASE("every-kernel rules judge the kernels that ran, not every kernel compiled") {
    const char* kUnrolled = "[06.6 step6_complete_unrolling.cu]\ntheory Step 6\nevery-kernel no-barrier-in-loop\n";
    // A barrier inside a loop (a backward branch over it), and a kernel without one.
    const grader::SassFunction loop = function("_Z9tree_loopPf", {"LDS R0, [R2]", "BAR.SYNC.DEFER_BLOCKING 0x0", "@P0 BRA @L0"});
    const grader::SassFunction flat = function("_Z9tree_flatPf", {"LDS R0, [R2]", "BAR.SYNC.DEFER_BLOCKING 0x0", "LDS R1, [R2]"});
    const std::vector<grader::SassFunction> sass = {loop, flat};
    // The looped kernel compiled but never timed: no finding any more.
    CHECK(grader::check_ran_kernels(rule(kUnrolled), sass, ran({{{"_Z9tree_flatPf"}, 24}})) == "");
    CHECK(grader::check_ran_kernels(rule(kUnrolled), sass, ran({{{"_Z9tree_loopPf"}, 24}})) ==
          "in 24 of 24 timed calls only tree_loop of step6_complete_unrolling.cu ran, which waits at a block-wide barrier "
          "inside a loop");
    CHECK(grader::check_ran_kernels(rule(kUnrolled), sass, ran({{{"_Z9tree_flatPf", "_Z9tree_loopPf"}, 24}})) ==
          "in 24 of 24 timed calls only tree_flat and tree_loop of step6_complete_unrolling.cu ran, and tree_loop waits at "
          "a block-wide barrier inside a loop");
}

TEST_CASE("alternatives: the one kernel that ran is told what it lacks of each") {
    const char* kSkew = "[05.3 3_skew_resistant.cu]\ntheory Skewed inputs\nkernel lane-indexed-shared-atomic\nkernel match-any\n";
    const grader::SassFunction plain = function("_Z5plainPj", {"ATOMS.POPC.INC.32 RZ, [R3]"});
    const grader::SassFunction matched = function("_Z7matchedPj", {"MATCH.ANY R4, R2", "ATOMS.POPC.INC.32 RZ, [R3]"});
    const std::vector<grader::SassFunction> sass = {plain, matched};
    CHECK(grader::check_ran_kernels(rule(kSkew), sass, ran({{{"_Z7matchedPj"}, 9}})) == "");
    CHECK(grader::check_ran_kernels(rule(kSkew), sass, ran({{{"_Z5plainPj"}, 9}})) ==
          "in 9 of 9 timed calls only plain of 3_skew_resistant.cu ran, which has no shared-memory atomic at an address "
          "that depends on the lane and calls no __match_any_sync");
}

TEST_CASE("a kernel compiled for several architectures: any version shows a kernel's trait, each must show an every-kernel trait") {
    const grader::SassFunction with = tiled(kTiled, "sm_90");
    const grader::SassFunction without = function(kTiled, {"LDG.E R0, desc[UR4][R2.64]", "STG.E desc[UR4][R6.64], R0"}, "sm_75");
    CHECK(grader::check_ran_kernels(rule(kHaloRule), {with, without}, ran({{{kTiled}, 5}})) == "");
    const char* kNoLoop = "[06.6 f.cu]\ntheory S\nevery-kernel no-barrier-in-loop\n";
    const grader::SassFunction looped = function(kTiled, {"BAR.SYNC.DEFER_BLOCKING 0x0", "@P0 BRA @L0"}, "sm_75");
    CHECK(grader::check_ran_kernels(rule(kNoLoop), {with, looped}, ran({{{kTiled}, 5}})) != "");
}

TEST_CASE("the verdict: judged on what ran where it was recorded, else on every compiled kernel, and said so") {
    grader::TechniqueReport report;
    report.exercises = {"04.2"};
    report.checked.push_back({rule(kHaloRule), {tiled(), naive()}, "read theory.md, section \"Halo tiles in shared memory\""});
    const auto pass = [] {
        grader::Verdict v;
        v.exercise = "04.2 halo tiles in shared memory", v.verdict = "PASS", v.message = "1200 GB/s, needs >= 900";
        v.note = "the threshold overlaps";
        return v;
    };
    SUBCASE("recorded: the calls that lack the technique fail it") {
        grader::Verdict v = pass();
        const grader::TechniqueJudgement j = grader::judge_technique(report, ran({{{kTiled}, 1}, {{kNaive}, 23}}), v);
        CHECK(j.read == "ran");
        CHECK(j.changed);
        CHECK(v.verdict == "FAIL");
        CHECK(v.reason == grader::Reason::technique);
        CHECK(v.message == "correct, but not with this exercise's technique: in 23 of 24 timed calls only conv_untiled_kernel of "
                           "2_halo_tile.cu ran, which stores nothing to shared memory and has no block-wide barrier "
                           "(__syncthreads) (it passed as run: 1200 GB/s, needs >= 900)");
        CHECK(v.hint == "Load the tile into shared memory.");
        CHECK(v.theory == "read theory.md, section \"Halo tiles in shared memory\"");
        CHECK(v.note.empty());
    }
    SUBCASE("recorded, and every call ran the technique: the PASS stands") {
        grader::Verdict v = pass();
        const grader::TechniqueJudgement j = grader::judge_technique(report, ran({{{kTiled}, 24}}), v);
        CHECK(j.read == "ran");
        CHECK_FALSE(j.changed);
        CHECK(v.verdict == "PASS");
    }
    SUBCASE("nothing recorded: every compiled kernel is read, and the fake the calls gave away passes again") {
        grader::KernelsRan none;
        none.fail("CUPTI not found at build time");
        grader::Verdict v = pass();
        const grader::TechniqueJudgement j = grader::judge_technique(report, none, v);
        CHECK(j.read == "compiled");
        CHECK(j.fallback == "CUPTI not found at build time");
        CHECK(v.verdict == "PASS");  // the file compiled a tiled kernel: no finding on compiled code
        report.findings.push_back({"04.2", "in 2_halo_tile.cu, kernel conv_untiled_kernel stores nothing", "h", "t"});
        grader::Verdict w = pass();
        CHECK(grader::judge_technique(report, grader::KernelsRan(), w).fallback == "the exercise recorded no kernel");
        CHECK(w.verdict == "FAIL");
        CHECK(w.message.find("in 2_halo_tile.cu, kernel conv_untiled_kernel") != std::string::npos);
    }
    SUBCASE("a verdict that is no PASS, or an exercise without a checked rule, is left alone") {
        grader::Verdict slow = pass();
        slow.verdict = "FAIL", slow.reason = grader::Reason::slow;
        CHECK(grader::judge_technique(report, ran({{{kNaive}, 24}}), slow).read == "");
        CHECK(slow.reason == grader::Reason::slow);
        grader::Verdict other = pass();
        other.exercise = "04.4 as fast as you can";
        CHECK(grader::judge_technique(report, ran({{{kNaive}, 24}}), other).read == "");
        CHECK(other.verdict == "PASS");
    }
}
