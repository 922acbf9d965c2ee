// SPDX-License-Identifier: MIT
/// @file
/// @brief The ceilings an exercise's process grades against: those the supervisor measured
///        and passed (GRADER_CEILINGS, settings.hpp), or, in a run by hand, the lesson's core
///        ones measured here, once.
#pragma once
#include "grader/common/ceilings.hpp"

namespace grader {

const Ceilings& ceilings();

}  // namespace grader
