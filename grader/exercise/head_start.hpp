// SPDX-License-Identifier: MIT
/// @file
/// @brief An exercise's process started ahead of its turn: its side of the supervisor's
///        ExerciseQueue (supervisor.hpp).
///
/// The supervisor starts every exercise's process of a lesson at once, each with two pipes
/// (settings.hpp, env::gate and env::made). The process makes its CUDA context, closes
/// `made` and waits at `gate` for one byte, all from a start-up constructor
/// (exercise_process.cpp) that runs before any code of the submission; after the byte it
/// runs its exercise. The supervisor opens the first gate at once, and closes it (its end of
/// file) once every `made` has closed: that process allocates, draws its inputs and checks
/// the submission meanwhile, and times nothing before the end of file
/// (wait_until_contexts_are_made, gate.hpp, which every timing calls first), so no timing
/// shares the GPU with the making of a context. Every other gate opens and closes at once.
#pragma once

namespace grader {

/// In a process started ahead: makes the CUDA context (on the green context of `--sms`, when
/// one is current), closes `made`, then blocks until the supervisor opens the gate. Returns
/// false when the gate closed without opening: the supervisor will not run this exercise.
/// Does nothing, and returns true, in a process that was started at its turn.
/// `make_context` false: closes `made` without making the context (the yardstick program on a
/// GPU in exclusive-process mode, where the supervisor still needs the only context).
bool wait_at_gate(bool make_context = true);

}  // namespace grader
