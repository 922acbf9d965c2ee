// SPDX-License-Identifier: MIT
// Exercise 08.1 — reference. One thread per body, as in the starter, but the block walks
// through the bodies one tile of blockDim.x at a time: each thread copies one body of the
// tile into shared memory, the block waits, and every thread takes the tile's interactions
// from there. A body read from global memory now serves the whole block. The interaction
// itself is unchanged (1 / sqrtf): exercise 08.2 is about that.
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

//! [tile_loop]
__global__ void nbody_tiled_kernel(const float4* __restrict__ pos_mass, float4* __restrict__ acc, int n, float eps2) {
    extern __shared__ float4 tile[];  // blockDim.x bodies
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    // A thread past the last body does not return: it still loads its share of every
    // tile and reaches every barrier. It only skips the final store.
    const float4 me = i < n ? pos_mass[i] : make_float4(0.f, 0.f, 0.f, 0.f);
    float3 a = make_float3(0.f, 0.f, 0.f);
    for (int base = 0; base < n; base += blockDim.x) {
        const int j = base + threadIdx.x;
        if (j < n) tile[threadIdx.x] = pos_mass[j];  // never a read past body n − 1
        __syncthreads();                            // the tile is complete before anyone reads it
        const int count = min(int(blockDim.x), n - base);
        for (int k = 0; k < count; ++k) add_interaction(me, tile[k], eps2, a);
        __syncthreads();                            // everyone is done with it before it is overwritten
    }
    if (i < n) acc[i] = make_float4(a.x, a.y, a.z, 0.f);
}
//! [tile_loop]

}  // namespace

void nbody_tiled(const float4* pos_mass, float4* acc, int n, float eps2) {
    if (n <= 0) return;
    const int blocks = (n + kBlock - 1) / kBlock;
    nbody_tiled_kernel<<<blocks, kBlock, kBlock * sizeof(float4)>>>(pos_mass, acc, n, eps2);
}
