// SPDX-License-Identifier: MIT
// The main function of every lesson program: see grader/exercise/exercise_process.hpp.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include "grader/exercise/exercise_process.hpp"

// Compiled with hidden visibility like all of the grader (meson.build); main must stay visible.
__attribute__((visibility("default"))) int main(int argc, char** argv) { return grader::lesson_main(argc, argv); }
