// SPDX-License-Identifier: MIT
/// @file
/// @brief The grader's own N-body kernels for lesson 08: copies of the starters' and the
///        references' kernels (timed when a submission is too slow), the versions the
///        teaching table compares, the baseline of exercise 08.3, and the sums of
///        magnitudes the checks derive their bounds from.
///
/// Grader code: students never edit or link their own version of it. Every launcher
/// computes the same accelerations as the contract (nbody.cuh) on the default stream,
/// except layout_* (the same bodies in other layouts) and magnitudes(). Where a launcher
/// stands for a starter's or a reference's kernel (noted below), it runs a copy of that
/// kernel (`// copy of` in nbody_variants.cu) with the grid, block and shared memory of
/// that file's launcher; the grader's own variants add r2 from eps2 and take m·(r·r·r), as
/// 08.2's reference does.
///
/// The student release holds no answer: the release tool removes the copies of the 08.1
/// and 08.2 references' kernels and every kernel with several threads per body (which
/// passes 08.3: split() above 1, checked() above 1), together with LESSON08_ANSWER_KERNELS.
/// There tiled_runtime() has no recip_sqrt, so the release's grader leaves out the 08.0 row
/// of the 08.1 reference, the threads-per-body rows above 1 and 08.2's measured slow hint
/// (08.2 gives its plain hint instead); checked() uses one thread per body; and where the
/// 08.2 reference's kernel runs here (tiled_fixed() with rsqrt and kReferenceUnroll,
/// one_thread_per_body(), split() with 1), the release runs the grader's own kernel of its
/// shape, which adds the same terms in the same order: 08.3's baseline comes from it.
#pragma once
#include <cuda_runtime.h>

// student-release: omit (answers: the release's grader is built without them)
/// Defined where the grader has the kernels above that answer an exercise: in the course,
/// not in the student release.
#define LESSON08_ANSWER_KERNELS 1
// student-release: end

namespace variants {

/// How an interaction computes 1 / (r² + ε²)^{3/2}.
enum class InvCube {
    rsqrt,         ///< r = rsqrtf(r²); r·r·r — one MUFU.RSQ (08.2)
    rsqrt_ftz,     ///< the same through PTX rsqrt.approx.ftz.f32: no subnormal fix-up
    recip_sqrt,    ///< r = 1.0f / sqrtf(r²) — IEEE square root and division (08.1)
    pow,           ///< powf(r², -1.5f)
    double_math,   ///< 1 / (r² √r²) in double, as a stray double literal or pow(float, double) does
};

/// One thread per body; every body read from global memory in the inner loop. With `math`
/// = recip_sqrt the 08.1 starter's kernel; rsqrt the grader's own.
void naive(const float4* pos_mass, float4* acc, int n, float eps2, InvCube math);

/// One thread per body; tiles of 256 bodies in dynamic shared memory, the inner loop's trip
/// count known only at run time. With recip_sqrt the 08.1 reference's kernel (08.2's
/// starter); rsqrt the grader's own.
void tiled_runtime(const float4* pos_mass, float4* acc, int n, float eps2, InvCube math);

/// Tiles of 256 fixed at compile time, the last one padded with massless bodies, the inner
/// loop unrolled `unroll` times. Instantiated: rsqrt with unroll 1, 2, 4, 8, 16 or 256; the
/// other maths with unroll kReferenceUnroll. rsqrt with kReferenceUnroll is the 08.2
/// reference's kernel.
void tiled_fixed(const float4* pos_mass, float4* acc, int n, float eps2, InvCube math, int unroll);
inline constexpr int kReferenceUnroll = 16;

/// The baseline of 08.3: its starter's kernel, which is the 08.2 reference's (tiled_fixed
/// with rsqrt and kReferenceUnroll), one thread per body, blocks of 256.
void one_thread_per_body(const float4* pos_mass, float4* acc, int n, float eps2);

/// tiled_fixed with `threads_per_body` (1, 2, 4, 8 or 16) threads per body, each taking one
/// part of every tile; partial sums added through shared memory. 1 is one_thread_per_body;
/// the others are the grader's own, not the 08.3 reference's kernel (which picks P itself).
void split(const float4* pos_mass, float4* acc, int n, float eps2, int threads_per_body);

/// A body as the notes' array of structures holds it: seven floats, 28 bytes.
struct Body7 {
    float x, y, z, vx, vy, vz, m;
};

/// The same interactions (rsqrt) on other layouts of the bodies: `soa` is four arrays
/// x, y, z, m; `aos7` an array of Body7.
void naive_soa(const float* x, const float* y, const float* z, const float* m, float4* acc, int n, float eps2);
void naive_aos7(const Body7* bodies, float4* acc, int n, float eps2);
/// Tiles held as four shared arrays (one 4-byte load per coordinate per interaction).
void tiled_soa(const float* x, const float* y, const float* z, const float* m, float4* acc, int n, float eps2);
/// Tiles of float4 in shared memory, filled from the 28-byte structures.
void tiled_aos7(const Body7* bodies, float4* acc, int n, float eps2);

/// The grader's own result for the checks made on the device (every timed call, and the
/// untimed sizes too large for the float64 host reference), in one pass: `acc` as split()
/// computes it (rsqrtf, tiles of 256), with as many threads per body (1, 2, 4 or 8) as give
/// every SM two blocks, and `magnitude` x, y, z as magnitudes() defines them (w left 0),
/// from the same differences. Costs about as much as one call of a student's kernel.
void checked(const float4* pos_mass, float4* acc, float4* magnitude, int n, float eps2);

/// For the checks: out[i] = (Σ_j m_j |x_j − x_i| / s³, the same for y and z,
/// Σ_j m_j (|r_i| + |r_j|) / s³) with s² = |r_j − r_i|² + eps2, summed in float. Every
/// term is positive, so the float sums lie within a relative (n + 20)·2⁻²⁴ of the exact
/// ones (theory page, "How close is correct").
void magnitudes(const float4* pos_mass, float4* out, int n, float eps2);

}  // namespace variants
