// SPDX-License-Identifier: MIT
/// @file
/// @brief SipHash-2-4 (Aumasson and Bernstein, 2012): a keyed hash built to be a MAC for
///        short messages. It authenticates the report an exercise's process sends to the
///        supervisor, so that a report written by anything but the grader is refused.
#pragma once
#include <array>
#include <cstdint>
#include <string>

namespace grader {

/// The 64-bit SipHash-2-4 tag of `message` under the 128-bit `key`.
uint64_t siphash24(const std::array<uint8_t, 16>& key, const std::string& message);

}  // namespace grader
