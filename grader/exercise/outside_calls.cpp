// SPDX-License-Identifier: MIT
#include "grader/exercise/outside_calls.hpp"

#include <dirent.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "grader/common/settings.hpp"

namespace grader {

namespace {

// The threads recorded as the grader's or the driver's. A function's static, so that the
// start-up constructor of priority 103 can use it before any global is constructed.
std::set<long>& known_threads() {
    static std::set<long> tids;
    return tids;
}

std::vector<long> numbers_in_folder(const char* path) {
    std::vector<long> out;
    if (DIR* d = opendir(path)) {
        while (const dirent* e = readdir(d)) {
            char* end = nullptr;
            const long n = std::strtol(e->d_name, &end, 10);
            if (end != e->d_name && *end == '\0') out.push_back(n);
        }
        closedir(d);
    }
    return out;
}

std::string first_line(const std::string& path) {
    std::ifstream f(path);
    std::string line;
    std::getline(f, line);
    return line;
}

// The process's children: each thread's `children` list (Linux 3.5+, CONFIG_PROC_CHILDREN),
// else every process whose parent is this one.
std::vector<long> child_processes(const std::vector<long>& threads) {
    std::vector<long> kids;
    bool listed = false;
    for (long tid : threads) {
        std::ifstream f("/proc/self/task/" + std::to_string(tid) + "/children");
        if (!f) continue;
        listed = true;
        for (long pid; f >> pid;) kids.push_back(pid);
    }
    if (listed) return kids;
    const long self = long(getpid());
    for (long pid : numbers_in_folder("/proc")) {
        // /proc/PID/stat: "pid (comm) state ppid …"; comm may hold spaces and parentheses.
        const std::string stat = first_line("/proc/" + std::to_string(pid) + "/stat");
        const size_t close = stat.rfind(')');
        if (close == std::string::npos) continue;
        std::istringstream rest(stat.substr(close + 1));
        std::string state;
        long ppid = 0;
        if (rest >> state >> ppid && ppid == self) kids.push_back(pid);
    }
    return kids;
}

std::string names(const std::vector<std::string>& v) {
    std::string s;
    for (const std::string& x : v) s += (s.empty() ? "" : ", ") + x;
    return s;
}

// Only where a verdict counts and nothing else joins the process: compute-sanitizer, and the
// profilers and debuggers of a run by hand, start threads of their own in it.
bool checked() { return settings().supervised() && settings().sanitizer.empty(); }

}  // namespace

void entering_student_code() {
    static const bool adopts_orphans = [] {
        // A grandchild whose parent exits is then re-parented to this process, not to init, so
        // it still shows among this process's children.
        prctl(PR_SET_CHILD_SUBREAPER, 1);
        return true;
    }();
    (void)adopts_orphans;
    for (long tid : numbers_in_folder("/proc/self/task")) known_threads().insert(tid);
}

void grader_starts_threads(const std::function<void()>& start) {
    const std::vector<long> before = numbers_in_folder("/proc/self/task");
    const std::set<long> alive(before.begin(), before.end());
    start();
    for (long tid : numbers_in_folder("/proc/self/task"))
        if (!alive.count(tid)) known_threads().insert(tid);
}

// A thread that pthread_join has just returned for is still listed in /proc/self/task for a
// moment: the kernel wakes the joiner when the thread's stack is released, before it takes the
// thread out of the list. A launcher that joins its threads and returns is correct, so a
// thread seen is looked for again for up to this long before it counts; one that is still
// there has outlived its call. (The unit test saw a joined thread once on a 16-core machine.)
namespace {
constexpr auto kJoinedThreadGrace = std::chrono::milliseconds(50);

std::vector<long> unknown_threads() {
    std::vector<long> out;
    for (long tid : numbers_in_folder("/proc/self/task"))
        if (!known_threads().count(tid)) out.push_back(tid);
    return out;
}
}  // namespace

std::string left_running() {
    std::vector<long> threads = numbers_in_folder("/proc/self/task");
    std::vector<long> strangers = unknown_threads();
    const auto until = std::chrono::steady_clock::now() + kJoinedThreadGrace;
    while (!strangers.empty() && std::chrono::steady_clock::now() < until) {
        std::this_thread::sleep_for(std::chrono::microseconds(200));
        strangers = unknown_threads();
    }
    if (!strangers.empty()) threads = numbers_in_folder("/proc/self/task");
    std::vector<std::string> unknown, kids;
    for (long tid : strangers)
        unknown.push_back("\"" + first_line("/proc/self/task/" + std::to_string(tid) + "/comm") + "\"");
    for (long pid : child_processes(threads))
        kids.push_back("pid " + std::to_string(pid) + " \"" + first_line("/proc/" + std::to_string(pid) + "/comm") + "\"");
    std::string s;
    if (!unknown.empty())
        s = std::to_string(unknown.size()) + (unknown.size() == 1 ? " thread" : " threads") + " (" + names(unknown) + ")";
    if (!kids.empty())
        s += (s.empty() ? "" : " and ") + std::to_string(kids.size()) + (kids.size() == 1 ? " child process" : " child processes") +
             " (" + names(kids) + ")";
    return s;
}

void expect_nothing_left_running(const std::string& after) {
    if (!checked()) return;
    const std::string found = left_running();
    if (found.empty()) return;
    throw LeftRunning(after + ": the submission left " + found +
                      " running outside its calls. A launcher may start threads, but must join them before it returns, "
                      "and may start no process: what runs between the calls could see the next inputs while the grader "
                      "prepares them, or load the GPU while the grader measures. Read docs/trust_model.md, section "
                      "\"Nothing of the submission runs outside its calls\"");
}

}  // namespace grader
