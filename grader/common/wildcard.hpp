// SPDX-License-Identifier: MIT
/// @file
/// @brief Exercise filters as doctest writes them: `-tc=01.2*` runs the exercises whose
///        names match, `-tce=…` leaves some out (pure host code, unit-tested).
#pragma once
#include <string>
#include <vector>

namespace grader {

/// True when `text` matches `pattern`: `*` any run of characters, `?` any one character,
/// letters compared without case (doctest's rule).
bool wildcard_match(const std::string& pattern, const std::string& text);

/// The items of a comma-separated list, as the filters and the supervisor's list options
/// write them ("01.1*,01.2*"; an empty item stays, an empty list has none).
std::vector<std::string> split_commas(const std::string& list);

/// The names kept by doctest-style filters: each filter is a comma-separated list of
/// patterns; a name is kept when it matches some include pattern (or there are none) and
/// no exclude pattern.
std::vector<std::string> filter_names(const std::vector<std::string>& names, const std::vector<std::string>& include,
                                      const std::vector<std::string>& exclude);

}  // namespace grader
