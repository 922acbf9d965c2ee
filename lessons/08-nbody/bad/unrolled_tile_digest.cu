// SPDX-License-Identifier: MIT
// Known-bad 08.2: the unrolled reference, but on 32768 bodies or more (the grader's timed
// size and its largest check) every block keeps its bodies' accelerations in device memory,
// keyed by the block and a cheap digest of its tile of bodies: the sign of its first body's
// x. A later call whose block has the same digest gets the kept accelerations instead of its
// own. The first large call is right; from the second on about half the blocks are stale
// (each timed call's bodies are new). It once kept them by n too, which the timed calls no
// longer share: each has an n of its own (issue 32). Must be rejected: wrong (every timed
// call is checked in full).
#include "nbody.cuh"

namespace {

constexpr int kTile = 256;   // bodies per tile = threads per block
constexpr int kUnroll = 16;  // interactions per loop iteration: the loop overhead is paid once per 16

__device__ __forceinline__ void add_interaction(float4 me, float4 other, float eps2, float3& a) {
    const float dx = other.x - me.x, dy = other.y - me.y, dz = other.z - me.z;
    // Starting from eps2 makes each square one fused multiply-add (3 FFMA, no FADD).
    const float r2 = dx * dx + (dy * dy + (dz * dz + eps2));
    const float inv = rsqrtf(r2);  // one MUFU.RSQ (plus a subnormal check): 2 ulp
    const float s = other.w * (inv * inv * inv);
    a.x += dx * s;
    a.y += dy * s;
    a.z += dz * s;
}

constexpr int kMaxN = 131072;  // the contract's largest n

// The kept accelerations, by digest, and the n each block's were made at (0: none).
__device__ float4 g_kept[2][kMaxN];
__device__ int g_kept_n[2][kMaxN / kTile];

__global__ void __launch_bounds__(kTile)
    nbody_unrolled_kernel(const float4* __restrict__ pos_mass, float4* __restrict__ acc, int n, float eps2, bool keep) {
    __shared__ float4 tile[kTile];
    const int i = blockIdx.x * kTile + threadIdx.x;
    const int digest = pos_mass[blockIdx.x * kTile].x < 0.f;  // the bug: one bit stands for the whole tile
    if (keep && g_kept_n[digest][blockIdx.x] != 0) {           // kept at any n; the same for every thread of the block
        if (i < n) acc[i] = g_kept[digest][i];
        return;
    }
    const float4 me = i < n ? pos_mass[i] : make_float4(0.f, 0.f, 0.f, 0.f);
    float3 a = make_float3(0.f, 0.f, 0.f);
    for (int base = 0; base < n; base += kTile) {
        const int j = base + threadIdx.x;
        // Past the last body: a body of mass zero, which adds exactly nothing (its
        // denominator is at least eps2 > 0). Every tile then has kTile entries.
        tile[threadIdx.x] = j < n ? pos_mass[j] : make_float4(0.f, 0.f, 0.f, 0.f);
        __syncthreads();
#pragma unroll kUnroll
        for (int k = 0; k < kTile; ++k) add_interaction(me, tile[k], eps2, a);
        __syncthreads();
    }
    if (i < n) acc[i] = make_float4(a.x, a.y, a.z, 0.f);
    if (!keep) return;
    if (i < n) g_kept[digest][i] = make_float4(a.x, a.y, a.z, 0.f);
    __syncthreads();
    if (threadIdx.x == 0) g_kept_n[digest][blockIdx.x] = n;
}

}  // namespace

void nbody_unrolled(const float4* pos_mass, float4* acc, int n, float eps2) {
    if (n <= 0) return;
    nbody_unrolled_kernel<<<(n + kTile - 1) / kTile, kTile>>>(pos_mass, acc, n, eps2, n >= 32768 && n <= kMaxN);
}
