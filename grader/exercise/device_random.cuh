// SPDX-License-Identifier: MIT
/// @file
/// @brief Counter-based random numbers for inputs made on the device: element i's value
///        depends only on (key, i), so any thread fills any element, in any order, and a
///        fresh key changes every element of a buffer.
///
/// Lesson graders use these in their own fill kernels where an input needs a shape of its
/// own (lesson 05's skewed bytes, lesson 08's bodies); grader/exercise/device_inputs.cuh fills the
/// common distributions.
#pragma once
#include <cstdint>

namespace grader {

/// splitmix64 of the key and the index: every input bit changes about half the output bits.
__host__ __device__ inline uint64_t hash64(uint64_t key, uint64_t i) {
    uint64_t z = key ^ ((i + 1) * 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/// Uniform in [0, 1), 53 random bits.
__host__ __device__ inline double unit_interval(uint64_t h) { return double(h >> 11) * 0x1.0p-53; }

/// A second, independent stream of the same key (for values that need two draws).
__host__ __device__ inline uint64_t rekey(uint64_t key, uint64_t stream) { return hash64(key, ~stream); }

}  // namespace grader
