// SPDX-License-Identifier: MIT
#include <doctest/doctest.h>
#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "grader/common/settings.hpp"
#include "grader/exercise/gate.hpp"

namespace {

bool is_open(int fd) { return fcntl(fd, F_GETFD) != -1; }

struct GatePipe {
    int read = -1, write = -1;
    GatePipe() {
        int fd[2];
        REQUIRE(pipe(fd) == 0);
        read = fd[0], write = fd[1];
    }
    void open_gate(char byte = grader::gate_byte::run) const { REQUIRE(::write(write, &byte, 1) == 1); }
    void close_write() {
        if (write >= 0) close(write), write = -1;
    }
    ~GatePipe() { close_write(); }
};

}  // namespace

TEST_CASE("a gate opened and closed at once lets the exercise run and time at once") {
    GatePipe g;
    g.open_gate();
    g.close_write();
    CHECK(grader::pass_gate(g.read));
    CHECK_FALSE(is_open(g.read));           // closed before any code of the submission runs
    grader::wait_until_contexts_are_made();  // returns at once: nothing kept
}

TEST_CASE("a gate whose byte says run is closed at once, even before the supervisor closes its end") {
    GatePipe g;
    g.open_gate(grader::gate_byte::run);
    CHECK(grader::pass_gate(g.read));
    CHECK_FALSE(is_open(g.read));
}

TEST_CASE("a gate closed without its byte runs nothing") {
    GatePipe g;
    g.close_write();
    CHECK_FALSE(grader::pass_gate(g.read));
    CHECK_FALSE(is_open(g.read));
}

TEST_CASE("the first exercise runs at once, and its first timing waits for the gate's end of file") {
    GatePipe g;
    g.open_gate(grader::gate_byte::run_then_wait);
    CHECK(grader::pass_gate(g.read));
    CHECK(is_open(g.read));  // kept until the end of file
    std::atomic<bool> returned{false};
    std::thread timing([&] {
        grader::wait_until_contexts_are_made();
        returned = true;
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    CHECK_FALSE(returned.load());  // the other contexts are still being made
    g.close_write();               // the supervisor: every `made` has closed
    timing.join();
    CHECK(returned.load());
    CHECK_FALSE(is_open(g.read));
    grader::wait_until_contexts_are_made();  // later timings: at once
}
