// SPDX-License-Identifier: MIT
// Known-bad 08.2: the reference with the inverse cube written as powf(r2, -1.5f). Correct,
// but powf is a library function of several dozen instructions with special cases (a
// logarithm and an exponential in extra precision) where rsqrtf is one MUFU instruction:
// rejected as slow.
#include "nbody.cuh"

namespace {

constexpr int kTile = 256;   // bodies per tile = threads per block
constexpr int kUnroll = 16;  // interactions per loop iteration: the loop overhead is paid once per 16

__device__ __forceinline__ void add_interaction(float4 me, float4 other, float eps2, float3& a) {
    const float dx = other.x - me.x, dy = other.y - me.y, dz = other.z - me.z;
    // Starting from eps2 makes each square one fused multiply-add (3 FFMA, no FADD).
    const float r2 = dx * dx + (dy * dy + (dz * dz + eps2));
    const float s = other.w * powf(r2, -1.5f);  // BUG (speed): dozens of instructions
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

}  // namespace

void nbody_unrolled(const float4* pos_mass, float4* acc, int n, float eps2) {
    if (n <= 0) return;
    nbody_unrolled_kernel<<<(n + kTile - 1) / kTile, kTile>>>(pos_mass, acc, n, eps2);
}
