// SPDX-License-Identifier: MIT
/// @file
/// @brief Inputs made on the device, under a key: the fresh inputs of every timed call
///        (call.hpp, Call::timed_inputs), made in about a millisecond per GiB.
///
/// Every element changes with the key, so a launcher that keeps results keyed by any part
/// of its input (a tile, a chunk, a digest) finds nothing to replay. The distributions are
/// those of inputs.hpp, drawn by element rather than by a sequential generator.
#pragma once
#include <cstddef>
#include <cstdint>

#include "grader/exercise/inputs.hpp"

namespace grader {

/// Fills data[0 … n−1] from `d` under `key` (on the default stream, asynchronously):
/// floating point uniform in [lo, hi), with zeros, or of mixed magnitudes; integers
/// uniform in [lo, hi] (Dist::zeros: a quarter of them 0), or Dist::large_sums (positive,
/// summing past 2^24 and below 2^31 for any n). Instantiated for float, double, int,
/// unsigned int and unsigned char.
template <class T>
void fill_on_device(T* data, size_t n, uint64_t key, Dist d, double lo = -1, double hi = 1);

/// A key no one can predict: the operating system's random source mixed with the clock.
/// Timed calls draw theirs from here, not from the run's seed, so nothing a launcher can
/// read in advance tells it what its next inputs will be.
uint64_t fresh_key();

}  // namespace grader
