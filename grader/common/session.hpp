// SPDX-License-Identifier: MIT
/// @file
/// @brief Run-wide values both processes read: the GPU, the seed, the sanitizer mode and
///        the instructor's threshold scale (an exercise's ceilings: exercise/run_ceilings.hpp).
///
/// In a process the supervisor started they come from the settings it passed
/// (settings.hpp); in an unsupervised run (a debugger, a profiler) they are measured or
/// chosen here, once.
#pragma once
#include <cstdint>
#include <string>

#include "grader/common/gpu.cuh"

namespace grader {

/// Device 0, read once.
const GpuInfo& gpu();
/// The seed of this run: every input generator is derived from it.
uint64_t seed();
/// True under compute-sanitizer: small sizes, no timing verdicts.
bool sanitizer_mode();
/// Multiplies every required fraction (0.8 makes every threshold 20 % easier).
double threshold_scale();

/// Parses a positive number for the threshold scale; throws std::invalid_argument with
/// a message naming the variable otherwise.
double parse_scale(const std::string& text);

/// Parses a seed (a whole number); throws std::invalid_argument otherwise.
uint64_t parse_seed(const std::string& text);

}  // namespace grader
