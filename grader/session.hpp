// SPDX-License-Identifier: MIT
/// @file
/// @brief Run-wide settings shared by the test main and every exercise process:
///        seed, ceilings, sanitizer mode, the instructor's threshold scale.
///
/// The test main sets these as environment variables before it starts an exercise's
/// process, so the process reads the same values the main printed.
#pragma once
#include <cstdint>
#include <string>

#include "grader/ceilings.hpp"
#include "grader/gpu.cuh"

namespace grader {

/// Environment variables, in one place.
namespace env {
inline constexpr const char* seed = "GRADER_SEED";
inline constexpr const char* ceilings = "GRADER_CEILINGS";
inline constexpr const char* sanitizer = "GRADER_SANITIZER";              ///< set by the memcheck/racecheck setups
inline constexpr const char* sanitizer_path = "GRADER_SANITIZER_PATH";    ///< the compute-sanitizer to run exercises in
inline constexpr const char* threshold_scale = "GRADER_THRESHOLD_SCALE";  ///< instructor knob, 1.0 = as shipped
inline constexpr const char* results_dir = "GRADER_RESULTS_DIR";
inline constexpr const char* timeout = "GRADER_TIMEOUT";                  ///< seconds per exercise
inline constexpr const char* child = "GRADER_CHILD";                      ///< set in an exercise's own process
inline constexpr const char* report = "GRADER_REPORT";                    ///< where that process writes its verdict
}  // namespace env

/// The variable's value, or `fallback` when unset or empty.
std::string getenv_or(const char* name, const std::string& fallback);

/// Device 0, read once.
const GpuInfo& gpu();
/// From GRADER_CEILINGS when the main measured them, otherwise measured now.
const Ceilings& ceilings();
/// The seed of this run: every input generator is derived from it.
uint64_t seed();
/// True under compute-sanitizer: small sizes, no timing verdicts.
bool sanitizer_mode();
/// Multiplies every required fraction (0.8 makes every threshold 20 % easier).
double threshold_scale();

/// Parses a positive number for the threshold scale; throws std::invalid_argument with
/// a message naming the variable otherwise.
double parse_scale(const std::string& text);

}  // namespace grader
