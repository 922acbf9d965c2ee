// SPDX-License-Identifier: MIT
/// @file
/// @brief Reading a whole file as text, the one way the supervisor does it (argument files,
///        policy files, student files, sealed reports).
#pragma once
#include <string>

namespace grader {

/// Reads the regular file at `path` into `text`. False when it cannot: `why` (if given) then
/// says why, e.g. "No such file or directory" or "not a regular file" (a folder opens as a
/// stream and reads as nothing, which would otherwise pass for an empty file).
bool read_text_file(const std::string& path, std::string& text, std::string* why = nullptr);

}  // namespace grader
