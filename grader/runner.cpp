// SPDX-License-Identifier: MIT
#include "grader/runner.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "grader/json.hpp"
#include "grader/session.hpp"

namespace grader {

namespace {

struct RunnerState {
    RunnerOptions options;
    std::string self;
    std::vector<Outcome> outcomes;
    int child_rc = 0;
};

RunnerState& state() {
    static RunnerState s;
    return s;
}

bool in_child() { return !getenv_or(env::child, "").empty(); }

int timeout_seconds() {
    int t = state().options.timeout_s;
    if (t <= 0) t = std::atoi(getenv_or(env::timeout, "180").c_str());
    return sanitizer_mode() ? 20 * t : t;
}

std::string read_file(const std::string& path) {
    std::ifstream f(path);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

Outcome outcome_from_report(const std::string& name, const std::string& report) {
    Outcome o;
    o.exercise = name;
    o.report = report;
    o.verdict = json_string_field(report, "verdict");
    o.reason = reason_from_string(json_string_field(report, "reason"));
    o.perf_graded = report.find("\"perf_graded\": true") != std::string::npos;
    return o;
}

Outcome synthesized(const std::string& name, Reason reason, const std::string& message) {
    std::printf("FAIL  %-28s [%s] %s\n", name.c_str(), to_string(reason), message.c_str());
    std::fflush(stdout);
    JsonObject o;
    o.add("exercise", name).add("verdict", "FAIL").add("reason", to_string(reason)).add("message", message).add("perf_graded", false);
    return outcome_from_report(name, o.str());
}

// Under the memcheck and racecheck setups each exercise's process runs inside
// compute-sanitizer, with its own log. The runner reads that log rather than trusting exit
// codes: racecheck files the hazards of warp-synchronous code as warnings, which do not
// change any exit code, and a sanitizer wrapped around the whole test would mix the
// exercise processes' exit codes with the test main's.
std::vector<std::string> sanitizer_command(const std::string& log) {
    const std::string tool = getenv_or(env::sanitizer, "");
    std::vector<std::string> cmd = {getenv_or(env::sanitizer_path, "compute-sanitizer"), "--tool", tool,
                                    "--error-exitcode", "1", "--log-file", log};
    if (tool == "memcheck") cmd.insert(cmd.end(), {"--leak-check", "no"});
    if (tool == "racecheck") cmd.insert(cmd.end(), {"--racecheck-report", "hazard"});
    return cmd;
}

// Prints the first lines of the sanitizer's reports and returns a one-line summary, or ""
// when it reported nothing.
std::string sanitizer_findings(const std::string& log) {
    std::ifstream f(log);
    std::string line, first, shown;
    int reports = 0, lines = 0;
    while (std::getline(f, line)) {
        bool report = line.find("hazard detected") != std::string::npos || line.find("Race reported") != std::string::npos ||
                      line.find("Invalid __") != std::string::npos || line.find("Program hit") != std::string::npos ||
                      line.find("Uninitialized __") != std::string::npos || line.find("Barrier error") != std::string::npos ||
                      (line.find("ERROR SUMMARY") != std::string::npos && line.find("ERROR SUMMARY: 0") == std::string::npos);
        if (report && reports++ == 0) first = line;
        if (reports > 0 && lines < 12 && line.find("Host Frame") == std::string::npos) shown += "      " + line + "\n", ++lines;
    }
    if (reports == 0) return "";
    std::printf("%s", shown.c_str());
    size_t text = first.find_first_not_of("= ");
    return std::to_string(reports) + " report(s) from compute-sanitizer (" + getenv_or(env::sanitizer, "") +
           "), the first: " + (text == std::string::npos ? first : first.substr(text));
}

// Starts this same executable on one exercise and waits for it, at most timeout_seconds().
Outcome run_child(const std::string& name) {
    char report_path[] = "/tmp/grader-report-XXXXXX";
    int fd = mkstemp(report_path);
    if (fd < 0) throw std::runtime_error("cannot create a temporary file for the exercise's report");
    close(fd);
    std::string filter = "--test-case=" + name;
    std::vector<std::string> cmd;
    std::string log;
    if (sanitizer_mode()) {
        char log_path[] = "/tmp/grader-sanitizer-XXXXXX";
        int lfd = mkstemp(log_path);
        if (lfd >= 0) close(lfd);
        log = log_path;
        cmd = sanitizer_command(log);
    }
    for (const char* a : {state().self.c_str(), filter.c_str(), "--minimal=true", "--no-intro=true", "--no-version=true"})
        cmd.push_back(a);
    std::vector<char*> argv;
    for (auto& a : cmd) argv.push_back(a.data());
    argv.push_back(nullptr);
    std::fflush(stdout);
    std::fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) throw std::runtime_error("fork failed: " + std::string(std::strerror(errno)));
    if (pid == 0) {
        setenv(env::child, name.c_str(), 1);
        setenv(env::report, report_path, 1);
        execvp(argv[0], argv.data());
        std::fprintf(stderr, "cannot start %s: %s\n", argv[0], std::strerror(errno));
        _exit(127);
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_seconds());
    int status = 0;
    pid_t done = 0;
    while ((done = waitpid(pid, &status, WNOHANG)) == 0 && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    if (done == 0) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
        unlink(report_path);
        return synthesized(name, Reason::hang,
                           "did not finish in " + std::to_string(timeout_seconds()) +
                               " s and was stopped: a kernel that never ends (a loop whose bound never changes, or a "
                               "__syncthreads() that not every thread of the block reaches)");
    }
    std::string report = read_file(report_path);
    unlink(report_path);
    if (WIFSIGNALED(status))
        return synthesized(name, Reason::crash,
                           std::string("the exercise's process died on signal ") + strsignal(WTERMSIG(status)) +
                               " (host code of the submission crashed, or it ran out of host memory)");
    if (report.empty())
        return synthesized(name, Reason::crash,
                           "the exercise's process exited (code " + std::to_string(WEXITSTATUS(status)) +
                               ") without a verdict: did the submission call exit() or reset the device?");
    Outcome o = outcome_from_report(name, report);
    std::string findings = log.empty() ? "" : sanitizer_findings(log);
    if (!log.empty()) unlink(log.c_str());
    if (o.verdict == "PASS" && !findings.empty()) return synthesized(name, Reason::fault, findings);
    // compute-sanitizer also reports errors through the exit code of a process whose own
    // checks may all have passed.
    if (o.verdict == "PASS" && WEXITSTATUS(status) != 0)
        return synthesized(name, Reason::fault,
                           "the checks passed but the process exited with code " + std::to_string(WEXITSTATUS(status)) +
                               (sanitizer_mode() ? ": compute-sanitizer found errors" : ""));
    return o;
}

void write_child_report(const Exercise& ex) {
    std::string path = getenv_or(env::report, "");
    if (path.empty()) return;
    std::ofstream(path) << ex.report_json() << "\n";
}

}  // namespace

RunnerOptions parse_runner_options(int& argc, char** argv) {
    RunnerOptions o;
    int out = 1;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        auto value = [&](const char* prefix) { return a.substr(std::strlen(prefix)); };
        if (a.rfind("--seed=", 0) == 0) {
            o.seed = value("--seed=");
            if (o.seed.empty() || o.seed.find_first_not_of("0123456789") != std::string::npos)
                throw std::invalid_argument("--seed takes a whole number, e.g. --seed=12345");
        } else if (a.rfind("--expect-reject=", 0) == 0) {
            std::stringstream ss(value("--expect-reject="));
            std::string word;
            while (std::getline(ss, word, ',')) {
                Reason r = reason_from_string(word);
                if (r == Reason::none || r == Reason::skipped) throw std::invalid_argument("--expect-reject: unknown reason '" + word + "'");
                o.expect_reject.insert(r);
            }
        } else if (a == "--in-process") {
            o.in_process = true;
        } else if (a.rfind("--timeout=", 0) == 0) {
            o.timeout_s = std::atoi(value("--timeout=").c_str());
            if (o.timeout_s <= 0) throw std::invalid_argument("--timeout takes seconds, e.g. --timeout=300");
        } else {
            argv[out++] = argv[i];
        }
    }
    argc = out;
    return o;
}

