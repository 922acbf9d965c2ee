// SPDX-License-Identifier: MIT
/// @file
/// @brief Lesson 03 contract: single-precision matrix products (SGEMM) a student speeds
///        up stage by stage, from a coalesced thread mapping to tiles in shared memory
///        and several outputs per thread.
///
/// Each function is a host launcher: it launches its kernel(s) on the default stream and
/// returns without synchronizing. Matrices are stored row-major: A is M × K (element (i, k)
/// at i * K + k), C is M × N. The grader allocates every buffer (no overlap, 256-byte
/// aligned; an access outside a buffer is detected), uses sizes that are multiples of no tile (M, N, K ≥ 1), and
/// compares with a float64 host reference within a tolerance that grows with K (theory
/// page, section "How close is correct"). The arithmetic must be FP32: TF32 or half
/// precision tensor cores round the inputs to 10 mantissa bits and fail that tolerance.
/// Speed is graded as a fraction of cuBLAS SGEMM timed on the same product in the same run.
/// Theory: lessons/03-tiling/theory.md.
#pragma once
#include <cuda_runtime.h>

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
