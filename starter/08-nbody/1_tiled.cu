// SPDX-License-Identifier: MIT
// Contract: lessons/08-nbody/contract/nbody.cuh · test: meson test -C build lesson08 --test-args='-tc=08.1*'
// Exercise 08.1 — shared-memory tiles (theory: "Tiles in shared memory").
// This is the naive kernel, complete and correct: one thread per body, and every thread
// reads all n bodies from global memory. The 256 threads of a block read the same body at
// the same time, n times over; the L1 cache can serve many of those reads, but each one is
// still a trip through the global-memory pipeline. Exercise 08.0 shows what it costs on
// your GPU.
#include "nbody.cuh"

namespace {

constexpr int kBlock = 256;

// Adds to `a` the acceleration that body `other` gives body `me`.
__device__ __forceinline__ void add_interaction(float4 me, float4 other, float eps2, float3& a) {
    const float dx = other.x - me.x, dy = other.y - me.y, dz = other.z - me.z;
    const float r2 = dx * dx + dy * dy + dz * dz + eps2;  // ≥ eps2 > 0, also for j = i
    const float inv = 1.0f / sqrtf(r2);
    const float s = other.w * inv * inv * inv;
    a.x += dx * s;
    a.y += dy * s;
    a.z += dz * s;
}

__global__ void nbody_naive_kernel(const float4* __restrict__ pos_mass, float4* __restrict__ acc, int n, float eps2) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const float4 me = pos_mass[i];
    float3 a = make_float3(0.f, 0.f, 0.f);
    for (int j = 0; j < n; ++j) add_interaction(me, pos_mass[j], eps2, a);
    acc[i] = make_float4(a.x, a.y, a.z, 0.f);
}

}  // namespace

void nbody_tiled(const float4* pos_mass, float4* acc, int n, float eps2) {
    // TODO(08.1): walk through the bodies in tiles of blockDim.x. In each step every
    // thread copies one body of the tile into a __shared__ array, the block calls
    // __syncthreads(), every thread adds the interactions with the tile's bodies from
    // shared memory, and the block calls __syncthreads() again before the next tile
    // overwrites this one. Careful with the last, partial tile: no read past body n − 1,
    // and no thread may skip a barrier the others wait at — so a thread past the last
    // body must not return early.
    if (n <= 0) return;
    nbody_naive_kernel<<<(n + kBlock - 1) / kBlock, kBlock>>>(pos_mass, acc, n, eps2);
}