void configure_runner(const RunnerOptions& options, const std::string& self_path) {
    state().options = options;
    state().self = self_path;
}

const std::vector<Outcome>& outcomes() { return state().outcomes; }

int child_exit_code() { return state().child_rc; }

void run_exercise(const char* name, void (*body)(Exercise&)) {
    if (std::strchr(name, ',')) throw std::logic_error(std::string("exercise names must not contain commas: ") + name);
    if (in_child() || state().options.in_process) {
        Exercise ex(name);
        ex.execute(body);
        write_child_report(ex);
        state().child_rc = ex.skipped() ? 77 : ex.reason() == Reason::none ? 0 : 1;  // INFO exits 0
        if (!in_child()) state().outcomes.push_back(outcome_from_report(name, ex.report_json()));
        return;
    }
    state().outcomes.push_back(run_child(name));
}

int exit_code() {
    const auto& opts = state().options;
    int graded = 0, bad = 0, info = 0;
    for (const Outcome& o : state().outcomes) {
        if (o.verdict == "INFO") {
            ++info;
            continue;
        }
        bool perf_only = !opts.expect_reject.empty() &&
                         (opts.expect_reject.count(Reason::slow) || opts.expect_reject.count(Reason::impossible));
        if (o.verdict == "SKIP") continue;
        if (opts.expect_reject.empty()) {
            ++graded;
            bad += o.verdict != "PASS";
            continue;
        }
        // A known-bad variant: it must be rejected, for one of the expected reasons.
        if (o.verdict == "PASS" && !o.perf_graded && perf_only) {
            std::printf("SKIP  %s: a known-slow variant cannot be judged when speed is not graded\n", o.exercise.c_str());
            continue;
        }
        ++graded;
        if (o.verdict == "FAIL" && opts.expect_reject.count(o.reason)) {
            std::printf("OK    %s: the known-bad variant was rejected [%s], as it must be\n", o.exercise.c_str(), to_string(o.reason));
        } else {
            ++bad;
            std::printf("BAD   %s: the known-bad variant was %s [%s], not rejected for an expected reason\n",
                        o.exercise.c_str(), o.verdict == "PASS" ? "ACCEPTED" : "rejected", to_string(o.reason));
        }
    }
    if (graded == 0) return info > 0 && opts.expect_reject.empty() ? 0 : 77;
    return bad ? 1 : 0;
}

}  // namespace grader
