// SPDX-License-Identifier: MIT
#include "grader/common/session.hpp"
#include "grader/common/settings.hpp"
#include "grader/common/text_file.hpp"
#include "grader/supervisor/supervisor.hpp"

#include <cuda_runtime.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/types.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <chrono>
#include <cstring>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <thread>

extern char** environ;

namespace grader {

namespace {

// The report's text, or "" when there is none (Report::open then says it is missing).
std::string read_file(const std::string& path) {
    std::string text;
    read_text_file(path, text);
    return text;
}

// A private folder for one process's key and report, removed afterwards.
class Scratch {
public:
    Scratch() {
        char tmpl[] = "/tmp/grader-XXXXXX";
        if (!mkdtemp(tmpl)) throw std::runtime_error(std::string("cannot create a temporary folder: ") + std::strerror(errno));
        dir_ = tmpl;
    }
    ~Scratch() {
        for (const char* f : {"key", "report", "sanitizer.log", "job"}) unlink(path(f).c_str());
        rmdir(dir_.c_str());
    }
    std::string path(const char* name) const { return dir_ + "/" + name; }
    // The key file: readable by this user only, created fresh.
    void write_key(const std::array<uint8_t, 16>& key) const {
        int fd = open(path("key").c_str(), O_WRONLY | O_CREAT | O_EXCL, 0600);
        if (fd < 0 || write(fd, key.data(), key.size()) != ssize_t(key.size()))
            throw std::runtime_error("cannot write the report key: " + std::string(std::strerror(errno)));
        close(fd);
    }

private:
    std::string dir_;
};

struct Exit {
    bool timed_out = false;
    int status = 0;
};

// A started process: its pid (and process group) until it has been waited for.
struct Child {
    pid_t pid = -1;
};

// Starts argv with the current environment (already free of GRADER_* variables) plus
// `extra`, in a process group of its own. Every descriptor of the supervisor is close-on-exec
// (pipe2 below): the child inherits only `keep`, the ends of its own pipes.
Child start(const std::vector<std::string>& argv, const std::vector<std::string>& extra, const std::vector<int>& keep = {}) {
    std::vector<std::string> env;
    for (char** e = environ; e && *e; ++e) env.emplace_back(*e);
    env.insert(env.end(), extra.begin(), extra.end());
    std::vector<char*> a, e;
    for (const auto& s : argv) a.push_back(const_cast<char*>(s.c_str()));
    for (const auto& s : env) e.push_back(const_cast<char*>(s.c_str()));
    a.push_back(nullptr), e.push_back(nullptr);
    std::fflush(stdout);
    std::fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) throw std::runtime_error("fork failed: " + std::string(std::strerror(errno)));
    if (pid == 0) {
        setpgid(0, 0);
        for (int fd : keep) fcntl(fd, F_SETFD, 0);  // these, and only these, survive the exec
        execve(a[0], a.data(), e.data());
        std::fprintf(stderr, "cannot start %s: %s\n", a[0], std::strerror(errno));
        _exit(127);
    }
    setpgid(pid, pid);
    return {pid};
}

// Waits at most `timeout_s` seconds for the child. Whatever its group left behind (a
// student's fork, the sanitizer's target) is killed afterwards.
Exit wait_for(Child& c, int timeout_s) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_s);
    Exit x;
    pid_t done = 0;
    while ((done = waitpid(c.pid, &x.status, WNOHANG)) == 0 && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    if (done == 0) {
        x.timed_out = true;
        kill(-c.pid, SIGKILL);
        waitpid(c.pid, &x.status, 0);
    }
    kill(-c.pid, SIGKILL);
    c.pid = -1;
    return x;
}

Exit spawn(const std::vector<std::string>& argv, const std::vector<std::string>& extra, int timeout_s) {
    Child c = start(argv, extra);
    return wait_for(c, timeout_s);
}

}  // namespace

