// SPDX-License-Identifier: MIT
/// @file
/// @brief An exercise's process started ahead of its turn: its side of the supervisor's
///        ExerciseQueue (supervisor.hpp).
///
/// The supervisor starts each exercise's process while the one before it runs, with three
/// pipes (settings.hpp, env::gate, env::made, env::quiet). The process makes its CUDA
/// context, closes `made` and waits at `gate` for one byte, all from a start-up constructor
/// (exercise_process.cpp) that runs before any code of the submission; after the byte it
/// runs its exercise. `made` is the `quiet` pipe of the exercise running meanwhile, whose
/// first timed run waits for its end of file: no timed run shares the GPU with the making of
/// a context.
#pragma once

namespace grader {

/// In a process started ahead: makes the CUDA context (on the green context of `--sms`, when
/// one is current), closes `made`, then blocks until the supervisor opens the gate. Returns
/// false when the gate closed without opening: the supervisor will not run this exercise.
/// Does nothing, and returns true, in a process that was started at its turn.
bool wait_at_gate();

/// Blocks, the first time only, until no other process is making a CUDA context (the end of
/// file of `quiet`), or 10 s at most: time_launch calls it before its first run.
void wait_until_no_context_is_made();

}  // namespace grader
