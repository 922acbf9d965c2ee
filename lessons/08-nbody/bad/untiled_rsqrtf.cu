// SPDX-License-Identifier: MIT
// Known-bad 08.1: fast without tiles. The starter's naive kernel — every thread reads all n
// bodies from global memory — with one change from 08.2: rsqrtf instead of 1 / sqrtf, about
// half the instructions per interaction. That alone reaches 08.1's threshold, which was set
// between the naive and the tiled kernel with 1 / sqrtf. Correct; its machine code stores
// nothing to shared memory and has no tile loop: rejected [technique].
#include "nbody.cuh"

namespace {

constexpr int kBlock = 256;

__device__ __forceinline__ void add_interaction(float4 me, float4 other, float eps2, float3& a) {
    const float dx = other.x - me.x, dy = other.y - me.y, dz = other.z - me.z;
    const float r2 = dx * dx + (dy * dy + (dz * dz + eps2));
    const float inv = rsqrtf(r2);  // 08.2's step, not 08.1's
    const float s = other.w * (inv * inv * inv);
    a.x += dx * s;
    a.y += dy * s;
    a.z += dz * s;
}

__global__ void nbody_naive_rsqrt_kernel(const float4* __restrict__ pos_mass, float4* __restrict__ acc, int n, float eps2) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const float4 me = pos_mass[i];
    float3 a = make_float3(0.f, 0.f, 0.f);
    for (int j = 0; j < n; ++j) add_interaction(me, pos_mass[j], eps2, a);
    acc[i] = make_float4(a.x, a.y, a.z, 0.f);
}

}  // namespace

void nbody_tiled(const float4* pos_mass, float4* acc, int n, float eps2) {
    if (n <= 0) return;
    nbody_naive_rsqrt_kernel<<<(n + kBlock - 1) / kBlock, kBlock>>>(pos_mass, acc, n, eps2);
}