// A pipe whose ends are both close-on-exec; -1s once closed.
struct Pipe {
    int read = -1, write = -1;
    Pipe() {
        int fd[2];
        if (pipe2(fd, O_CLOEXEC) != 0) throw std::runtime_error("pipe2 failed: " + std::string(std::strerror(errno)));
        read = fd[0], write = fd[1];
    }
    Pipe(const Pipe&) = delete;
    Pipe& operator=(const Pipe&) = delete;
    ~Pipe() { close_read(), close_write(); }
    void close_read() { if (read >= 0) ::close(read), read = -1; }
    void close_write() { if (write >= 0) ::close(write), write = -1; }
};

namespace {

std::vector<std::string> child_env(const ChildSettings& s, const Scratch& dir, const std::string& mode,
                                   const std::string& exercise) {
    return {"GRADER_MODE=" + mode,
            "GRADER_EXERCISE=" + exercise,
            "GRADER_REPORT=" + dir.path("report"),
            "GRADER_KEY_FILE=" + dir.path("key"),
            "GRADER_SEED=" + s.seed,
            "GRADER_CEILINGS=" + s.ceilings,
            "GRADER_THRESHOLD_SCALE=" + s.threshold_scale,
            "GRADER_SANITIZER=" + s.sanitizer,
            "GRADER_SMS=" + s.sms,
            "GRADER_TRACE=" + s.trace_for(exercise),
            "GRADER_YARDSTICKS=" + s.yardsticks};
}

// Under the memcheck and racecheck setups each exercise's process runs inside
// compute-sanitizer, with its own log. The supervisor reads that log rather than trusting
// exit codes: racecheck files the hazards of warp-synchronous code as warnings, which do
// not change any exit code.
std::vector<std::string> sanitizer_command(const ChildSettings& s, const std::string& log) {
    std::vector<std::string> cmd = {sanitizer_program(s),
                                    "--tool", s.sanitizer, "--error-exitcode", "1", "--log-file", log};
    if (s.sanitizer == "memcheck") cmd.insert(cmd.end(), {"--leak-check", "no"});
    if (s.sanitizer == "racecheck") cmd.insert(cmd.end(), {"--racecheck-report", "hazard"});
    return cmd;
}

// Prints the first lines of the sanitizer's reports and returns a one-line summary, or ""
// when it reported nothing.
std::string sanitizer_findings(const std::string& log, const std::string& tool) {
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
    return std::to_string(reports) + " report(s) from compute-sanitizer (" + tool + "), the first: " +
           (text == std::string::npos ? first : first.substr(text));
}

ExerciseResult failed(const std::string& exercise, Reason reason, const std::string& message) {
    ExerciseResult r;
    r.verdict.exercise = exercise;
    r.verdict.verdict = "FAIL";
    r.verdict.reason = reason;
    r.verdict.message = message;
    return r;
}

std::string exit_text(int status) {
    if (WIFSIGNALED(status)) return std::string("died on signal ") + strsignal(WTERMSIG(status));
    return "exited with code " + std::to_string(WEXITSTATUS(status));
}

// The supervisor's own speed verdicts (declared_thresholds.hpp), one per grade the exercise
// reported, compared with what the exercise's process said: "" when they agree, else why its
// report cannot be trusted. Every grade but the last must have passed (a failed grade ends
// the exercise); the last must match the process's verdict.
std::string recheck(const ChildSettings& s, const Report& r, const std::string& exercise) {
    if (r.get("perf_graded") != "true" || !s.sanitizer.empty()) return "";
    const std::string verdict = r.get("verdict");
    const Reason reported = reason_from_string(r.get("reason"));
    const bool speed_verdict = verdict == "PASS" || reported == Reason::slow || reported == Reason::impossible;
    const auto grades = timed_reports(r);
    if (grades.empty()) return speed_verdict ? "the exercise was graded on speed but reported no timing" : "";
    const Ceilings ceilings = Ceilings::from_text(s.ceilings);
    const double scale = parse_scale(s.threshold_scale);
    for (size_t i = 0; i < grades.size(); ++i) {
        const bool last = i + 1 == grades.size();
        if (last && !speed_verdict) return "";  // it failed after timing, for another reason
        const Declared* d = find_declared(s.declared, grades[i].first);
        if (!d) return "the exercise reported a grade '" + grades[i].first + "' that the lesson's thresholds.txt does not declare";
        // Every baseline time from the supervisor's yardstick run, not from the report.
        const SpeedVerdict v = recheck_speed(*d, ceilings, scale, s.l2_bytes, grades[i].second, exercise, s.measured);
        if (v.reason == Reason::crash) return v.message;
        const Reason theirs = last && verdict != "PASS" ? reported : Reason::none;
        if (theirs != v.reason)
            return "the exercise's process reported " + std::string(theirs == Reason::none ? "PASS" : to_string(theirs)) +
                   " for " + grades[i].first + " where the supervisor's recomputation gives " +
                   (v.reason == Reason::none ? "PASS" : to_string(v.reason)) +
                   ": the grader's state was changed inside that process, so its report cannot be trusted";
    }
    return "";
}

}  // namespace

