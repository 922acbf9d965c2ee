// SPDX-License-Identifier: MIT
/// @file
/// @brief Lesson 08 contract: the gravitational acceleration of every body of an N-body
///        system, all pairs, three times: tiled in shared memory, with an inner loop cut to
///        its essential instructions, and with several threads per body for small n.
///
/// Every exercise has the same launcher:
///
///     void nbody_K(const float4* pos_mass, float4* acc, int n, float eps2);
///
/// - `n`: **1 ≤ n ≤ 131072** (2^17; n² passes the range of int from n = 46341 on). The
///   grader checks both ends, every n from 1 to 64, and for nbody_split sizes that make
///   the reference's choice of threads per body (by n and the SM count) take each of its
///   paths on any GPU of 16 to 144 SMs.
/// - `pos_mass`: n bodies on the device, body j as (x_j, y_j, z_j, m_j): position and
///   mass, masses ≥ 0 and in general all different (some exactly zero), positions finite,
///   several bodies may share exactly the same position. Const: the launcher must not
///   modify it. Allocated by the grader, 256-byte aligned, with a read past body n − 1
///   detected (it faults, or reads NaN that spoils the result).
/// - `acc`: n float4 on the device. When the launcher's work has finished, acc[i].x, .y
///   and .z hold the acceleration of body i (G = 1, softened):
///
///       a_i = Σ_{j = 0 … n−1} m_j (r_j − r_i) / (|r_j − r_i|² + eps2)^{3/2}
///
///   The sum runs over every j, i included: that term is exactly zero because
///   r_i − r_i = 0 and eps2 > 0 keeps its denominator positive. acc[i].w is not part of the
///   result (the grader ignores it; the references write 0). The grader fills `acc` with
///   NaN before every call, so every body's x, y and z must be written on every call.
/// - `eps2`: the softening length squared, a normal positive float (the grader uses values
///   from 10⁻⁴ to 10⁻²).
///
/// Arithmetic in FP32: rsqrtf, fused multiply-adds and any summation order are fine; the
/// tolerance (theory page, "How close is correct") covers them, and it is far tighter
/// than what a lost body, a wrong sign or a missing softening produce. The launcher enqueues
/// its kernels on the default stream and returns without synchronizing; it allocates no
/// memory (acc may serve as working space before its final values are written).
///
/// Each exercise is checked against a float64 host reference at n = 1, 2, 3, 31, 257, 1000
/// and 4099 on five kinds of bodies (a uniform cube, a Plummer cluster, coincident bodies,
/// zero masses, masses and distances of mixed magnitudes) and at every n up to 64 on one
/// kind each; against the grader's own result
/// on the GPU at n = 131072 (and nbody_split at the sizes above); by 100 steps of a
/// grader-run leapfrog integration whose energy must stay within a bound the grader
/// derives, with Σ m_i a_i ≈ 0 at every step; and at its timed size on fresh bodies before
/// every call, the whole result checked on the GPU against the grader's own. Figures count
/// 20 flops per interaction (n² interactions per call).
/// Host threads: a launcher may start threads, and must join them before it returns; a thread
/// or process of the submission still running after a call fails the exercise as
/// FAIL [outside] (docs/trust_model.md, "Nothing of the submission runs outside its calls").
/// Theory: lessons/08-nbody/theory.md.
#pragma once
#include <cuda_runtime.h>

/// @brief Exercise 08.1 — shared-memory tiles.
///
/// One thread per body; the block loads the bodies tile by tile into shared memory and
/// every thread takes its interactions from there. Graded at n = 65536 (each timed call up
/// to 256 bodies fewer, drawn for it) as a fraction of this GPU's FP32 FMA peak. The starter
/// ships a kernel that reads every body from global memory.
void nbody_tiled(const float4* pos_mass, float4* acc, int n, float eps2);

/// @brief Exercise 08.2 — the inner loop: a compile-time tile, unrolling and rsqrtf.
///
/// As nbody_tiled(), with an inner loop of as few instructions per interaction as the
/// hardware allows. Graded at n = 65536 (each timed call up to 256 fewer) as a fraction of
/// the FP32 FMA peak. The starter ships the tiled kernel of 08.1.
void nbody_unrolled(const float4* pos_mass, float4* acc, int n, float eps2);

/// @brief Exercise 08.3 — several threads per body when n is small.
///
/// The same result; graded at 128 bodies per SM (16896 on 132 SMs; each timed call up to
/// ½ % fewer) against the grader's one-thread-per-body tiled kernel timed on the same
/// bodies in the same run. The starter ships the kernel of 08.2.
void nbody_split(const float4* pos_mass, float4* acc, int n, float eps2);
