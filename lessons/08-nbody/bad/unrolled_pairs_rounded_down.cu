// SPDX-License-Identifier: MIT
// Known-bad 08.2: the reference below 16384 bodies; from there on each thread computes two
// bodies, i and i + 256 of a block's 512, from the same tiles (every value read from shared
// memory feeds two interactions). The grid is n / 512 blocks, rounded down, as if n were a
// multiple of 512 like the published sizes: the last n mod 512 bodies are never written.
// Before the timed sizes varied (issue 32) every check passed on every GPU: every size
// checked from 16384 on, 65536 (timed) and 131072 (the contract's largest), is a multiple of
// 512. The timed calls now draw n from 65280 … 65536, all but 65536 itself with a remainder
// (grader/common/timed_sizes.hpp). Must be rejected: wrong (never written).
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

__global__ void __launch_bounds__(kTile)
    nbody_unrolled_kernel(const float4* __restrict__ pos_mass, float4* __restrict__ acc, int n, float eps2) {
    __shared__ float4 tile[kTile];
    const int i = blockIdx.x * kTile + threadIdx.x;
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
}

constexpr int kPairsFrom = 16384;

// Bodies i and i + kTile of the block's 2 · kTile; the launcher makes sure both exist.
__global__ void __launch_bounds__(kTile)
    nbody_pairs_kernel(const float4* __restrict__ pos_mass, float4* __restrict__ acc, int n, float eps2) {
    __shared__ float4 tile[kTile];
    const int i = blockIdx.x * 2 * kTile + threadIdx.x;
    const float4 me0 = pos_mass[i], me1 = pos_mass[i + kTile];
    float3 a0 = make_float3(0.f, 0.f, 0.f), a1 = make_float3(0.f, 0.f, 0.f);
    for (int base = 0; base < n; base += kTile) {
        const int j = base + threadIdx.x;
        tile[threadIdx.x] = j < n ? pos_mass[j] : make_float4(0.f, 0.f, 0.f, 0.f);
        __syncthreads();
#pragma unroll kUnroll
        for (int k = 0; k < kTile; ++k) {
            const float4 other = tile[k];
            add_interaction(me0, other, eps2, a0);
            add_interaction(me1, other, eps2, a1);
        }
        __syncthreads();
    }
    acc[i] = make_float4(a0.x, a0.y, a0.z, 0.f);
    acc[i + kTile] = make_float4(a1.x, a1.y, a1.z, 0.f);
}

}  // namespace

void nbody_unrolled(const float4* pos_mass, float4* acc, int n, float eps2) {
    if (n <= 0) return;
    if (n >= kPairsFrom) {
        nbody_pairs_kernel<<<n / (2 * kTile), kTile>>>(pos_mass, acc, n, eps2);  // BUG: rounds down
        return;
    }
    nbody_unrolled_kernel<<<(n + kTile - 1) / kTile, kTile>>>(pos_mass, acc, n, eps2);
}