std::string ChildSettings::trace_for(const std::string& exercise) const {
    return std::find(traced.begin(), traced.end(), exercise) != traced.end() ? "kernels" : "";
}

std::string sanitizer_program(const ChildSettings& s) {
    return s.sanitizer_path.empty() ? "/usr/local/cuda/bin/compute-sanitizer" : s.sanitizer_path;
}

Listing list_exercises(const ChildSettings& s) {
    Scratch dir;
    const auto key = random_key();
    dir.write_key(key);
    Exit x = spawn({s.program}, child_env(s, dir, "list", ""), 120);
    Report r;
    Report::Opened o = Report::open(read_file(dir.path("report")), key, r);
    Listing l;
    if (x.timed_out) l.error = "it did not answer within 120 s";
    else if (o != Report::Opened::ok || r.get("kind") != "list")
        l.error = std::string("it gave ") + describe(o) + " and " + exit_text(x.status) +
                  " (code that runs when the program starts — a global object's constructor — may have stopped it)";
    if (!l.error.empty()) return l;
    l.lesson = r.get("lesson"), l.title = r.get("title"), l.theory = r.get("theory");
    l.exercises = r.all("exercise"), l.ceilings = r.all("ceiling");
    return l;
}

// One exercise's process, from its start to its verdict.
struct StartedExercise {
    std::string exercise;
    Scratch dir;
    std::array<uint8_t, 16> key = random_key();
    Child child;
    std::unique_ptr<Pipe> gate;  // one byte from the supervisor: run now
    std::unique_ptr<Pipe> made;  // its end of file: the process has made its CUDA context
    ~StartedExercise() {
        if (child.pid > 0) kill(-child.pid, SIGKILL), waitpid(child.pid, nullptr, 0);
    }
};

namespace {

// Starts `argv` as `p`'s process with `vars`. `ahead`: with the two pipes of a process started
// ahead of its turn (head_start.hpp): it makes its CUDA context, closes its end of `made` and
// waits at its gate; otherwise it runs at once. An exercise's process and the yardstick
// program start this one way.
void start_process(StartedExercise& p, const std::vector<std::string>& argv, std::vector<std::string> vars, bool ahead) {
    std::vector<int> keep;
    if (ahead) {
        p.gate = std::make_unique<Pipe>();
        p.made = std::make_unique<Pipe>();
        keep = {p.gate->read, p.made->write};
        vars.push_back(std::string(env::gate) + "=" + std::to_string(p.gate->read));
        vars.push_back(std::string(env::made) + "=" + std::to_string(p.made->write));
    }
    p.child = start(argv, vars, keep);
    if (ahead) p.gate->close_read(), p.made->close_write();  // the child holds the only ends left
}

// Starts an exercise's process (start_process).
std::unique_ptr<StartedExercise> start_exercise(const ChildSettings& s, const std::string& exercise, bool ahead) {
    auto p = std::make_unique<StartedExercise>();
    p->exercise = exercise;
    p->dir.write_key(p->key);
    std::vector<std::string> argv = s.sanitizer.empty() ? std::vector<std::string>{} : sanitizer_command(s, p->dir.path("sanitizer.log"));
    argv.push_back(s.program);
    start_process(*p, argv, child_env(s, p->dir, "run", exercise), ahead);
    return p;
}

// Blocks until every pipe of `open` has been closed by its process, or `limit_s` have passed.
void wait_until_closed(std::vector<Pipe*> open, int limit_s) {
    const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(limit_s);
    while (!open.empty()) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - std::chrono::steady_clock::now());
        if (left.count() <= 0) return;
        std::vector<pollfd> fds;
        for (Pipe* m : open) fds.push_back({m->read, POLLIN, 0});
        if (poll(fds.data(), fds.size(), int(left.count())) < 0 && errno != EINTR) return;
        for (size_t i = fds.size(); i-- > 0;) {
            if (!fds[i].revents) continue;
            char c;
            if (read(open[i]->read, &c, 1) > 0) continue;  // nothing is ever written; an end of file closes it
            open[i]->close_read();
            open.erase(open.begin() + long(i));
        }
    }
}

