// SPDX-License-Identifier: MIT
/// @file
/// @brief The gate of a process started ahead of its turn, on its descriptor (head_start.hpp):
///        the byte that lets the exercise run, and the end of file that lets it time.
#pragma once

namespace grader {

/// wait_at_gate's second half, on the gate's descriptor: blocks for the byte, keeps the
/// descriptor for wait_until_contexts_are_made where the byte is gate_byte::run_then_wait (the
/// first exercise: settings.hpp), and closes it otherwise. Returns whether a byte came.
bool pass_gate(int gate_fd);

/// Blocks until the supervisor has closed this process's gate (head_start's end of file): no
/// other process is still making its context. Returns at once once it has, and in a process
/// without a gate. Timing calls it before every run (timing.cuh, LaunchBracket::timing).
void wait_until_contexts_are_made();

}  // namespace grader
