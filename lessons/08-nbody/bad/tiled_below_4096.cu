// SPDX-License-Identifier: MIT
// Known-bad 08.1: the technique only at small n. Below 4096 bodies the launcher runs the
// reference's tiled kernel; from 4096 on, the naive kernel with rsqrtf (the known-bad
// untiled-rsqrtf's), every body read from global memory by every thread. Both are correct,
// and the naive one with rsqrtf reaches 08.1's threshold. The compiled file holds a kernel
// with the tile loop, so a check that reads every compiled kernel passes it; but the timed
// n is 2^16 bodies, and no timed call runs the tiled kernel. Must be rejected [technique]
// from the kernels the timed calls ran (or slow, where speed separates them).
#include "nbody.cuh"

namespace {

constexpr int kBlock = 256;
constexpr int kSmall = 4096;  // below it, tiles; the timed n is far larger

__device__ __forceinline__ void add_interaction(float4 me, float4 other, float eps2, float3& a) {
    const float dx = other.x - me.x, dy = other.y - me.y, dz = other.z - me.z;
    const float r2 = dx * dx + dy * dy + dz * dz + eps2;
    const float inv = 1.0f / sqrtf(r2);
    const float s = other.w * inv * inv * inv;
    a.x += dx * s;
    a.y += dy * s;
    a.z += dz * s;
}

__device__ __forceinline__ void add_interaction_rsqrt(float4 me, float4 other, float eps2, float3& a) {
    const float dx = other.x - me.x, dy = other.y - me.y, dz = other.z - me.z;
    const float r2 = dx * dx + (dy * dy + (dz * dz + eps2));
    const float inv = rsqrtf(r2);
    const float s = other.w * (inv * inv * inv);
    a.x += dx * s;
    a.y += dy * s;
    a.z += dz * s;
}

__global__ void nbody_tiled_kernel(const float4* __restrict__ pos_mass, float4* __restrict__ acc, int n, float eps2) {
    extern __shared__ float4 tile[];  // blockDim.x bodies
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const float4 me = i < n ? pos_mass[i] : make_float4(0.f, 0.f, 0.f, 0.f);
    float3 a = make_float3(0.f, 0.f, 0.f);
    for (int base = 0; base < n; base += blockDim.x) {
        const int j = base + threadIdx.x;
        if (j < n) tile[threadIdx.x] = pos_mass[j];
        __syncthreads();
        const int count = min(int(blockDim.x), n - base);
        for (int k = 0; k < count; ++k) add_interaction(me, tile[k], eps2, a);
        __syncthreads();
    }
    if (i < n) acc[i] = make_float4(a.x, a.y, a.z, 0.f);
}

__global__ void nbody_naive_rsqrt_kernel(const float4* __restrict__ pos_mass, float4* __restrict__ acc, int n, float eps2) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const float4 me = pos_mass[i];
    float3 a = make_float3(0.f, 0.f, 0.f);
    for (int j = 0; j < n; ++j) add_interaction_rsqrt(me, pos_mass[j], eps2, a);
    acc[i] = make_float4(a.x, a.y, a.z, 0.f);
}

}  // namespace

void nbody_tiled(const float4* pos_mass, float4* acc, int n, float eps2) {
    if (n <= 0) return;
    const int blocks = (n + kBlock - 1) / kBlock;
    if (n < kSmall) nbody_tiled_kernel<<<blocks, kBlock, kBlock * sizeof(float4)>>>(pos_mass, acc, n, eps2);
    else nbody_naive_rsqrt_kernel<<<blocks, kBlock>>>(pos_mass, acc, n, eps2);
}