// Blocks until every process in `started` has closed `made` (made its context, or ended),
// or `limit_s` have passed. A pipe seen closed before is left out: poll() never reports
// anything of a descriptor of -1, so waiting on it again would take the whole limit.
void wait_until_contexts_are_made(const std::vector<std::unique_ptr<StartedExercise>>& started, int limit_s) {
    std::vector<Pipe*> open;
    for (const auto& p : started)
        if (p && p->made && p->made->read >= 0) open.push_back(p->made.get());
    wait_until_closed(open, limit_s);
}

ExerciseResult finish_exercise(const ChildSettings& s, StartedExercise& p) {
    const std::string& exercise = p.exercise;
    Exit x = wait_for(p.child, s.timeout_s);
    if (x.timed_out)
        return failed(exercise, Reason::hang,
                      "did not finish in " + std::to_string(s.timeout_s) +
                          " s and was stopped: a kernel that never ends (a loop whose bound never changes, or a "
                          "__syncthreads() that not every thread of the block reaches)");
    Report r;
    const Report::Opened o = Report::open(read_file(p.dir.path("report")), p.key, r);
    if (o != Report::Opened::ok || r.get("kind") != "exercise" || r.get("exercise") != exercise) {
        std::string why = std::string("the exercise's process ") + exit_text(x.status) + " with " + describe(o);
        if (o == Report::Opened::empty)
            why += WIFSIGNALED(x.status) ? " (host code of the submission crashed, or it ran out of host memory)"
                                         : ": did the submission call exit() or reset the device?";
        return failed(exercise, Reason::crash, why);
    }
    if (r.get("echo_seed") != s.seed || r.get("echo_ceilings") != s.ceilings ||
        r.get("echo_threshold_scale") != s.threshold_scale || r.get("echo_sanitizer") != s.sanitizer ||
        r.get("echo_sms") != s.sms || r.get("echo_trace") != s.trace_for(exercise) ||
        r.get("echo_yardsticks") != s.yardsticks)
        return failed(exercise, Reason::crash, "the grader's settings were changed inside the exercise's process");
    if (const std::string why = recheck(s, r, exercise); !why.empty()) return failed(exercise, Reason::crash, why);
    ExerciseResult e = exercise_from_report(r);  // every field of results.hpp's exercise_fields
    if (!s.sanitizer.empty()) {
        const std::string findings = sanitizer_findings(p.dir.path("sanitizer.log"), s.sanitizer);
        if (e.verdict.verdict == "PASS" && !findings.empty()) return failed(exercise, Reason::fault, findings);
    }
    // compute-sanitizer also reports errors through the exit code of a process whose own
    // checks may all have passed.
    if (e.verdict.verdict == "PASS" && !(WIFEXITED(x.status) && WEXITSTATUS(x.status) == 0))
        return failed(exercise, s.sanitizer.empty() ? Reason::crash : Reason::fault,
                      "the checks passed but the process " + exit_text(x.status) +
                          (s.sanitizer.empty() ? "" : ": compute-sanitizer found errors"));
    return e;
}

}  // namespace

