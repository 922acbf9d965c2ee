// SPDX-License-Identifier: MIT
/// @file
/// @brief The grader's own copies of the notes' four convolution kernels, for lesson 04's
///        teaching table, for the comparison a too-slow submission is measured against,
///        and for the result every timed call is verified against (reference()).
///
/// Each is the kernel a starter ships or a reference uses, with the same block shape, so
/// that exercise 04.0 shows on the student's GPU the two ends of every graded contrast pair:
///
/// | version | is | block |
/// |---|---|---|
/// | global()     | the 04.1 starter: filter in a `__device__` array | 32 × 8, one output per thread |
/// | constant()   | the 04.1 reference, and the 04.2 and 04.3 starters | 32 × 8, one output per thread |
/// | halo_tile()  | the 04.2 reference, and the 04.4 starter | 32 × 32, (32 + k − 1)² shared tile |
/// | cache_halo() | the 04.3 reference | 32 × 32, 32 × 32 shared tile, halo through L1 |
/// | strips_one_load() | the former 04.4 reference: register strips, one tile load in flight | 64 × 4, S outputs per thread |
///
/// All follow the contract of convolution.cuh (cross-correlation, zero padding) with the
/// filter set by set_filter(); all launch on the default stream without synchronizing.
///
/// The student release holds no answer: the release tool removes halo_tile() and
/// cache_halo(), which run the 04.2 and 04.3 references' kernels, and strips_one_load(),
/// the former 04.4 reference, which passes 04.4, together with LESSON04_ANSWER_KERNELS.
/// The release's grader then leaves out what times them: their rows of the 04.0 table, the
/// contrast pairs that need those rows, and 04.4's measured slow hint (04.4 gives its plain
/// hint instead).
#pragma once

namespace versions {

/// Stores k × k weights (host memory) for every version, in global and in constant memory.
void set_filter(const float* weights, int k);

/// One thread per pixel, weights loaded from global memory (04.1 starter).
void global(const float* in, float* out, int rows, int cols);
/// One thread per pixel, weights from constant memory (04.1 reference).
void constant(const float* in, float* out, int rows, int cols);
/// The grader's result for a timed call: out as constant() writes it, and magnitude(y, x)
/// = Σ |w(i, j)| · |in(y − r + i, x − r + j)| over the same taps, the scale of the pixel's
/// error bound (theory.md, "How close is correct").
void reference(const float* in, float* out, float* magnitude, int rows, int cols);
// student-release: omit (answers: the release's grader is built without them)
/// Defined where the grader has halo_tile(), cache_halo() and strips_one_load(), which answer
/// an exercise: in the course, not in the student release.
#define LESSON04_ANSWER_KERNELS 1
/// Output tile plus halo in shared memory, ghost cells 0 (04.2 reference).
void halo_tile(const float* in, float* out, int rows, int cols);
/// Inner tile in shared memory, halo read from global memory (04.3 reference).
void cache_halo(const float* in, float* out, int rows, int cols);
/// Register blocking as the 04.4 reference does it, less its two load changes: a vertical
/// strip of S outputs per thread (S = 16 up to k = 7, else 8), the tile loaded 4 bytes at a
/// time, each load stored before the next is issued. Shows what loads in flight buy.
void strips_one_load(const float* in, float* out, int rows, int cols);
// student-release: end

}  // namespace versions
