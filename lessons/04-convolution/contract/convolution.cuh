// SPDX-License-Identifier: MIT
/// @file
/// @brief Lesson 04 contract: a 2D filter over a single-channel float image, four times,
///        each version moving the data it reuses closer to the arithmetic.
///
/// Every exercise has two functions: `set_filter_X(weights, k)` and the launcher
/// `conv_X(in, out, rows, cols)`.
///
/// **The filter.** `set_filter_X` receives `weights` in host memory: k × k floats,
/// row-major (weight (i, j) at i * k + j), k odd, 1 ≤ k ≤ kMaxFilterWidth. It stores them
/// wherever the exercise's kernels read them (a `__device__` or `__constant__` array of the
/// same .cu file; copying with cudaMemcpyToSymbol is fine, and it may synchronize) and
/// remembers k. The pointer is not valid after it returns. The grader calls it before the
/// calls of conv_X that use that filter, never between a launch and its verification, and
/// outside the timed region; conv_X must use the filter set last.
///
/// **The result.** With r = (k − 1) / 2, conv_X writes every pixel of `out`:
///
///     out(y, x) = Σ_{i=0}^{k−1} Σ_{j=0}^{k−1} w(i, j) · in(y − r + i, x − r + j)
///
/// where pixel (y, x) is at y * cols + x and `in` is **zero outside the image** (zero
/// padding). This is a cross-correlation: weight (0, 0) meets the pixel up and to the left
/// of the output pixel. A convolution in the textbook sense flips the filter first
/// (w(k−1−i, k−1−j)); libraries differ in which one their "convolution" computes, so for a
/// filter that is not symmetric the two give different results, and only the one above is
/// right here (theory.md, "Cross-correlation with zero padding").
///
/// **The launcher.** `in` (rows × cols floats, const: the launcher must not modify it) and
/// `out` (rows × cols floats) are device buffers allocated by the grader: 256-byte aligned,
/// not overlapping, with a read or write outside either one detected (a fault, or guard
/// values that spoil the result). 0 ≤ rows ≤ 65536 and 0 ≤ cols ≤ 65536 (an image may be
/// empty: then nothing is launched), rows × cols < 2^31, sizes that are multiples of no
/// tile. Checked: 0 rows, 0 columns, 65536 × 3 and 3 × 65536 (more blocks than gridDim.y
/// or gridDim.z allows, for a launcher with a block per row or column), and, after a passing
/// speed grade, 23173 × 23173 at the graded k, past 2^31 bytes a buffer, where the GPU has
/// the memory (8.5 GiB): a byte offset held in an int goes wrong there. The top of rows ×
/// cols (8 GiB a buffer) is not checked. The launcher enqueues its kernel(s) on the
/// default stream and returns without synchronizing; the grader waits, times and checks.
/// Kernels must not let shared memory they did not write reach a result, not even
/// multiplied by zero: the grader fills shared memory with NaN before checked calls
/// (theory.md, "Halo through the caches").
///
/// **Graded.** Every pixel against a float64 host reference within the tolerance of
/// theory.md ("How close is correct"), for k = 1 … 15 on empty, tiny, thin, tall, wide,
/// flush and medium images and three input distributions; then speed on an image far larger
/// than the L2 at the exercise's graded k, as a fraction of this GPU's roofline for the
/// minimal work (8 bytes and 2k² flops per pixel). Before every timed call the grader
/// writes a fresh image and sets a fresh filter through set_filter_X (outside the timed
/// region); every pixel of every timed call is compared with the grader's own result.
/// Host threads: a launcher may start threads, and must join them before it returns; a thread
/// or process of the submission still running after a call fails the exercise as
/// FAIL [outside] (docs/trust_model.md, "Nothing of the submission runs outside its calls").
/// Theory: lessons/04-convolution/theory.md.
#pragma once
#include <cuda_runtime.h>

/// The largest filter width the grader uses: filters are at most 15 × 15 (225 weights).
constexpr int kMaxFilterWidth = 15;

/// Exercise 04.1 — the filter in constant memory. Stores the weights for conv_constant().
void set_filter_constant(const float* weights, int k);
/// Exercise 04.1 — one thread per output pixel, reading its k × k neighbours from global
/// memory and the weights from `__constant__` memory. The starter reads them from a
/// `__device__` array in global memory.
void conv_constant(const float* in, float* out, int rows, int cols);

/// Exercise 04.2 — halo tiles. Stores the weights for conv_tiled().
void set_filter_tiled(const float* weights, int k);
/// Exercise 04.2 — each block loads its output tile plus a halo of r pixels on every side
/// into shared memory (pixels outside the image as 0) and computes from there. The starter
/// is the untiled kernel of 04.1.
void conv_tiled(const float* in, float* out, int rows, int cols);

/// Exercise 04.3 — inner tile in shared memory, halo through the caches. Stores the weights
/// for conv_cache_halo().
void set_filter_cache_halo(const float* weights, int k);
/// Exercise 04.3 — each block loads only its own tile into shared memory and reads the
/// halo pixels, which neighbouring blocks own, from global memory through the L1 cache.
/// The starter is the untiled kernel of 04.1.
void conv_cache_halo(const float* in, float* out, int rows, int cols);

/// Exercise 04.4 — as fast as you can. Stores the weights for conv_fast().
void set_filter_fast(const float* weights, int k);
/// Exercise 04.4 — the filter width as a template parameter (the launcher dispatches on
/// k), fully unrolled loops and several outputs per thread held in registers, so that each
/// value read from shared memory feeds several multiply-adds. The starter is the halo-tile
/// kernel of 04.2.
void conv_fast(const float* in, float* out, int rows, int cols);
