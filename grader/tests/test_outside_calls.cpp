// SPDX-License-Identifier: MIT
#include <doctest/doctest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "grader/exercise/outside_calls.hpp"

TEST_CASE("a thread alive across the check is seen; one joined before it is not") {
    grader::entering_student_code();
    CHECK(grader::left_running().empty());
    // Many times over: a thread just joined is still listed in /proc/self/task for a moment,
    // which a check right after the join must not count (outside_calls.cpp, kJoinedThreadGrace).
    int seen = 0;
    for (int i = 0; i < 200; ++i) {
        std::thread joined([] {});
        joined.join();
        seen += !grader::left_running().empty();
    }
    CHECK(seen == 0);

    std::atomic<bool> stop{false};
    std::thread left([&] {
        while (!stop) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    });
    const std::string found = grader::left_running();
    CHECK(found.find("1 thread") == 0);
    stop = true;
    left.join();
    CHECK(grader::left_running().empty());
}

TEST_CASE("threads alive at entering_student_code are the grader's") {
    std::atomic<bool> stop{false};
    std::thread grader_thread([&] {
        while (!stop) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    });
    grader::entering_student_code();
    CHECK(grader::left_running().empty());
    stop = true;
    grader_thread.join();
}

TEST_CASE("a child process is seen until it is reaped") {
    grader::entering_student_code();
    int pipe_fds[2];
    REQUIRE(pipe(pipe_fds) == 0);
    const pid_t child = fork();
    REQUIRE(child >= 0);
    if (child == 0) {  // waits until the parent closes the pipe
        char c;
        close(pipe_fds[1]);
        (void)read(pipe_fds[0], &c, 1);
        _exit(0);
    }
    close(pipe_fds[0]);
    CHECK(grader::left_running().find("1 child process (pid " + std::to_string(child)) == 0);
    close(pipe_fds[1]);
    int status = 0;
    waitpid(child, &status, 0);
    CHECK(grader::left_running().empty());
}

TEST_CASE("threads a grader component starts are the grader's; one alive before it is not") {
    grader::entering_student_code();
    std::atomic<bool> stop{false};
    const auto spin = [&] {
        while (!stop) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    };
    std::thread earlier(spin);  // as a submission's thread, alive before the grader's step
    std::thread worker;
    grader::grader_starts_threads([&] { worker = std::thread(spin); });  // as CUPTI's workers
    const std::string found = grader::left_running();
    CHECK(found.find("1 thread") == 0);  // the earlier one only
    stop = true;
    earlier.join();
    worker.join();
    CHECK(grader::left_running().empty());
}
