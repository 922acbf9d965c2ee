// SPDX-License-Identifier: MIT
// Contract: lessons/08-nbody/contract/nbody.cuh · test: meson test -C build lesson08 --test-args='-tc=08.2*'
// Exercise 08.2 — the inner loop (theory: "The inner loop, instruction by instruction").
// This is the tiled kernel of 08.1, complete and correct. Its tile size is known only at
// run time (blockDim.x), so the compiler keeps a loop with a run-time trip count, and each
// interaction spends an IEEE square root and an IEEE division — two short instruction
// sequences with branches to slow paths — on one inverse square root.
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

__global__ void nbody_runtime_tile_kernel(const float4* __restrict__ pos_mass, float4* __restrict__ acc, int n,
                                          float eps2) {
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

}  // namespace

void nbody_unrolled(const float4* pos_mass, float4* acc, int n, float eps2) {
    // TODO(08.2): make the tile size a compile-time constant (a static __shared__ array of
    // kTile bodies, kTile threads per block), pad the last tile with bodies of mass zero so
    // that every tile has kTile entries, unroll the inner loop (#pragma unroll 8 or 16),
    // and compute the inverse square root with rsqrtf(). Start r2 from eps2 so that each
    // square is one fused multiply-add. The 08.0 table shows what each change is worth.
    if (n <= 0) return;
    const int blocks = (n + kBlock - 1) / kBlock;
    nbody_runtime_tile_kernel<<<blocks, kBlock, kBlock * sizeof(float4)>>>(pos_mass, acc, n, eps2);
}
