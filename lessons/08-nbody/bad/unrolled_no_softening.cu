// SPDX-License-Identifier: MIT
// Known-bad 08.2: the reference without the softening. For j = i (and for bodies at the
// same position) r2 is 0, rsqrtf(0) is infinity, and 0 · infinity is NaN: every
// acceleration is NaN (wrong). The sum over all j may include j = i only because eps2 > 0.
#include "nbody.cuh"

namespace {

constexpr int kTile = 256;   // bodies per tile = threads per block
constexpr int kUnroll = 16;  // interactions per loop iteration: the loop overhead is paid once per 16

__device__ __forceinline__ void add_interaction(float4 me, float4 other, float eps2, float3& a) {
    const float dx = other.x - me.x, dy = other.y - me.y, dz = other.z - me.z;
    const float r2 = dx * dx + (dy * dy + dz * dz);  // BUG: no eps2, so r2 = 0 for j = i
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

}  // namespace

void nbody_unrolled(const float4* pos_mass, float4* acc, int n, float eps2) {
    if (n <= 0) return;
    nbody_unrolled_kernel<<<(n + kTile - 1) / kTile, kTile>>>(pos_mass, acc, n, eps2);
}
