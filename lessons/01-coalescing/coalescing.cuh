// SPDX-License-Identifier: MIT
/// @file
/// @brief Lesson 01 contract: the functions a student implements for memory coalescing.
///
/// Each function is a host launcher: it launches its kernel(s) on the default stream and
/// returns without synchronizing. The grader allocates every buffer with cudaMalloc (so
/// pointers are at least 256-byte aligned), fills the inputs, times the call and checks
/// the result. Theory: lessons/01-coalescing/theory.md.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

/// Exercise 01.1 — thread-to-element mapping.
/// c = a + b for rows × cols matrices stored row-major (element (r, c) at r * cols + c).
/// Graded: result within one float rounding; bandwidth (12 bytes per element).
void add_matrices(const float* a, const float* b, float* c, int rows, int cols);

/// A particle as a simulation might store it: 48 bytes, of which one drift step uses 24.
struct Particle {
    float3 position;
    float3 velocity;
    float3 force;
    float mass;
    float charge;
    int id;
};

/// The same particles as a structure of arrays: one array per coordinate. Only the arrays
/// a drift step uses are part of the contract.
struct ParticleArrays {
    float* x;
    float* y;
    float* z;
    const float* vx;
    const float* vy;
    const float* vz;
};

/// Exercise 01.2 — array of structures vs structure of arrays.
/// One drift step, position += velocity × dt, on an array of structures. Shipped complete
/// in the starter as the point of comparison; the grader times it but does not grade it.
void drift_aos(Particle* particles, size_t n, float dt);

/// Exercise 01.2 — the same step on a structure of arrays: for every i < n,
/// x[i] += vx[i] × dt (and y, z). Graded: result within two float roundings; bandwidth
/// (36 bytes per particle: 6 floats read, 3 written) against the copy ceiling.
void drift_soa(ParticleArrays particles, size_t n, float dt);
