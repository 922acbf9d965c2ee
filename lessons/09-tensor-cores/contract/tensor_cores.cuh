// SPDX-License-Identifier: MIT
/// @file
/// @brief Lesson 09 contract: the matrix product with FP16 inputs and FP32 accumulation
///        (HGEMM) on tensor cores, from warp fragments read from global memory to block
///        tiles in shared memory and a multi-stage cp.async pipeline.
///
/// Each function is a host launcher: it launches its kernel(s) on the default stream and
/// returns without synchronizing. Matrices are stored row-major: A is M × K halves (element
/// (i, k) at i * K + k), B is K × N halves (element (k, j) at k * N + j), C is M × N floats.
/// C(i, j) = Σ_k A(i, k) · B(k, j), every product and every sum in FP32 or wider: a product
/// of two halves is exact in FP32 (11 + 11 significant bits ≤ 24), so the only error allowed
/// is that of FP32 accumulation, in any order and in blocks of up to 32 products added at once
/// with truncation, as tensor cores add them: |C − C₆₄| ≤ γ_{2K+32} Σ_k m(A(i, k)) m(B(k, j)),
/// γ_n = n u / (1 − n u) with u = 2^-23, a whole unit in the last place, and m(x) = |x| but
/// for an FP16 subnormal, which counts as 2^-14, the magnitude its exponent aligns it at
/// (theory page, "How close is correct", derives it). Half-precision accumulation (an FP16
/// accumulator fragment) fails that bound.
///
/// The grader allocates every buffer (no overlap, 256-byte aligned; an access outside a
/// buffer is detected) and compares with a float64 host sum of the same FP16 inputs; timed
/// calls with cuBLAS (cublasGemmEx: FP16 in, FP32 compute and output) on the same inputs,
/// within twice that bound. Speed is graded against yardsticks timed on the same product in
/// the same run (lessons/09-tensor-cores/thresholds.txt).
///
/// Sizes: 0 ≤ M, N ≤ kHgemmMaxMN, 0 ≤ K ≤ kHgemmMaxK, and M · K, K · N and M · N each < 2^31
/// elements. hgemm_fragments() and hgemm_pipelined() are called only with M, N and K
/// multiples of 16: a WMMA fragment is 16 × 16 × 16, and cp.async moves 16-byte chunks (8
/// halves), so a tile row must start on a 16-byte boundary. hgemm_shared() takes any size:
/// its edge tiles are filled with zeros in shared memory. M = 0 or N = 0: C is empty and
/// nothing is launched (a launch with an empty grid is an error). K = 0: every element of C
/// is 0. The grader checks M, N and K at 0, 16 and the top of their ranges, the other sides
/// small, and M × N × K = 23184 × 23184 × 32 (23173 × 23173 × 33 for hgemm_shared), C past
/// 2^31 bytes, where the GPU has the memory (6.5 GiB); the products are not checked at their
/// top (2^31 floats of C are 8 GiB).
/// Host threads: a launcher may start threads, and must join them before it returns; a thread
/// or process of the submission still running after a call fails the exercise as
/// FAIL [outside] (docs/trust_model.md, "Nothing of the submission runs outside its calls").
/// cuBLAS, cuBLASLt, CUTLASS and CuTe are the grader's yardsticks, not solutions: a student
/// file that names them fails before it is built (policy.txt).
/// Theory: lessons/09-tensor-cores/theory.md.
#pragma once
#include <cuda_fp16.h>
#include <cuda_runtime.h>

/// The largest M and N: 65535 × 16, so that a grid may put blocks of 16 or more rows (one
/// fragment) of C along gridDim.y, whose limit is 65535 blocks.
inline constexpr int kHgemmMaxMN = 65535 * 16;
/// The largest K, 2^16: the tolerance γ_{2K+32} is then about 1.6 % of Σ_k |A(i, k) B(k, j)|.
/// Every FP16 product is below 65504² < 2^32, so no sum of 2^16 of them leaves FP32's range.
inline constexpr int kHgemmMaxK = 1 << 16;

/// Exercise 09.1 — fragments.
/// C = A · B for M, N and K multiples of 16, on tensor cores: each warp computes a tile of C
/// with WMMA (or mma.sync) fragments loaded from global memory. The starter ships an FP32
/// CUDA-core kernel on the inputs converted to float.
void hgemm_fragments(const __half* A, const __half* B, float* C, int M, int N, int K);

/// Exercise 09.2 — block tiles in shared memory.
/// C = A · B for any sizes, on tensor cores: a block stages tiles of A and B in shared
/// memory, padded or swizzled so that the fragment loads do not conflict, with zeros past the
/// edges of A and B. The starter ships 09.1's kernel, with a CUDA-core kernel for sizes that
/// are not multiples of 16.
void hgemm_shared(const __half* A, const __half* B, float* C, int M, int N, int K);

/// Exercise 09.3 — a multi-stage cp.async pipeline (sm_80 and newer: on sm_75 the grader
/// reports SKIP, since cp.async does not exist there).
/// C = A · B for M, N and K multiples of 16: the copies of the next tiles from global into
/// shared memory are in flight while the tensor cores work on the current one. The starter
/// ships 09.2's kernel, whose loads and math take turns.
void hgemm_pipelined(const __half* A, const __half* B, float* C, int M, int N, int K);
