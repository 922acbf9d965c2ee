// SPDX-License-Identifier: MIT
/// @file
/// @brief Checks the grader runs on the device, between calls and outside any timed
///        interval, so that checking a GiB-sized buffer costs about a millisecond.
#pragma once
#include <cstddef>
#include <cstdint>

namespace grader {

/// Elements of `element_bytes` bytes, among the first `bytes` at `data`, whose every byte
/// is 0xFF (the grader's poison).
size_t count_poisoned(const void* data, size_t bytes, size_t element_bytes);

/// A 64-bit checksum of `bytes` bytes at `data`: equal before and after a call only if the
/// call left them unchanged (up to a 2^-64 coincidence).
uint64_t device_checksum(const void* data, size_t bytes);

}  // namespace grader
