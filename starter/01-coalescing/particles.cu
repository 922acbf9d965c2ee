// SPDX-License-Identifier: MIT
// Contract: lessons/01-coalescing/contract/coalescing.cuh · test: meson test -C build lesson01 --test-args='-tc=01.2*'
// Exercise 01.2 — array of structures vs structure of arrays (theory: "AoS and SoA").
// The grader times the same drift step on an array of 48-byte Particle structures, of
// which the step needs 24 bytes: DRAM moves whole 32-byte sectors, so that version drags
// the unused force, mass, charge and id along. Here every field has an array of its own.
#include "coalescing.cuh"

void drift_soa(ParticleArrays particles, size_t n, float dt) {
    // TODO(01.2): write a kernel that does one drift step on the six arrays of `particles`
    // (x[i] += vx[i] * dt, and likewise y and z, for every i < n) and launch it here.
    // Consecutive threads on consecutive particles; a grid-stride loop with a few
    // particles per thread keeps more loads in flight.
    (void)particles;
    (void)n;
    (void)dt;
}