namespace {

// Free memory on the device, as every process sees it (the supervisor's context is made by
// then: it measured the ceilings). 0 when it cannot be read.
size_t device_free_bytes() {
    size_t free_b = 0, total_b = 0;
    if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return free_b;
}

// The processes waiting at their gates may hold at most this share of the memory free when the
// lesson starts, so that the running exercise sizes its largest checks as it would alone (a
// lesson 06 run on a GPU with 6 GiB free left its n = 2^30 checks out when six waiting
// processes held 3.7 GiB between them).
constexpr size_t kWaitingShare = 8;  // one eighth
// A context's memory is at most this where no process has been measured yet: below it every
// process may start ahead without a measurement (a large GPU).
constexpr size_t kContextBoundBytes = size_t(1) << 30;

}  // namespace

ExerciseQueue::ExerciseQueue(const ChildSettings& s, std::vector<std::string> exercises)
    : s_(s), names_(std::move(exercises)), ahead_(s.sanitizer.empty() && s.head_start) {
    signal(SIGPIPE, SIG_IGN);  // a gate whose process is gone answers EPIPE instead
    if (!ahead_ || names_.empty()) return;
    const size_t budget = device_free_bytes() / kWaitingShare;
    if (budget >= names_.size() * kContextBoundBytes) {
        for (const std::string& name : names_) started_.push_back(start_exercise(s_, name, true));
        all_ahead_ = true;
        return;
    }
    // Little memory: one process first, to learn what a context takes here; then as many more
    // as the budget holds. The others start at their turn (run_next).
    const size_t before = device_free_bytes();
    started_.push_back(start_exercise(s_, names_[0], true));
    wait_until_contexts_are_made(started_, 10);
    const size_t after = device_free_bytes();
    const size_t context = after < before ? before - after : kContextBoundBytes / 2;
    size_t ahead = 1;
    while (ahead < names_.size() && (ahead + 1) * context <= budget) {
        started_.push_back(start_exercise(s_, names_[ahead], true));
        ++ahead;
    }
    started_.resize(names_.size());  // nullptr: starts at its turn
    std::printf("   %zu of %zu exercises' processes start ahead of their turn: %.1f GiB free, %.2f GiB per context\n", ahead,
                names_.size(), before / 1073741824.0, context / 1073741824.0);
}

ExerciseQueue::~ExerciseQueue() = default;

ExerciseResult ExerciseQueue::run_next() {
    if (next_index_ >= names_.size()) throw std::logic_error("grader bug: ExerciseQueue::run_next called after the last exercise");
    const size_t i = next_index_++;
    if (!ahead_) {  // under a sanitizer each starts at its turn, and runs alone
        std::unique_ptr<StartedExercise> alone = start_exercise(s_, names_[i], false);
        return finish_exercise(s_, *alone);
    }
    // No exercise times anything until every process has made its context: making one is
    // work on the GPU, which no timed run may share. 10 s at most: a process that takes longer
    // is late for a reason of its own, which its exercise will show. Where every process
    // started ahead (memory is plentiful), the first one's gate opens at once and closes once
    // the contexts are made: meanwhile it makes its own, allocates, draws its inputs and runs
    // its checks, and its first timing waits for the gate's end of file (head_start.hpp).
    // Where memory is short it waits, so that it sizes its checks with every context made.
    const bool early = i == 0 && all_ahead_;
    if (i == 0 && !early) wait_until_contexts_are_made(started_, 10);
    if (!started_[i]) {  // memory was short (the constructor): this one starts now, and runs at once
        std::unique_ptr<StartedExercise> alone = start_exercise(s_, names_[i], false);
        return finish_exercise(s_, *alone);
    }
    std::unique_ptr<StartedExercise> running = std::move(started_[i]);
    const char go = early ? gate_byte::run_then_wait : gate_byte::run;
    if (write(running->gate->write, &go, 1) != 1) {
        // Gone already (EPIPE: SIGPIPE is ignored); finish_exercise reads how it ended.
    }
    if (early) wait_until_contexts_are_made(started_, 10);  // the others' (its own was made before its gate)
    running->gate->close_write();
    return finish_exercise(s_, *running);
}

