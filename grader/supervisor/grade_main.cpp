// SPDX-License-Identifier: MIT
// `grade`: the supervisor every lesson test runs. It holds no student code. It reads the
// student's files for what the lesson does not allow (policy.hpp), builds the lesson
// program, checks the GPU (exit 77 = SKIP when there is none), measures the ceilings once,
// starts the lesson program once per exercise (supervisor.hpp), prints the verdicts, writes
// the results file (results.hpp) and sets the exit code (a known-bad variant's test: expectation.hpp).
#include <cuda_runtime.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <future>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "grader/common/ceilings.hpp"
#include "grader/common/gpu.cuh"
#include "grader/common/results.hpp"
#include "grader/common/session.hpp"
#include "grader/common/settings.hpp"
#include "grader/common/sm_limit.cuh"
#include "grader/common/text_file.hpp"
#include "grader/common/wildcard.hpp"
#include "grader/supervisor/expectation.hpp"
#include "grader/supervisor/policy.hpp"
#include "grader/supervisor/supervisor.hpp"
#include "grader/supervisor/technique.hpp"
#include "grader/supervisor/technique_ran.hpp"

namespace {

constexpr int kSkip = grader::kSkipExit;

void print_help() {
    std::printf(
        "usage: grade [options] LESSON_PROGRAM        (Meson's tests call it; add options with --test-args)\n"
        "  @FILE               more arguments, one a line, from FILE (each Meson test names build/TEST.args)\n"
        "  -tc=PATTERNS        run only the exercises whose names match (e.g. -tc='01.2*'; * and ?, commas)\n"
        "  -tce=PATTERNS       leave out the exercises whose names match\n"
        "  --list              list the exercises and stop\n"
        "  --seed=N            reproduce a run's inputs (each run prints its seed)\n"
        "  --timeout=S         seconds one exercise may take before it counts as a hang (default 180)\n"
        "  --expect-reject=R   a known-bad variant's test: pass only if each exercise is rejected for a\n"
        "                      reason in R (wrong,bounds,fault,slow,impossible,untimed,hang,crash);\n"
        "                      policy: the policy check stops the lesson before its build;\n"
        "                      compile: the build fails (a variant that links to grader code)\n"
        "  --name=, --submission=, --revision=   recorded in the results file (Meson sets them)\n"
        "  --report-tool=PATH  tools/report.py, named under the results line so students find it\n"
        "  --fail=MESSAGE, --skip=MESSAGE         stand in for a test that cannot run (e.g. a missing tool)\n"
        "  --build=DIR --target=T                 build the lesson program first (ninja -C DIR T): a compile\n"
        "                      error fails this lesson only, with the compiler's first errors\n"
        "  --yardsticks=T      the lesson's student-free yardstick program (DIR/T with --build, built with it):\n"
        "                      every baseline a threshold rests on is timed there, once, before any exercise runs\n"
        "  --missing=FILES     files the submission lacked when the build was configured: checked again\n"
        "  --kernels=FILES --policy=FILES         before the build, check the student's files (relative to\n"
        "                      --submission, or absolute) against the policy files' rules (grader/supervisor/policy.hpp)\n"
        "  --theory=PAGE       the lesson's theory page, named under a policy failure\n"
        "  --thresholds=FILE   the lesson's declared thresholds: the supervisor recomputes every speed verdict\n"
        "  --technique=FILE    the lesson's mechanism checks: a PASS also needs the technique in the compiled\n"
        "                      kernels (grader/supervisor/technique.hpp); --replaces=FILE=PATH: a known-bad PATH stands for FILE;\n"
        "                      --technique-from-ran: a known-bad variant whose fake only the kernels its timed calls\n"
        "                      ran give away (SKIP where they were not recorded)\n"
        "  --threshold-scale=X --results-dir=DIR --sanitizer=TOOL --sanitizer-path=PATH\n"
        "                      as the variables GRADER_THRESHOLD_SCALE (instructor knob, 1 = as shipped),\n"
        "                      GRADER_RESULTS_DIR, GRADER_SANITIZER (memcheck, racecheck), GRADER_SANITIZER_PATH;\n"
        "                      an option typed here beats the variable, which beats the option in an @FILE\n"
        "  --sms=N             grade as on a GPU of N SMs: every kernel of the run, the ceilings' too, runs on N\n"
        "                      of this GPU's SMs (a green context; CUDA driver and toolkit 12.4+); all = every SM;\n"
        "                      as the variable GRADER_SMS, in the same order (docs/thresholds.md, Other GPU shapes)\n"
        "environment: those five variables, and GRADER_TIMEOUT (--timeout beats it)\n"
        "Run the lesson program itself (build/lesson01 -tc='01.1*') for cuda-gdb, ncu or compute-sanitizer:\n"
        "it then runs the exercises in one process and its verdicts count for nothing.\n");
}

struct Options {
    std::string program, name, seed, submission, revision, fail, skip, report_tool;
    std::string build, target;          ///< build the program first: `ninja -C build target`
    std::string yardsticks;             ///< the yardstick program: a target of `build`, or a path
    std::vector<std::string> missing;   ///< files the submission lacked at configure time
    std::vector<std::string> kernels;   ///< the student's files of the lesson, for the policy check
    std::vector<std::string> policy;    ///< the policy files: lessons/policy.txt and the lesson's own
    std::string theory;                 ///< the lesson's theory page
    std::string thresholds;             ///< the lesson's thresholds.txt (declared_thresholds.hpp)
    std::vector<std::string> technique_args;  ///< --technique=, --replaces= as given: the mechanism check's block reads them
    bool technique_from_ran = false;    ///< --technique-from-ran: a known-bad variant only the kernels that ran reject
    grader::Expectation expect;         ///< --expect-reject: a known-bad variant's test (expectation.hpp)
    std::vector<std::string> include, exclude;
    int timeout_s = 0;
    bool list = false;
    /// Options that are also GRADER_* variables (grader::Layered says which value wins).
    grader::Layered threshold_scale, results_dir, sanitizer, sanitizer_path, sms;
};

// True when `arg` starts with `prefix`; the rest goes to `value`.
bool option(const std::string& arg, const char* prefix, std::string& value) {
    if (arg.rfind(prefix, 0) != 0) return false;
    value = arg.substr(std::string(prefix).size());
    return true;
}

// Which of the options that are also GRADER_* variables `a` gives (its value to `value`), or nullptr.
grader::Layered* layered_option(Options& o, const std::string& a, std::string& value) {
    if (option(a, "--threshold-scale=", value)) return &o.threshold_scale;
    if (option(a, "--results-dir=", value)) return &o.results_dir;
    if (option(a, "--sanitizer=", value)) return &o.sanitizer;
    if (option(a, "--sanitizer-path=", value)) return &o.sanitizer_path;
    if (option(a, "--sms=", value)) return &o.sms;
    return nullptr;
}

Options parse(const std::vector<grader::Argument>& args) {
    Options o;
    for (const grader::Argument& arg : args) {
        const std::string& a = arg.text;
        std::string v;
        if (grader::Layered* l = layered_option(o, a, v)) {
            (arg.from_file ? l->from_file : l->typed) = v;
        } else if (option(a, "-tc=", v) || option(a, "--test-case=", v)) {
            o.include.push_back(v);
        } else if (option(a, "-tce=", v) || option(a, "--test-case-exclude=", v)) {
            o.exclude.push_back(v);
        } else if (option(a, "--seed=", v)) {
            o.seed = std::to_string(grader::parse_seed(v));
        } else if (option(a, "--timeout=", v)) {
            o.timeout_s = std::atoi(v.c_str());
            if (o.timeout_s <= 0) throw std::invalid_argument("--timeout takes seconds, e.g. --timeout=300");
        } else if (option(a, "--expect-reject=", v)) {
            o.expect = grader::Expectation::parse(v);
        } else if (option(a, "--name=", v)) {
            o.name = v;
        } else if (option(a, "--submission=", v)) {
            o.submission = v;
        } else if (option(a, "--revision=", v)) {
            o.revision = v;
        } else if (option(a, "--report-tool=", v)) {
            o.report_tool = v;
        } else if (option(a, "--build=", v)) {
            o.build = v;
        } else if (option(a, "--target=", v)) {
            o.target = v;
        } else if (option(a, "--yardsticks=", v)) {
            o.yardsticks = v;
        } else if (option(a, "--missing=", v)) {
            o.missing = grader::split_commas(v);
        } else if (option(a, "--kernels=", v)) {
            o.kernels = grader::split_commas(v);
        } else if (option(a, "--policy=", v)) {
            o.policy = grader::split_commas(v);
        } else if (option(a, "--theory=", v)) {
            o.theory = v;
        } else if (option(a, "--thresholds=", v)) {
            o.thresholds = v;
        } else if (option(a, "--technique=", v) || option(a, "--replaces=", v)) {
            o.technique_args.push_back(a);  // mechanism check
        } else if (a == "--technique-from-ran") {
            o.technique_from_ran = true;  // mechanism check
        } else if (option(a, "--fail=", v)) {
            o.fail = v;
        } else if (option(a, "--skip=", v)) {
            o.skip = v;
        } else if (a == "--list" || a == "--list-test-cases" || a == "-ltc") {
            o.list = true;
        } else if (a == "-h" || a == "--help") {
            throw std::invalid_argument("");
        } else if (a.rfind("-", 0) != 0 && o.program.empty()) {
            o.program = a;
        } else {
            throw std::invalid_argument("unknown option '" + a + "'");
        }
    }
    if (o.program.empty() && !o.build.empty() && !o.target.empty()) o.program = o.build + "/" + o.target;
    if (o.program.empty() && o.fail.empty() && o.skip.empty()) throw std::invalid_argument("no lesson program given");
    if (o.name.empty()) o.name = o.program.substr(o.program.find_last_of('/') + 1);
    return o;
}

// The instructor's scale ("1" when none is given): an option or GRADER_THRESHOLD_SCALE,
// checked here once; the error names the one given.
std::string threshold_scale(const Options& o) {
    bool from_variable = false;
    std::string text = o.threshold_scale.value(grader::settings().threshold_scale, &from_variable);
    if (text.empty()) text = "1";
    try {
        grader::parse_scale(text);
    } catch (const std::invalid_argument& e) {
        if (from_variable) throw;
        const std::string why = e.what();  // "GRADER_THRESHOLD_SCALE='…' is not …"
        throw std::invalid_argument("--threshold-scale=" + why.substr(why.find('=') + 1));
    }
    return text;
}

// The SM count to confine the run to, 0 for the whole GPU: --sms or GRADER_SMS, checked here
// once; the error names the one given.
int sms_count(const Options& o) {
    bool from_variable = false;
    const std::string text = o.sms.value(grader::settings().sms, &from_variable);
    try {
        return grader::parse_sms(text);
    } catch (const std::invalid_argument& e) {
        if (from_variable) throw;
        const std::string why = e.what();  // "GRADER_SMS='…' is not …"
        throw std::invalid_argument("--sms=" + why.substr(why.find('=') + 1));
    }
}

void print_lines(const grader::Decision& d) {
    for (const std::string& line : d.lines) std::printf("%s\n", line.c_str());
}

int finish(grader::RunResult& r, int rc, const std::chrono::steady_clock::time_point& t0, const Options& o) {
    r.exit_code = rc;
    r.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const std::string results_dir = o.results_dir.value(grader::settings().results_dir);
    const std::string dir = results_dir.empty() ? "results" : results_dir;
    mkdir(dir.c_str(), 0755);
    // A sanitizer run is another outcome of the same test: its own file, not the timed run's.
    const std::string path = dir + "/" + r.test + (r.sanitizer.empty() ? "" : "." + r.sanitizer) + ".json";
    std::ofstream f(path);
    f << grader::results_json(r);
    std::printf("results: %s\n", f ? path.c_str() : ("could not write " + path).c_str());
    // The build folder holds the results folder: the report charts every lesson run in it.
    if (f && r.status == "graded" && r.expect_reject.empty() && !o.report_tool.empty()) {
        const std::string build = dir.find('/') == std::string::npos ? "." : dir.substr(0, dir.find_last_of('/'));
        std::printf("charts of your results on this GPU: python3 %s %s\n", o.report_tool.c_str(), build.c_str());
    }
    return rc;
}

// Runs a command, returns its exit status and its output (stdout and stderr together).
int capture(const std::string& command, std::string& output) {
    FILE* p = popen((command + " 2>&1").c_str(), "r");
    if (!p) return -1;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0) output.append(buf, n);
    const int status = pclose(p);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string quoted(const std::string& s) {
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

// The compiler's first error lines (nvcc: "file.cu(12): error: …", gcc: "file.cpp:12:5: error: …"),
// with the line after each, at most `most` lines; the last lines of the output when none matches.
std::string first_errors(const std::string& output, size_t most = 10) {
    std::stringstream ss(output);
    std::string line, out;
    std::vector<std::string> all;
    while (std::getline(ss, line)) all.push_back(line);
    size_t shown = 0;
    for (size_t i = 0; i < all.size() && shown < most; ++i)
        if (all[i].find("error") != std::string::npos && all[i].rfind("ninja:", 0) != 0 && all[i].rfind("FAILED", 0) != 0) {
            out += "\n      " + all[i], ++shown;
            // The compiler's next line quotes the source; Ninja's progress lines are not the compiler's.
            if (i + 1 < all.size() && shown < most && all[i + 1].rfind("[", 0) != 0 && all[i + 1].rfind("FAILED", 0) != 0)
                out += "\n      " + all[++i], ++shown;
        }
    if (out.empty())
        for (size_t i = all.size() > most ? all.size() - most : 0; i < all.size(); ++i) out += "\n      " + all[i];
    return out;
}

// Builds the lesson program, so that one lesson's compile error fails that lesson only (Meson
// would otherwise build every test's program before running any). Returns "" or the errors.
std::string build_program(const Options& o) {
    std::string output;
    const int rc = capture("ninja -C " + quoted(o.build) + " " + quoted(o.target) +
                               (o.yardsticks.empty() ? "" : " " + quoted(o.yardsticks)), output);
    return rc == 0 ? "" : first_errors(output);
}

// The policy check (grader/supervisor/policy.hpp): the findings in the student's files of the lesson,
// against the rules of every policy file given.
std::vector<grader::PolicyFinding> policy_findings(const Options& o) {
    std::vector<grader::PolicyRule> rules;
    for (const std::string& file : o.policy) {
        std::string text, why;
        if (!grader::read_text_file(file, text, &why)) throw std::runtime_error("cannot read the policy file " + file + ": " + why);
        const std::vector<grader::PolicyRule> more = grader::parse_policy(text, file);
        rules.insert(rules.end(), more.begin(), more.end());
    }
    std::vector<std::string> paths;
    for (const std::string& k : o.kernels) paths.push_back(!k.empty() && k[0] == '/' ? k : o.submission + "/" + k);
    return grader::check_files(paths, o.kernels, rules);
}

// ==== mechanism checks (issues #18, #32) ====================================================
// Where speed cannot tell whether an exercise's technique was used, the student's compiled
// kernels must show it (grader/supervisor/technique.hpp; docs/thresholds.md, "Mechanism checks"). They
// are read once, before the first exercise; a PASS without the technique becomes
// FAIL [technique]. The kernels judged are those each timed call ran, which the exercise's
// process records where it is asked to (kernels_ran.hpp, technique_ran.hpp); where it
// recorded none, every kernel compiled from the file, and the run says so. Without cuobjdump
// the check is not made and the run says so: it never fails a student for want of a tool.
// Hooks elsewhere in this file say "mechanism check".
//
// The check is host work only (cuobjdump on each object: 0.5–0.7 s a lesson on an H200's
// host). It starts once the lesson is built and runs, at a lower CPU priority, while the
// supervisor lists the exercises, makes its context and measures the ceilings and the
// exercises' processes make theirs; it is awaited before the first exercise starts, so no
// exercise shares the CPU with it (#19).

// The --technique= file, "" when none was given.
std::string technique_rules(const Options& o) {
    std::string rules, v;
    for (const std::string& a : o.technique_args)
        if (option(a, "--technique=", v)) rules = v;
    return rules;
}

// The exercises among `chosen` whose processes are to record the kernels their timed calls
// run: those the lesson's rules name (nothing is recorded for the others, which spares them
// CUPTI's start). Under compute-sanitizer too: the process then says that nothing was timed.
std::vector<std::string> traced_exercises(const Options& o, const std::vector<std::string>& chosen) {
    const std::string path = technique_rules(o);
    if (path.empty() || o.build.empty()) return {};
    std::string text, why;
    if (!grader::read_text_file(path, text, &why)) throw std::runtime_error("cannot read the technique rules " + path + ": " + why);
    std::vector<std::string> out;
    for (const grader::TechniqueRule& r : grader::parse_technique_rules(text, path))
        for (const std::string& e : chosen)
            if (grader::rule_applies(r, e) && std::find(out.begin(), out.end(), e) == out.end()) out.push_back(e);
    return out;
}

// Reads the student's compiled files of the lesson as --technique (the lesson's rules) and
// --replaces (a known-bad variant's file standing for a lesson file) ask; the report comes
// later (technique_report). An invalid future: nothing to check.
std::future<grader::TechniqueReport> start_technique_check(const Options& o) {
    std::string v;
    const std::string rules = technique_rules(o);
    std::vector<std::pair<std::string, std::string>> replaced;
    for (const std::string& a : o.technique_args)
        if (option(a, "--replaces=", v) && v.find('=') != std::string::npos)
            replaced.emplace_back(v.substr(0, v.find('=')), v.substr(v.find('=') + 1));
    if (rules.empty() || o.build.empty()) return {};  // no rules, or no build whose objects to read
    grader::TechniqueRequest q;
    q.rules = rules, q.theory = o.theory, q.cuobjdump = grader::find_cuobjdump();
    // Meson compiles the student's files of target T into the objects of libT-student.a
    // (the top-level meson.build), in the folder it keeps beside that archive.
    q.objects_dir = o.build + "/lib" + o.target + "-student.a.p";
    for (const std::string& k : o.kernels)
        q.files.emplace_back(k.substr(k.find_last_of('/') + 1), !k.empty() && k[0] == '/' ? k : o.submission + "/" + k);
    q.files.insert(q.files.end(), replaced.begin(), replaced.end());
    return std::async(std::launch::async, [q] {
        // A lower priority for this thread and what it starts (its threads and their
        // cuobjdump processes inherit it): on a small host the ceilings' launches come first.
        setpriority(PRIO_PROCESS, id_t(syscall(SYS_gettid)), 10);
        return grader::check_techniques(q);
    });
}

// The check's report, once it has ended; records in `r` whether the check was made and
// prints a note where it was not.
grader::TechniqueReport technique_report(std::future<grader::TechniqueReport>& check, grader::RunResult& r) {
    if (!check.valid()) return {};
    const grader::TechniqueReport report = check.get();  // throws what the check threw
    if (report.exercises.empty()) return report;
    r.technique_check = report.unchecked.empty() ? "checked" : "not checked: " + report.not_checked;
    if (!report.unchecked.empty()) {
        std::string which;
        for (const std::string& e : report.unchecked) which += (which.empty() ? "" : ", ") + e;
        std::printf("   note: the technique of %s was not checked (%s); those verdicts rest on correctness and speed alone\n",
                    which.c_str(), report.not_checked.c_str());
    }
    return report;
}

// One exercise's verdict with the check applied, on the kernels its timed calls ran or, where
// it recorded none, on every compiled kernel (a note says so, once per reason: `noted`). A
// known-bad variant that must be rejected for its technique cannot be judged where the
// technique was not checked, nor, for one whose fake only the kernels that ran give away
// (--technique-from-ran), where those were not recorded: SKIP, not BAD.
void technique_verdict(const grader::TechniqueReport& report, const Options& o, grader::ExerciseResult& e,
                       std::set<std::string>& noted) {
    grader::Verdict& v = e.verdict;
    const bool judged_on_technique = o.expect.reasons.count(grader::Reason::technique) > 0;
    e.technique_read.clear();
    if (v.verdict == "PASS" && report.is_unchecked(v.exercise) && judged_on_technique) {
        v.verdict = "SKIP", v.reason = grader::Reason::skipped;
        v.message = "a variant rejected for its technique cannot be judged when the technique is not checked (" +
                    report.not_checked + ")";
        return;
    }
    const grader::TechniqueJudgement j = grader::judge_technique(report, e.kernels_ran, v);
    e.technique_read = j.read;
    if (j.read != "compiled") return;
    if (v.verdict == "PASS" && judged_on_technique && o.technique_from_ran) {
        v.verdict = "SKIP", v.reason = grader::Reason::skipped;
        v.message = "this variant fakes its technique in code that its timed calls do not run: it is judged on the kernels "
                    "they ran, which were not recorded (" + j.fallback + ")";
        return;
    }
    if (noted.insert(j.fallback).second)
        std::printf("   note: the mechanism check read every kernel compiled from the exercise's file, not only the ones "
                    "its timed calls ran: %s\n", j.fallback.c_str());
}
// ==== end of mechanism checks ===============================================================

// ==== the stages of a run ===================================================================
// Each stage either lets the run go on (an empty Stop) or ends it: the lines it prints, the
// run's status for the results file (results_schema.md) and the exit code. main() runs them
// in order; the known-bad variants' decisions come from expectation.hpp.

struct Stop {
    bool stops = false;
    int rc = 0;
    std::string status, message;
    std::vector<std::string> lines;
};
Stop go_on() { return {}; }
Stop stop(int rc, const std::string& status, const std::string& message, std::vector<std::string> lines) {
    return {true, rc, status, message, std::move(lines)};
}
Stop stop(const grader::Decision& d, const std::string& status, const std::string& message) {
    return {true, d.rc, status, message, d.lines};
}

// The build's own verdict (--fail, --skip: the build was configured without the files).
Stop configured_verdict(const Options& o) {
    if (o.fail.empty() && o.skip.empty()) return go_on();
    const bool skip = o.fail.empty();
    const std::string& msg = skip ? o.skip : o.fail;
    return stop(skip ? kSkip : 1, skip ? "skipped" : "missing_files", msg,
                {std::string(skip ? "SKIP" : "FAIL") + "  " + o.name + ": " + msg});
}

// Not the student's fault: say what to install rather than run a missing program.
Stop sanitizer_present(const Options& o, const grader::ChildSettings& child) {
    if (child.sanitizer.empty() || access(grader::sanitizer_program(child).c_str(), X_OK) == 0) return go_on();
    // Both facts where both hold: installing the sanitizer alone would not make the lesson run.
    const std::string no_gpu = grader::gpu_unusable_reason();
    const std::string msg = "--setup=" + child.sanitizer + " needs compute-sanitizer, not found at " +
                            grader::sanitizer_program(child) +
                            ": install it (it comes with the full CUDA toolkit), then meson setup --reconfigure" +
                            (no_gpu.empty() ? "" : "; and it needs a GPU: " + no_gpu + " (README, \"No GPU here?\")");
    return stop(kSkip, "skipped", msg, {"SKIP  " + o.name + ": " + msg});
}

// What to do about missing files (relative to the folder graded), true wherever the grader
// runs: the folder graded is often starter/ itself, and the course may be a git clone or an
// unpacked student release.
std::string restore_advice(const std::vector<std::string>& files) {
    std::string paths;
    for (const auto& f : files) paths += " starter/" + f;
    return "put the course's own back, from the archive or folder the course came in, or in a git clone of it with "
           "`git checkout --" + paths + "`, then complete it";
}

// The student's files: one deleted since the build was configured is named (rather than
// Ninja's "missing and no known rule to make it"); files the submission lacked then and has
// now make the build reconfigure, with no `meson setup --reconfigure` needed.
Stop files_present(const Options& o) {
    std::string gone;
    std::vector<std::string> gone_files;
    for (const auto& k : o.kernels) {
        if (std::find(o.missing.begin(), o.missing.end(), k) != o.missing.end()) continue;  // missing then: below
        const std::string path = !k.empty() && k[0] == '/' ? k : o.submission + "/" + k;
        if (access(path.c_str(), F_OK) != 0) gone += (gone.empty() ? "" : ", ") + k, gone_files.push_back(k);
    }
    if (!gone.empty()) {
        const std::string msg = "missing in " + o.submission + ": " + gone + " (deleted after the build was configured? " +
                                restore_advice(gone_files) + ")";
        return stop(1, "missing_files", msg, {"FAIL  " + o.name + ": " + msg});
    }
    if (o.missing.empty()) return go_on();
    std::string still;
    std::vector<std::string> still_files;
    for (const auto& f : o.missing)
        if (access((o.submission + "/" + f).c_str(), F_OK) != 0) still += (still.empty() ? "" : ", ") + f, still_files.push_back(f);
    if (!still.empty()) {
        const std::string msg = "missing in " + o.submission + ": " + still + " (" + restore_advice(still_files) + ")";
        return stop(1, "missing_files", msg, {"FAIL  " + o.name + ": " + msg});
    }
    std::string output;
    std::printf("   the files that were missing are there now: reconfiguring the build\n");
    if (capture("ninja -C " + quoted(o.build) + " reconfigure", output) != 0)
        throw std::runtime_error("reconfiguring the build failed:" + first_errors(output));
    return go_on();
}

// Before anything of the student's is compiled or run. Like a compile error, a finding
// fails the lesson as a whole: no exercise of it runs.
Stop policy_allows(const Options& o) {
    if (o.policy.empty()) return go_on();
    const std::vector<grader::PolicyFinding> found = policy_findings(o);
    std::string lines;
    for (const std::string& line : grader::policy_report(found, 12)) lines += "\n      " + line;
    if (!found.empty()) {
        grader::Decision d = grader::rejected_before_running(
            o.expect, "policy", o.name, "your code uses what this lesson does not allow, so it was not built:", lines);
        if (!o.expect.known_bad() && !o.theory.empty())
            d.lines.push_back("      read " + o.theory + ", section \"What the grader allows\"");
        return stop(d, "policy", "uses what the lesson does not allow:" + lines);
    }
    // A variant only the policy check can reject (it would pass when run): the check must
    // find it, GPU or not.
    const grader::Decision d = grader::passed_stage(o.expect, "policy", o.name);
    if (d.lines.empty()) return go_on();
    return stop(d, "error", "the known-bad variant passed the policy check, which must reject it");
}

// A known-bad variant whose reasons only a run can show: on a machine without a GPU (CI)
// it is not worth its build, which every_arch in .ci/run compiles anyway. Not under --sms,
// whose green context must come before this process's first CUDA call.
Stop variant_can_run(const Options& o, int sms) {
    if (!o.expect.judged_by_running() || sms != 0 || o.build.empty()) return go_on();
    const std::string why = grader::gpu_unusable_reason();
    if (why.empty()) return go_on();
    const std::string msg =
        std::string(o.policy.empty() ? "" : "policy OK, ") + "not built: a known-bad variant is judged by running it; " + why;
    return stop(kSkip, "skipped", msg, {"SKIP " + o.name + ": " + msg});
}

Stop builds(const Options& o) {
    if (o.build.empty()) return go_on();
    const std::string errors = build_program(o);
    if (!errors.empty())
        return stop(grader::rejected_before_running(o.expect, "compile", o.name,
                                                    "your code did not compile; the other lessons still run:", errors),
                    "compile_error", "did not compile:" + errors);
    // A variant only the build can reject (it would pass if it linked): it must not build.
    const grader::Decision d = grader::passed_stage(o.expect, "compile", o.name);
    if (d.lines.empty()) return go_on();
    return stop(d, "error", "the known-bad variant built, which the sealed grader must prevent");
}

// --sms: the green context must be current before this process's first CUDA runtime call
// (the GPU check below), so that the runtime adopts it and the ceilings are those of the
// partition. Where it fails for want of a GPU, the GPU check says so: SKIP.
Stop gpu_usable(const Options& o, const grader::Listing& l, int sms) {
    bool sms_unsupported = false;
    const std::string sms_failed = sms > 0 ? grader::limit_sms(sms, &sms_unsupported) : "";
    std::string why = grader::gpu_unusable_reason();
    if (!why.empty()) {
        // Say what did work: a student without a GPU still learns the code builds and passes the policy.
        // Of the exercises a filter (-tc=01.2*) selects, when one is given.
        const size_t chosen = grader::filter_names(l.exercises, o.include, o.exclude).size();
        const bool filtered = !o.include.empty() || !o.exclude.empty();
        why = std::string(o.policy.empty() ? "" : "policy OK, ") + (o.build.empty() ? "" : "compiled, ") +
              std::to_string(chosen) + (filtered ? " of " + std::to_string(l.exercises.size()) : "") +
              (filtered ? " exercises selected; " : " exercises listed; ") + why +
              (why.rfind("no CUDA GPU", 0) == 0 ? " (README, \"No GPU here?\")" : "");
        return stop(kSkip, "skipped", why, {"SKIP " + o.name + ": " + why});
    }
    if (sms_failed.empty()) return go_on();
    const std::string msg = sms_unsupported ? grader::kGreenContextsNeeded + sms_failed : sms_failed;
    return stop(1, "error", msg, {"FAIL " + o.name + ": " + msg});
}

// Prints the run's header and measures the ceilings (not under compute-sanitizer: no timing).
void measure(const Options& o, grader::RunResult& r, grader::ChildSettings& child, const grader::Listing& l, int sms) {
    r.has_gpu = true, r.gpu = grader::gpu();
    child.l2_bytes = double(r.gpu.l2_bytes);
    // A GPU in exclusive-process mode (common on clusters) lets one process hold a context:
    // there an exercise's process cannot make its context while the one before it runs.
    int mode = cudaComputeModeDefault;
    if (cudaDeviceGetAttribute(&mode, cudaDevAttrComputeMode, 0) == cudaSuccess) child.head_start = mode == cudaComputeModeDefault;
    if (!o.thresholds.empty()) {
        std::string text, why;
        if (!grader::read_text_file(o.thresholds, text, &why))
            throw std::runtime_error("cannot read the thresholds file " + o.thresholds + ": " + why);
        child.declared = grader::parse_declared(text, o.thresholds);
    }
    std::printf("== %s · seed %s (same inputs again: --test-args='--seed=%s') · threshold scale %.2f\n", o.name.c_str(),
                child.seed.c_str(), child.seed.c_str(), r.threshold_scale);
    const std::string sms_text = r.gpu.sms_limited ? std::to_string(r.gpu.sms) + " of " + std::to_string(r.gpu.sms_total) +
                                                         " SMs (green context)"
                                                   : std::to_string(r.gpu.sms) + " SMs";
    std::printf("   GPU  %s · %s · %s · L2 %.0f MiB · %.1f GiB\n", r.gpu.name.c_str(), r.gpu.arch().c_str(), sms_text.c_str(),
                r.gpu.l2_bytes / 1048576.0, r.gpu.global_bytes / 1073741824.0);
    if (r.gpu.sms_limited && r.gpu.sms != sms)
        std::printf("   --sms=%d: the driver splits this GPU's SMs off in steps; the nearest count it gave is %d\n", sms,
                    r.gpu.sms);
    if (!child.sanitizer.empty()) {
        std::printf("   under compute-sanitizer (%s): correctness only, no timing\n", child.sanitizer.c_str());
    } else {
        r.ceilings = grader::measure_ceilings(r.gpu, l.ceilings);
        size_t free_b = 0, total_b = 0;
        if (cudaMemGetInfo(&free_b, &total_b) == cudaSuccess) r.ceilings.set(grader::ceiling::timing_free_bytes, double(free_b));
        child.ceilings = r.ceilings.to_text();
        std::string line;
        for (const auto& m : grader::ceiling_measurers())
            if (r.ceilings.has(m.key)) {
                char buf[128];
                std::snprintf(buf, sizeof buf, "%s%s %.0f %s", line.empty() ? "" : " · ", m.what, r.ceilings.get(m.key), m.unit);
                line += buf;
            }
        std::printf("   ceilings measured now: %s\n", line.c_str());
        // A partition keeps the whole GPU's DRAM: say how far that is from a real GPU of its size.
        if (r.gpu.sms_limited && r.ceilings.has(grader::ceiling::dram_gbs))
            std::printf("   emulated shape: %d SMs with all of this GPU's DRAM, %.0f GB/s per SM (%.1f x the whole GPU's);"
                        " memory-bound figures may sit closer to their lines than on a real GPU of %d SMs"
                        " (docs/thresholds.md, \"Other GPU shapes\")\n",
                        r.gpu.sms, r.ceilings.get(grader::ceiling::dram_gbs) / r.gpu.sms,
                        double(r.gpu.sms_total) / r.gpu.sms, r.gpu.sms);
    }
    std::fflush(stdout);
    // Each exercise gets the GPU in its own process, with no context of ours on it. The
    // green context of --sms goes first: cudaDeviceReset() refuses while it is current
    // (cudaErrorNotPermitted, seen on an H200 with driver 580).
    if (r.gpu.sms_limited) {
        const std::string failed = grader::release_sms_limit();
        if (!failed.empty()) std::printf("   note: releasing the green context of --sms: %s\n", failed.c_str());
    }
    cudaDeviceReset();
}

// Each chosen exercise in a process of its own, its verdict printed as it comes.
// The baselines of the chosen exercises, timed once in the student-free yardstick program
// (yardsticks.hpp): after the ceilings, before any process of the student's is started (the
// queue below starts them), so nothing of the submission shares the GPU with them. Not under
// compute-sanitizer, where nothing is timed. Returns the exercises whose measurement failed.
std::map<std::string, std::string> measure_yardsticks(grader::ChildSettings& child, const std::vector<std::string>& chosen,
                                                      grader::YardstickProgram& yardsticks) {
    if (!child.sanitizer.empty()) return {};
    const grader::YardstickRun y = yardsticks.run(child, chosen);
    if (!y.error.empty()) {
        std::map<std::string, std::string> all;
        for (const std::string& e : chosen)
            all[e] = "the run's measurement failed, not the submission: the yardstick program " +
                     (child.yardstick_program.empty() ? std::string() : child.yardstick_program + " ") + y.error;
        return all;
    }
    child.measured = y.figures;
    child.yardsticks = grader::yardsticks_to_text(y.figures);
    if (!y.figures.empty()) std::printf("   yardsticks measured now, in a process without the submission:\n");
    for (const grader::Yardstick& f : y.figures) {
        if (f.is_baseline())
            std::printf("      %s · %s: %.4g ms, %.0f %s\n", f.exercise.c_str(), f.name.c_str(), f.value, f.work.figure(f.value),
                        f.work.unit());
        else
            std::printf("      %s · %s: %.6g\n", f.exercise.c_str(), f.name.c_str(), f.value);
    }
    std::fflush(stdout);
    return y.failed;
}

void run_exercises(const Options& o, grader::RunResult& r, grader::ChildSettings& child, const grader::Listing& l,
                   const std::vector<std::string>& chosen, std::future<grader::TechniqueReport>& check,
                   grader::YardstickProgram& yardsticks) {
    const std::map<std::string, std::string> unmeasured = measure_yardsticks(child, chosen, yardsticks);
    std::vector<std::string> runnable;
    for (const std::string& e : chosen)
        if (!unmeasured.count(e)) runnable.push_back(e);
    grader::ExerciseQueue queue(child, runnable);  // each process starts while the one before it runs (the first: now)
    const grader::TechniqueReport technique = technique_report(check, r);  // mechanism check
    std::set<std::string> noted;                                          // mechanism check
    for (size_t i = 0; i < chosen.size(); ++i) {
        const auto failed = unmeasured.find(chosen[i]);
        grader::ExerciseResult e;
        if (failed == unmeasured.end()) {
            e = queue.run_next();
        } else {  // not run: its threshold has no figure to rest on
            e.verdict.exercise = chosen[i], e.verdict.verdict = "FAIL", e.verdict.reason = grader::Reason::crash;
            e.verdict.message = failed->second;
        }
        if (e.verdict.verdict == "FAIL" && e.verdict.theory.empty()) e.verdict.theory = "read " + l.theory;
        technique_verdict(technique, o, e, noted);  // mechanism check
        std::fputs(grader::verdict_lines(e.verdict).c_str(), stdout);
        std::fflush(stdout);
        r.exercises.push_back(e);
    }
}
// ==== end of the stages =====================================================================

}  // namespace

int main(int argc, char** argv) {
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<grader::Argument> args;
    try {
        args = grader::expand_argument_files({argv + 1, argv + argc});
    } catch (const std::exception& e) {
        std::fprintf(stderr, "grade: %s\n", e.what());
        return 2;
    }
    Options o;
    try {
        o = parse(args);
    } catch (const std::exception& e) {
        if (*e.what()) std::fprintf(stderr, "grade: %s\n", e.what());
        print_help();
        return *e.what() ? 2 : 0;
    }
    const grader::Settings& s = grader::settings();
    grader::RunResult r;
    r.test = o.name, r.submission = o.submission, r.grader_revision = o.revision, r.timestamp = grader::utc_timestamp();
    r.sanitizer = o.sanitizer.value(s.sanitizer), r.expect_reject = o.expect.words;
    for (const auto& p : o.include) r.filters.push_back("-tc=" + p);
    for (const auto& p : o.exclude) r.filters.push_back("-tce=" + p);
    // A stage that ends the run: its lines, its status in the results file, its exit code.
    const auto end = [&](const Stop& st) {
        for (const std::string& line : st.lines) std::printf("%s\n", line.c_str());
        r.status = st.status, r.status_message = st.message;
        return finish(r, st.rc, t0, o);
    };
    try {
        const std::string scale = threshold_scale(o);
        r.threshold_scale = grader::parse_scale(scale);
        const int sms = sms_count(o);
        r.sms_limit = sms;
        grader::ChildSettings child;
        child.program = o.program;
        child.yardstick_program = o.yardsticks.empty() || o.yardsticks[0] == '/' || o.build.empty()
                                      ? o.yardsticks
                                      : o.build + "/" + o.yardsticks;
        child.seed = o.seed.empty() ? (s.seed.empty() ? std::to_string(std::random_device{}() % 1000000000u) : s.seed) : o.seed;
        child.threshold_scale = scale;
        child.sms = sms > 0 ? std::to_string(sms) : "";
        child.sanitizer = r.sanitizer, child.sanitizer_path = o.sanitizer_path.value(s.sanitizer_path);
        const int timeout = o.timeout_s > 0 ? o.timeout_s : std::atoi(s.timeout.empty() ? "180" : s.timeout.c_str());
        child.timeout_s = r.sanitizer.empty() ? timeout : 20 * timeout;
        r.seed = child.seed;

        // Before the lesson program runs: what the build said, the tools, the files, the
        // policy, the build itself.
        for (const auto& stage : {std::function<Stop()>([&] { return configured_verdict(o); }),
                                  std::function<Stop()>([&] { return sanitizer_present(o, child); }),
                                  std::function<Stop()>([&] { return files_present(o); }),
                                  std::function<Stop()>([&] { return policy_allows(o); }),
                                  std::function<Stop()>([&] { return variant_can_run(o, sms); }),
                                  std::function<Stop()>([&] { return builds(o); })})
            if (const Stop st = stage(); st.stops) return end(st);
        std::future<grader::TechniqueReport> technique = start_technique_check(o);  // mechanism check
        // Started now, so that it loads and makes its context while the exercises are listed and
        // the GPU is checked; it times nothing before run_exercises (supervisor.hpp). Not under
        // compute-sanitizer, where nothing is timed, nor for --list.
        grader::ChildSettings ahead = child;
        if (!child.sanitizer.empty() || o.list) ahead.yardstick_program.clear();
        grader::YardstickProgram yardsticks(ahead);

        const grader::Listing l = grader::list_exercises(child);
        if (!l.error.empty())
            return end(stop(1, "error", "the lesson program did not list its exercises: " + l.error,
                            {"FAIL " + o.name + ": the lesson program " + o.program + " did not list its exercises: " + l.error}));
        r.lesson = l.lesson, r.title = l.title, r.theory = l.theory;
        if (o.list) {
            for (const auto& e : l.exercises) std::printf("%s\n", e.c_str());
            return 0;
        }
        if (const Stop st = gpu_usable(o, l, sms); st.stops) return end(st);
        const std::vector<std::string> chosen = grader::filter_names(l.exercises, o.include, o.exclude);
        if (chosen.empty()) {
            std::string all;
            for (const auto& e : l.exercises) all += "\n      " + e;
            return end(stop(1, "no_match", "no exercise matches the filter given",
                            {"FAIL " + o.name + ": no exercise matches the filter given; the exercises are:" + all}));
        }

        child.traced = traced_exercises(o, chosen);  // mechanism check
        yardsticks.wait_until_ready();  // no ceiling is timed while it makes its context
        measure(o, r, child, l, sms);
        run_exercises(o, r, child, l, chosen, technique, yardsticks);
        const grader::Decision d = grader::judge_exercises(o.expect, r.exercises);
        print_lines(d);
        const grader::Tally t = grader::tally(r.exercises);
        std::printf("== %s: %d passed, %d failed, %d skipped (%.0f s)\n", o.name.c_str(), t.passed, t.failed, t.skipped,
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        return finish(r, d.rc, t0, o);
    } catch (const std::exception& e) {
        std::printf("FAIL %s: the grader could not run: %s\n", o.name.c_str(), e.what());
        r.status = "error", r.status_message = e.what();
        return finish(r, 1, t0, o);
    }
}
