// SPDX-License-Identifier: MIT
/// @file
/// @brief Lesson 01 contract: the functions a student implements for memory coalescing.
///
/// Each function is a host launcher: it launches its kernel(s) on the default stream and
/// returns without synchronizing. The grader allocates every buffer (256-byte aligned, no
/// overlap; a read or write outside a buffer is detected), fills the inputs, times the
/// call and checks the result. Theory: lessons/01-coalescing/theory.md.
///
/// Host threads: a launcher may start threads, and must join them before it returns; a thread
/// or process of the submission still running after a call fails the exercise as
/// FAIL [outside] (docs/trust_model.md, "Nothing of the submission runs outside its calls").
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

/// Exercise 01.1 — thread-to-element mapping.
/// c = a + b for rows × cols matrices stored row-major (element (r, c) at r * cols + c),
/// rows ≥ 0 and cols ≥ 0 (a matrix may be empty: then nothing is launched), rows · cols
/// < 2^31. Either dimension may exceed 65535 (checked: 65537 × 3 and 3 × 65537), so a grid
/// dimension that counts rows or columns must fit gridDim.y's limit some other way. Checked
/// past 2^31 bytes a matrix (23173 × 23173, with a and b one matrix), where the GPU has the
/// memory (6.5 GiB): a byte offset in an int goes wrong there; the top of the element range
/// (8 GiB a matrix) is not.
/// Graded: result within one float rounding; bandwidth (12 bytes per element).
void add_matrices(const float* a, const float* b, float* c, int rows, int cols);

/// Particles as a structure of arrays: one array per coordinate. Only the arrays a drift
/// step uses are part of the contract. (The grader also times the same step on an array
/// of 48-byte structures, for comparison; see theory.md, "AoS and SoA".)
struct ParticleArrays {
    float* x;
    float* y;
    float* z;
    const float* vx;
    const float* vy;
    const float* vz;
};

/// Exercise 01.2 — one drift step on a structure of arrays: for every i < n (0 ≤ n < 2^31;
/// checked up to the timed size and at 2^29 + 4099, past 2^31 bytes an array, where the GPU
/// has the memory (18.5 GiB; vx, vy and vz are then one array), not at the top of the range),
/// x[i] += vx[i] × dt (and y, z). Graded: result within two float roundings; bandwidth
/// (36 bytes per particle: 6 floats read, 3 written) against the copy ceiling.
void drift_soa(ParticleArrays particles, size_t n, float dt);
