// SPDX-License-Identifier: MIT
/// @file
/// @brief Lesson 02 contract: the matrix transposes a student implements to learn how to
///        lay out shared memory without bank conflicts.
///
/// Each function is a host launcher: it launches its kernel(s) on the default stream and
/// returns without synchronizing. `in` is a rows × cols matrix stored row-major (element
/// (r, c) at r * cols + c); `out` receives its transpose, a cols × rows matrix stored
/// row-major, so out[c * rows + r] = in[r * cols + c]. The grader allocates both (no
/// overlap, 256-byte aligned; an access outside either is detected), uses sizes that are
/// not multiples of any tile and times the call on a matrix far larger than the L2 cache
/// (02.2 and 02.3 also on one the L2 holds, below).
///
/// Sizes: 0 ≤ rows ≤ kTransposeMaxSide and 0 ≤ cols ≤ kTransposeMaxSide, and rows · cols
/// < 2^31 elements. An empty matrix (rows or cols 0) launches nothing: a launch with an
/// empty grid is an error. The grader checks each side at 0, 1, 65537 (past the 65535
/// blocks gridDim.y allows) and kTransposeMaxSide, the other side small, and a square past
/// 2^31 bytes a buffer (23173 × 23173 floats, 16411 × 16411 doubles), where the GPU has the
/// memory (6.5 GiB); rows · cols is not checked at its top (2^31 floats are 8 GiB).
/// Host threads: a launcher may start threads, and must join them before it returns; a thread
/// or process of the submission still running after a call fails the exercise as
/// FAIL [outside] (docs/trust_model.md, "Nothing of the submission runs outside its calls").
/// Theory: lessons/02-bank-conflicts/theory.md.
#pragma once
#include <cuda_runtime.h>

/// The largest rows and cols: 65535 × 8, so that a grid may put blocks of 8 or more rows
/// (or columns) along gridDim.y, whose limit is 65535 blocks, but not one row per block.
inline constexpr int kTransposeMaxSide = 65535 * 8;

/// Exercise 02.1 — transpose through a shared-memory tile.
/// Graded: exact result on every shape; bandwidth (8 bytes per element: 4 read, 4 written)
/// against the copy ceiling. The starter ships the naive transpose, whose writes are
/// 32 rows apart; any tiled version (padded or not) passes.
void transpose_tiled(const float* in, float* out, int rows, int cols);

/// Exercise 02.2 — transpose through a tile without bank conflicts.
/// Same contract as transpose_tiled(); the threshold is higher, so that the tile whose
/// column reads hit one bank 32 times does not reach it. Graded first on a matrix the L2
/// holds (in and out half of it, timed without flushing the L2), where only shared memory
/// binds, against the grader's own padded 64 × 64 tile on the same matrix; then as 02.1.
void transpose_padded(const float* in, float* out, int rows, int cols);

/// Exercise 02.3 — the same transpose with 8-byte elements.
/// Graded: exact result; bandwidth (16 bytes per element) against the copy ceiling. The
/// starter ships the naive transpose; a double occupies two banks, so count the conflicts
/// again before reusing the float tile. Like 02.2, graded first on a matrix the L2 holds,
/// against the grader's padded tile of doubles there.
void transpose_double(const double* in, double* out, int rows, int cols);