// ---------------------------------------------------------------------- the yardstick program

YardstickProgram::YardstickProgram(const ChildSettings& s) {
    if (s.yardstick_program.empty() || !s.sms.empty()) return;  // --sms: started at run()
    start(s);
}

void YardstickProgram::start(const ChildSettings& s) {
    signal(SIGPIPE, SIG_IGN);  // a gate whose process is gone answers EPIPE instead
    // No key file: it is started before the listing, whose process runs the submission's static
    // initializers with no gate, as the same user, and could read a key file this one had not
    // yet consumed. Its key comes in the job file, written once no process of the student's is left.
    p_ = std::make_unique<StartedExercise>();
    ChildSettings plain = s;
    plain.traced.clear(), plain.yardsticks.clear(), plain.ceilings.clear();  // no kernels traced, no figures; ceilings: later
    std::vector<std::string> vars = child_env(plain, p_->dir, "yardsticks", "");
    vars.erase(std::remove_if(vars.begin(), vars.end(),
                              [](const std::string& v) { return v.rfind(std::string(env::key_file) + "=", 0) == 0; }),
               vars.end());
    vars.push_back(std::string(env::job) + "=" + p_->dir.path("job"));
    start_process(*p_, {s.yardstick_program}, vars, true);
}

YardstickProgram::~YardstickProgram() = default;

void YardstickProgram::wait_until_ready() {
    if (p_ && p_->made->read >= 0) wait_until_closed({p_->made.get()}, 10);
}

YardstickRun YardstickProgram::run(const ChildSettings& s, const std::vector<std::string>& exercises) {
    YardstickRun y;
    if (!p_ && !started_ && !s.yardstick_program.empty()) start(s);  // not started ahead (--sms)
    started_ = true;
    if (!p_) {
        y.error = "was not given (grade --yardsticks=PROGRAM; Meson's tests pass build/lessonNN-yardsticks)";
        return y;
    }
    wait_until_ready();
    std::string names;
    for (const std::string& e : exercises) names += (names.empty() ? "" : ",") + e;  // names hold no commas (exercise.hpp)
    {  // the job: what it could not be given at its start (settings.hpp, settle_yardstick_job)
        const int fd = open(p_->dir.path("job").c_str(), O_WRONLY | O_CREAT | O_EXCL, 0600);
        const std::string text = s.ceilings + "\n" + names + "\n" + key_text(p_->key) + "\n";
        if (fd < 0 || write(fd, text.data(), text.size()) != ssize_t(text.size()))
            y.error = "could not be given its job: " + std::string(std::strerror(errno));
        if (fd >= 0) close(fd);
        if (!y.error.empty()) return y;
    }
    const char go = gate_byte::run;
    if (write(p_->gate->write, &go, 1) != 1) {
        // Gone already (EPIPE: SIGPIPE is ignored); its exit says how it ended.
    }
    p_->gate->close_write();
    Exit x = wait_for(p_->child, s.timeout_s * int(std::max<size_t>(1, exercises.size())));
    Report r;
    const Report::Opened o = Report::open(read_file(p_->dir.path("report")), p_->key, r);
    if (x.timed_out) y.error = "did not finish in time";
    else if (o != Report::Opened::ok || r.get("kind") != "yardsticks")
        y.error = exit_text(x.status) + " with " + describe(o);
    else if (r.get("echo_seed") != s.seed || r.get("echo_ceilings") != s.ceilings || r.get("echo_sms") != s.sms)
        y.error = "reported settings other than the supervisor's";
    p_.reset();
    if (!y.error.empty()) return y;
    return judge_yardsticks(r.get("yardsticks"), r.all("yardstick_error"), Ceilings::from_text(s.ceilings));
}

}  // namespace grader
