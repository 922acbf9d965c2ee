// SPDX-License-Identifier: MIT
/// @file
/// @brief The main function of every lesson program (the one that holds the student's code).
#pragma once

namespace grader {

/// Lists the exercises or runs one, as the supervisor asked (settings.hpp), or, started by
/// hand, runs the exercises doctest's options select in this one process and prints their
/// verdicts (for cuda-gdb, ncu and compute-sanitizer; these verdicts count for nothing).
int lesson_main(int argc, char** argv);

}  // namespace grader
