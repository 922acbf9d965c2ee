// SPDX-License-Identifier: MIT
/// @file
/// @brief Lesson 06 contract: seven versions of one sum, each removing one bottleneck of
///        the one before it.
///
/// Every step has the same launcher, for `float` and for `int`:
///
///     void reduce_stepK(const T* in, size_t n, T* out, T* scratch, int block_size);
///
/// - `in`: n values on the device, **1 ≤ n ≤ 2^30** (up to 4 GiB: the grader times at most
///   2^30 values, since CUB, its comparison, counts in int, and checks n = 2^30 itself,
///   where a count of bytes or indices held in 32 bits goes wrong). Allocated by the grader
///   (256-byte aligned, so `float4`/`int4` loads of `in` are allowed); const: the launcher
///   must not modify it. For `int`, the grader's inputs keep every partial sum, in any
///   order, within the range of int.
/// - `out`: one value on the device. When the work the launcher enqueued has finished,
///   `*out` holds the sum of `in[0] … in[n-1]`. The launcher must not read it back or
///   synchronize: the grader reads `*out` itself, so the timed region holds GPU work and
///   launch overhead only, exactly as for the CUB call it is compared with.
/// - `scratch`: room for at least reduction_scratch_elements(n) values on the device, for
///   the partial sums between passes. Its contents on entry are unspecified (the grader
///   fills it with 0xFF bytes); the launcher may use it freely, up to that size.
/// - `block_size`: threads per block, a power of two from 32 to 1024. Steps 1–6 must
///   launch their first pass with exactly this block size (the teaching table sweeps it);
///   step 7 may treat it as a hint and choose its own.
///
/// Everything is enqueued on the default stream. The launcher owns no memory: the grader
/// allocates `in`, `out` and `scratch` so that a read or write outside any of them is
/// detected (a fault, or guard values that spoil the sum). Kernel decomposition — launch again on the partial
/// sums until one value is left — is provided by kernel_decomposition.cuh.
///
/// Graded for every step: the exact sum on integers, the sum within the float tolerance
/// of theory.md on floats, at n = 1, n below one block, primes, n one above and one below
/// a power of two, and a large n; on integers at every n from 1 to 130 (block_size 32);
/// at n = 2^30 (block_size 256); for step 7 also at an n that runs its grid-stride loop at
/// least three times on this GPU; then the bandwidth of the float sum (4n bytes read) at
/// block_size 256, against a ceiling timed on the same input in the same run: for steps
/// 1–6 the grader's block-sum kernel (block_sum_ceiling.cuh) or the grader's copy of the
/// step before, for step 7 CUB DeviceReduce::Sum. Every timed call sums fresh values and
/// its result is checked, on the GPU, against the grader's own sum of them.
/// Host threads: a launcher may start threads, and must join them before it returns; a thread
/// or process of the submission still running after a call fails the exercise as
/// FAIL [outside] (docs/trust_model.md, "Nothing of the submission runs outside its calls").
/// Theory: lessons/06-reduction/theory.md.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

/// @brief Values of scratch the grader provides for n input values.
///
/// Two levels of partial sums at the smallest block size (32) with one value per thread,
/// ⌈n/32⌉ + ⌈n/1024⌉, rounded up generously.
constexpr size_t reduction_scratch_elements(size_t n) { return n / 16 + 64; }

/// Exercise 06.1 — interleaved addressing: at stride s, threads with tid % (2s) == 0 add.
void reduce_step1(const float* in, size_t n, float* out, float* scratch, int block_size);
/// @copydoc reduce_step1(const float*, size_t, float*, float*, int)
void reduce_step1(const int* in, size_t n, int* out, int* scratch, int block_size);

/// Exercise 06.2 — interleaved addressing with a strided index: the first threads add.
void reduce_step2(const float* in, size_t n, float* out, float* scratch, int block_size);
/// @copydoc reduce_step2(const float*, size_t, float*, float*, int)
void reduce_step2(const int* in, size_t n, int* out, int* scratch, int block_size);

/// Exercise 06.3 — sequential addressing: thread tid adds s[tid + s], s halving.
void reduce_step3(const float* in, size_t n, float* out, float* scratch, int block_size);
/// @copydoc reduce_step3(const float*, size_t, float*, float*, int)
void reduce_step3(const int* in, size_t n, int* out, int* scratch, int block_size);

/// Exercise 06.4 — first add during the load: a block covers 2 × block_size values.
void reduce_step4(const float* in, size_t n, float* out, float* scratch, int block_size);
/// @copydoc reduce_step4(const float*, size_t, float*, float*, int)
void reduce_step4(const int* in, size_t n, int* out, int* scratch, int block_size);

/// Exercise 06.5 — the last warp unrolled, with __syncwarp() between its steps.
void reduce_step5(const float* in, size_t n, float* out, float* scratch, int block_size);
/// @copydoc reduce_step5(const float*, size_t, float*, float*, int)
void reduce_step5(const int* in, size_t n, int* out, int* scratch, int block_size);

/// @brief Exercise 06.6 — complete unrolling: the block size is a template parameter.
///
/// The launcher dispatches on block_size to one of six compiled kernels.
void reduce_step6(const float* in, size_t n, float* out, float* scratch, int block_size);
/// @copydoc reduce_step6(const float*, size_t, float*, float*, int)
void reduce_step6(const int* in, size_t n, int* out, int* scratch, int block_size);

/// @brief Exercise 06.7 — one pass at memory speed, then a small final pass.
///
/// A grid-stride loop over 16-byte loads and warp shuffles. block_size is a hint here.
void reduce_step7(const float* in, size_t n, float* out, float* scratch, int block_size);
/// @copydoc reduce_step7(const float*, size_t, float*, float*, int)
void reduce_step7(const int* in, size_t n, int* out, int* scratch, int block_size);
