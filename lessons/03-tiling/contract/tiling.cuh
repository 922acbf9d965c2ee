// SPDX-License-Identifier: MIT
/// @file
/// @brief Lesson 03 contract: single-precision matrix products (SGEMM) a student speeds
///        up stage by stage, from a coalesced thread mapping to tiles in shared memory
///        and several outputs per thread.
///
/// Each function is a host launcher: it launches its kernel(s) on the default stream and
/// returns without synchronizing. Matrices are stored row-major: A is M × K (element (i, k)
/// at i * K + k), C is M × N. The grader allocates every buffer (no overlap, 256-byte
/// aligned; an access outside a buffer is detected), uses sizes that are multiples of no
/// tile, and compares with a float64 host reference within a tolerance that grows with K
/// (theory page, section "How close is correct"); timed calls, with cuBLAS on the same
/// inputs, within twice that. The arithmetic must be FP32: TF32 or half precision tensor
/// cores round the inputs to 10 mantissa bits and fail that tolerance. Speed is graded as
/// a fraction of cuBLAS SGEMM timed on the same product in the same run.
///
/// Sizes: 0 ≤ M ≤ kSgemmMaxMN, 0 ≤ N ≤ kSgemmMaxMN, 0 ≤ K ≤ kSgemmMaxK, and M · K, K · N
/// and M · N each < 2^31 elements. M = 0 or N = 0: C is empty and nothing is launched (a
/// launch with an empty grid is an error). K = 0: every element of C is 0. The grader
/// checks each of M, N and K at 0, 1 and the top of its range, the other sides small, and
/// M × N × K = 23173 × 23173 × 37, C past 2^31 bytes, where the GPU has the memory
/// (6.5 GiB); the products are not checked at their top (2^31 floats are 8 GiB).
/// Host threads: a launcher may start threads, and must join them before it returns; a thread
/// or process of the submission still running after a call fails the exercise as
/// FAIL [outside] (docs/trust_model.md, "Nothing of the submission runs outside its calls").
/// Theory: lessons/03-tiling/theory.md.
#pragma once
#include <cuda_runtime.h>

/// The largest M and N: 65535 × 8, so that a grid may put blocks of 8 or more rows (or
/// columns) of C along gridDim.y, whose limit is 65535 blocks, but not one row per block.
inline constexpr int kSgemmMaxMN = 65535 * 8;
/// The largest K, 2^20: the tolerance grows with K, to about 7 % of Σ_k |A(i, k) B(k, j)|
/// there; much further and it would accept nearly anything.
inline constexpr int kSgemmMaxK = 1 << 20;

/// Exercise 03.1 — coalesced thread mapping.
/// C = A · B with B a K × N matrix (element (k, j) at k * N + j). The starter ships the
/// naive kernel whose threadIdx.x walks down a column of C.
void sgemm_coalesced(const float* A, const float* B, float* C, int M, int N, int K);

/// Exercise 03.2 — shared-memory tiles.
/// C = A · B, as sgemm_coalesced(); the threshold asks for the reuse that tiles give.
void sgemm_shared(const float* A, const float* B, float* C, int M, int N, int K);

/// Exercise 03.3 — thread coarsening.
/// C = A · B, as sgemm_coalesced(); the threshold asks for several outputs per thread
/// held in registers.
void sgemm_coarsened(const float* A, const float* B, float* C, int M, int N, int K);

/// Exercise 03.4 — A times B transposed.
/// C = A · Bᵀ with B an N × K matrix (element (j, k) at j * K + k), so
/// C(i, j) = Σ_k A(i, k) · B(j, k). The starter ships the naive kernel, whose reads of B
/// are 32 rows apart across a warp.
void sgemm_abt(const float* A, const float* B, float* C, int M, int N, int K);
