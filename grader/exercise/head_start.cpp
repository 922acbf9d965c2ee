// SPDX-License-Identifier: MIT
#include "grader/exercise/head_start.hpp"

#include <cuda_runtime.h>
#include <unistd.h>

#include <cerrno>

#include "grader/common/settings.hpp"

namespace grader {

bool wait_at_gate(bool make_context) {
    const Settings& s = settings();
    if (s.gate_fd < 0) return true;
    // The context: most of a process's start (0.3 s of 0.4 on the H100). An error here shows
    // again at the exercise's first CUDA call, which reports it.
    if (make_context) {
        cudaFree(nullptr);
        cudaGetLastError();
    }
    if (s.made_fd >= 0) close(s.made_fd);
    char go = 0;
    ssize_t n;
    do n = read(s.gate_fd, &go, 1);
    while (n < 0 && errno == EINTR);
    close(s.gate_fd);
    return n == 1;
}

}  // namespace grader
