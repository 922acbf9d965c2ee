// SPDX-License-Identifier: MIT
/// @file
/// @brief Comparing an output with the grader's own result on the device: how every timed
///        call is verified in full (call.hpp), at the cost of one pass over both buffers.
#pragma once
#include <cstddef>

#include "grader/exercise/compare.hpp"

namespace grader {

/// Compares got[0 … n−1] with expected[0 … n−1] on the device: element i passes when
/// |got − expected| ≤ tol.abs + tol.rel · s, where s = |scale[i]| when a scale is given (the
/// sum of the magnitudes of the terms behind element i, for instance) and |expected[i]|
/// otherwise. NaN never passes; integers with {0, 0} must match exactly. The result says
/// how many elements failed, how many of them still hold the grader's poison, and up to
/// `keep` of them (in index order of those found; not necessarily the first in the array).
/// `got` may also be pinned host memory mapped into the device's address space
/// (HostBuffer). Instantiated for float, double, int and unsigned int; compare structures of floats
/// (float4) as n·4 floats.
template <class T>
Comparison compare_on_device(const T* got, const T* expected, size_t n, Tolerance tol, const T* scale = nullptr,
                             size_t keep = 5);

}  // namespace grader
