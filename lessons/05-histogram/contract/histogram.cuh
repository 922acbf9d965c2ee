// SPDX-License-Identifier: MIT
/// @file
/// @brief Lesson 05 contract: the 256-bin histogram of a byte array, three times — with
///        private bins per block, with many bytes per thread, and on inputs where one
///        value takes most of the bytes.
///
/// Every exercise has the same launcher:
///
///     void histogram_K(const unsigned char* in, size_t n, unsigned int* bins);
///
/// - `in`: n bytes on the device, 0 ≤ n < 2^31 (n = 0 is allowed: then every bin is 0). The
///   grader allocates it 256-byte aligned, so `uchar4` and `uint4` loads of `in` are
///   allowed as long as none reaches past `in[n-1]`; const: the launcher must not modify it.
/// - `bins`: kHistogramBins unsigned ints on the device. Their contents on entry are
///   unspecified (the grader fills them with 0xFF bytes): **the launcher sets them to
///   zero itself**, then counts. When the work it enqueued has finished, `bins[v]` is the
///   number of indices i < n with `in[i] == v`, so the bins add up to n. A byte is an
///   `unsigned char`: the values 128–255 count in bins 128–255.
/// - Everything is enqueued on the default stream, in order; the launcher does not
///   synchronize, copy the result back or allocate device memory: the grader reads `bins`
///   itself, so the timed region holds GPU work and launch overhead only, exactly as for
///   the CUB call it is compared with (which also zeroes its own bins).
///
/// Graded for every exercise: the exact count of every bin, and their sum, at n = 0, 1,
/// sizes around 16 and 256, primes and a large size, on uniform bytes, English text, a
/// single repeated value and bytes of which 90 % hold one value; the same launcher called
/// again on the bins of its first call must give the same counts; and one value repeated
/// 65 536 × (the blocks this GPU holds at once) + 5 times, so that a block of any grid that
/// fits on the GPU at once counts more than 65 535 copies of it (16-bit counters overflow).
/// Then the speed, in GB/s of input read, against a routine timed on the same bytes in the
/// same run; every timed call counts fresh bytes, a count of its own up to 1 % below the
/// timing size (at most 2^30 + 1), and must match CUB's histogram of them exactly. After a
/// passing speed grade, the top of n's range, n = 2^31 − 1 (one value, but for the last MiB),
/// where the GPU has 4 GiB free; a line says so where it has not (theory page, "The
/// contract and how it is graded").
/// Host threads: a launcher may start threads, and must join them before it returns; a thread
/// or process of the submission still running after a call fails the exercise as
/// FAIL [outside] (docs/trust_model.md, "Nothing of the submission runs outside its calls").
/// Theory: lessons/05-histogram/theory.md.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

/// Number of bins: one per byte value.
constexpr int kHistogramBins = 256;

/// Exercise 05.1 — privatization: each block counts into its own bins in shared memory
/// and adds them to `bins` once. The starter adds every byte to `bins` with one global
/// atomicAdd.
void histogram_privatized(const unsigned char* in, size_t n, unsigned int* bins);

/// Exercise 05.2 — coarsening: as many blocks as the GPU holds at once, each thread
/// counting many bytes read with coalesced (interleaved) 16-byte loads, so that the
/// private bins of a block are merged once per block, not once per few bytes.
void histogram_coarsened(const unsigned char* in, size_t n, unsigned int* bins);

/// Exercise 05.3 — skewed inputs: as fast when one value takes 90 % of the bytes as on
/// uniform bytes. Graded on both.
void histogram_skew_resistant(const unsigned char* in, size_t n, unsigned int* bins);
