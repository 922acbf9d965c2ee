// SPDX-License-Identifier: MIT
#include "grader/exercise/gate.hpp"

#include <unistd.h>

#include <cerrno>

#include "grader/common/settings.hpp"

namespace grader {

namespace {
int& open_gate() {  // the gate once its byte has come, until the supervisor closes it; -1: closed
    static int fd = -1;
    return fd;
}
}  // namespace

bool pass_gate(int gate_fd) {
    char go = 0;
    ssize_t n;
    do n = read(gate_fd, &go, 1);
    while (n < 0 && errno == EINTR);
    // The first exercise's gate closes once every other context is made: it stays open until
    // that process's first timing. Any other gate is closed here, before the submission runs.
    if (n == 1 && go == gate_byte::run_then_wait) open_gate() = gate_fd;
    else close(gate_fd);
    return n == 1;
}

void wait_until_contexts_are_made() {
    const int fd = open_gate();
    if (fd < 0) return;
    open_gate() = -1;
    char c;
    ssize_t n;
    do n = read(fd, &c, 1);  // nothing more is written: the end of file, or a read error
    while (n > 0 || (n < 0 && errno == EINTR));
    close(fd);
}

}  // namespace grader
