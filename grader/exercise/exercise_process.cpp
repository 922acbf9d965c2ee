// SPDX-License-Identifier: MIT
// The side of a lesson program that runs exercises: started by the supervisor ("list" or
// "run" mode, with a key to seal its report) or by hand for a debugger or a profiler
// (unsupervised: it prints its own verdicts, which count for nothing).
#include "grader/exercise/exercise_process.hpp"

#include <cuda_runtime.h>
#include <doctest/doctest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <stdexcept>
#include <string>

#include "grader/common/session.hpp"
#include "grader/common/settings.hpp"
#include "grader/common/sm_limit.cuh"
#include "grader/common/timing.cuh"
#include "grader/exercise/exercise.hpp"
#include "grader/exercise/gate.hpp"
#include "grader/exercise/head_start.hpp"
#include "grader/exercise/outside_calls.hpp"

namespace grader {

namespace {

int g_exit_code = 0;  // of the exercise this process ran
// The exit code of a process whose gate closed without opening: the supervisor ran it not.
constexpr int kNotRun = 3;
int g_passed = 0, g_failed = 0, g_skipped = 0;

// The yardstick program's figures (yardsticks.hpp), gathered over the exercises it ran, and
// the exercises whose body stopped before its end (the exercise, a tab, why): a grader bug or a
// failed measurement, never the student's (no student code is linked into it).
std::vector<Yardstick>& yardsticks_measured() {
    static std::vector<Yardstick> all;
    return all;
}
std::vector<std::string>& yardstick_errors() {
    static std::vector<std::string> all;
    return all;
}

// Why --sms could not be applied in this process; "" when it was, or when none was asked. A
// function's static rather than a global std::string: a global would be constructed (emptied)
// after the start-up constructor below had written to it.
std::string& sms_failure() {
    static std::string why;
    return why;
}

// --sms (GRADER_SMS): the green context is made current in a start-up constructor that runs
// after the settings' (priority 101) and before every C++ static initializer, so before the
// first CUDA runtime call of the grader or of student code: the runtime then adopts it
// (sm_limit.cuh). A "list" process touches no GPU and makes none. A failure is kept, and
// every exercise of the process fails with it (run_exercise) rather than run on the whole GPU.
__attribute__((constructor(102))) void limit_sms_before_anything_else() {
    const Settings& s = settings();
    if (s.mode == "list" || s.sms.empty()) return;
    try {
        const int n = parse_sms(s.sms);
        bool unsupported = false;
        const std::string why = n > 0 ? limit_sms(n, &unsupported) : "";
        if (!why.empty()) sms_failure() = unsupported ? kGreenContextsNeeded + why : why;
    } catch (const std::exception& e) {  // GRADER_SMS typed by hand for an unsupervised run
        sms_failure() = e.what();
    }
}

// A process the supervisor started ahead of its turn makes its context and waits at its gate
// here (head_start.hpp). Priority 103: after the settings (101) and the green context of
// --sms (102), before every C++ static initializer, those of the submission's files
// included, so no code of the submission runs before the gate opens.
// Then, in every process that runs exercises, the threads alive are recorded as the grader's
// and the driver's (outside_calls.hpp): the context is made first where the gate did not make
// it, so that the driver's threads exist by then, and a thread that a static initializer of
// the submission starts afterwards is seen as the submission's.
__attribute__((constructor(103))) void wait_for_the_supervisor() {
    if (settings().mode == "list") return;
    if (settings().mode == "run" && !wait_at_gate()) _exit(kNotRun);
    // The yardstick program waits likewise, from before the ceilings are measured, and then
    // learns them and its exercises (settle_yardstick_job); no student code is linked into it.
    // On a GPU in exclusive-process mode it makes no context before its gate opens: the
    // supervisor's, which checks the GPU and measures the ceilings meanwhile, is the only one
    // allowed (asking the mode makes none).
    if (settings().yardstick_run() && !settings().job.empty()) {
        int mode = cudaComputeModeDefault;
        if (cudaDeviceGetAttribute(&mode, cudaDevAttrComputeMode, 0) != cudaSuccess) cudaGetLastError();
        if (!(wait_at_gate(mode == cudaComputeModeDefault) && settle_yardstick_job())) _exit(kNotRun);
    }
    cudaFree(nullptr);  // made already at the gate, if there was one; an error shows again later
    cudaGetLastError();
    set_launch_bracket({entering_student_code, expect_nothing_left_running, wait_until_contexts_are_made});  // timing.cuh
    entering_student_code();
}

// A copy of `from` with some fields' values replaced, the others kept as the exercise wrote them.
Report with_fields(const Report& from, const std::map<std::string, std::string>& replaced) {
    Report r;
    for (const auto& [k, v] : from.fields()) {
        const auto it = replaced.find(k);
        r.add(k, it == replaced.end() ? v : it->second);
    }
    return r;
}

void send(const Report& r) {
    const Settings& s = settings();
    std::ofstream(s.report, std::ios::binary | std::ios::trunc) << r.seal(s.key);
}

// Once its sealed report is written, a process the supervisor started ends at once, with the
// exit code it would have returned: no static destructor or exit handler runs, the
// submission's among them (nothing of it runs after its last call), and none of the teardown
// of the CUDA runtime, cuBLAS and CUPTI, which the supervisor waits for before the next
// exercise starts. The driver still releases the context as the process ends. Under
// compute-sanitizer the process exits normally: the tool reports as it ends.
void end_after_report(int code) {
    if (!settings().sanitizer.empty()) return;
    std::fflush(nullptr);
    _exit(code);
}

// The settings the exercise ran with, as this process holds them: the supervisor compares
// them with what it passed, so a change made from inside the process is seen.
void add_echo(Report& r) {
    const Settings& s = settings();
    r.add("echo_seed", s.seed).add("echo_ceilings", s.ceilings).add("echo_threshold_scale", s.threshold_scale);
    r.add("echo_sanitizer", s.sanitizer).add("echo_sms", s.sms).add("echo_trace", s.trace);
    r.add("echo_yardsticks", s.yardsticks);
}

int list_exercises() {
    Report r;
    r.add("kind", "list").add("lesson", lesson().number).add("title", lesson().title).add("theory", lesson().theory);
    for (const std::string& name : exercise_names()) r.add("exercise", name);
    for (const std::string& c : lesson().ceilings) r.add("ceiling", c);
    add_echo(r);
    send(r);
    return 0;
}

// Runs the exercises the supervisor named (GRADER_EXERCISE: one, or a comma-separated list),
// with doctest's own output kept to failures.
void run_named_exercises(int argc, char** argv) {
    doctest::Context context(argc, argv);
    context.setOption("test-case", settings().exercise.c_str());
    context.setOption("minimal", true);
    context.setOption("no-intro", true);
    context.setOption("no-version", true);
    context.run();
}

int run_one(int argc, char** argv) {
    run_named_exercises(argc, argv);
    return g_exit_code;
}

// The yardstick program (built without the student's object): every exercise the supervisor
// named, in order, with the student's side switched off; one sealed report of every figure.
int run_yardsticks(int argc, char** argv) {
    run_named_exercises(argc, argv);
    Report r;
    r.add("kind", "yardsticks").add("lesson", lesson().number);
    r.add("yardsticks", yardsticks_to_text(yardsticks_measured()));
    for (const std::string& e : yardstick_errors()) r.add("yardstick_error", e);
    add_echo(r);
    send(r);
    end_after_report(0);
    return 0;
}

int run_unsupervised(int argc, char** argv) {
    std::printf("unsupervised run (for debuggers, profilers and compute-sanitizer by hand): the verdicts that count\n"
                "come from `meson test`, which runs each exercise in a process of its own\n");
    const std::string why = gpu_unusable_reason();
    if (!why.empty()) {
        std::printf("SKIP: %s\n", why.c_str());
        return 77;
    }
    if (!sms_failure().empty()) {
        std::printf("FAIL: %s\n", sms_failure().c_str());
        return 1;
    }
    const GpuInfo& g = gpu();
    const std::string sms = g.sms_limited ? " · " + std::to_string(g.sms) + " of " + std::to_string(g.sms_total) +
                                                " SMs (green context)"
                                          : "";
    std::printf("== lesson %s · seed %llu · %s · %s%s\n", lesson().number.c_str(), static_cast<unsigned long long>(seed()),
                g.name.c_str(), g.arch().c_str(), sms.c_str());
    if (!sanitizer_mode()) std::printf("   ceilings measured now: %s\n", ceilings().to_text().c_str());
    std::fflush(stdout);
    doctest::Context context(argc, argv);
    context.setOption("minimal", true);
    context.setOption("no-version", true);
    context.run();
    std::printf("== %d passed, %d failed, %d skipped\n", g_passed, g_failed, g_skipped);
    return g_failed ? 1 : (g_passed == 0 ? 77 : 0);
}

}  // namespace

void run_exercise(const char* name, void (*body)(Exercise&)) {
    Exercise ex(name);
    if (sms_failure().empty()) ex.execute(body);
    else ex.execute([](Exercise&) { throw std::runtime_error(sms_failure()); });
    Verdict v = ex.verdict();
    if (settings().yardstick_run()) {
        // A SKIP (a feature this GPU lacks, a teaching table) measured nothing the exercise
        // will ask for: its own process skips likewise, or asks and fails naming the figure.
        auto& all = yardsticks_measured();
        all.insert(all.end(), ex.yardsticks().begin(), ex.yardsticks().end());
        // Work that left the --sms partition measured the whole GPU: not this run's figures.
        const std::string left = sm_limit_left();
        if (v.verdict == "FAIL") yardstick_errors().push_back(std::string(name) + "\t" + v.message);
        else if (!left.empty()) yardstick_errors().push_back(std::string(name) + "\t" + left);
        return;
    }
    Report r = ex.report();
    // Work that left the --sms partition (sm_limit.cuh) measured the whole GPU: whatever it
    // gave, the exercise fails, as when a setting is changed inside the process.
    if (const std::string left = sm_limit_left(); !left.empty()) {
        v.verdict = "FAIL", v.reason = Reason::crash, v.message = left, v.hint = "", v.note = "";
        r = with_fields(r, {{"verdict", v.verdict}, {"reason", to_string(v.reason)}, {"message", left}, {"hint", ""}, {"note", ""}});
    }
    g_exit_code = v.verdict == "SKIP" ? 77 : v.verdict == "FAIL" ? 1 : 0;
    if (settings().supervised()) {
        add_echo(r);
        send(r);
        end_after_report(g_exit_code);
        return;
    }
    if (v.verdict == "PASS") ++g_passed;
    if (v.verdict == "FAIL") ++g_failed;
    if (v.verdict == "SKIP") ++g_skipped;
    std::fputs(verdict_lines(v).c_str(), stdout);
    std::fflush(stdout);
}

int lesson_main(int argc, char** argv) {
    const Settings& s = settings();
    if (s.mode == "list") return list_exercises();
    if (s.mode == "run") return run_one(argc, argv);
    if (s.yardstick_run()) return run_yardsticks(argc, argv);
    return run_unsupervised(argc, argv);
}

}  // namespace grader
