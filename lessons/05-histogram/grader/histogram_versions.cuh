// SPDX-License-Identifier: MIT
/// @file
/// @brief The grader's own histograms for lesson 05: the versions the teaching table
///        times on every input, the baselines the exercises are measured against, and the
///        kernels a slow diagnosis compares a student's kernel with.
///
/// Each is a launcher with the contract's signature (histogram.cuh): it zeroes `bins` on
/// the default stream, then counts. Grader code: a submission never sees it (the starter
/// and the references hold their own kernels). A version that stands for a starter's or a
/// reference's kernel runs a copy of it (`// copy of` in histogram_versions.cu), launched
/// with the grid and block of that file's launcher.
///
/// The student release holds no answer: the release tool removes the versions that run a
/// reference's kernel (privatized, interleaved_uint4, per_lane_copies), together with
/// LESSON05_ANSWER_KERNELS. The release's grader then leaves out what times them: their
/// rows of the 05.0 table, 05.3's recorded shape figure, and the measured slow hints of
/// 05.2 and 05.3 (each gives its plain hint instead).
#pragma once
#include <cstddef>

// student-release: omit (answers: the release's grader is built without them)
/// Defined where the grader has the versions that run a reference's kernel, answers: in the
/// course, not in the student release.
#define LESSON05_ANSWER_KERNELS 1
// student-release: end

/// The versions, in the order of the theory page.
enum class HistogramVersion {
    global_atomics,     ///< one global atomicAdd per byte, one byte per thread (the 05.1 starter)
    // student-release: omit
    privatized,         ///< bins in shared memory per block, one byte per thread (05.1's reference, 05.2's starter)
    // student-release: end
    interleaved_bytes,  ///< as many blocks as fit, grid-stride loop over single bytes
    contiguous_bytes,   ///< as many blocks as fit, each thread a contiguous chunk of single bytes
    // student-release: omit
    interleaved_uint4,  ///< grid-stride over 16-byte loads, two in flight: 05.2's reference, 05.3's starter
    // student-release: end
    contiguous_uint4,   ///< each thread a contiguous chunk of 16-byte loads, one at a time
    warp_aggregated,    ///< 16-byte loads, one shared atomic per distinct value of a warp (__match_any_sync)
    // student-release: omit
    per_lane_copies,    ///< 16-byte loads, two in flight, 32 copies of the bins, one per lane (05.3's reference)
    // student-release: end
};

/// Runs one version: zeroes `bins`, then counts the n bytes of `in` into them.
void histogram_version(HistogramVersion v, const unsigned char* in, size_t n, unsigned int* bins);
