// SPDX-License-Identifier: MIT
// Known-bad 08.3: four lanes per body, each summing a contiguous quarter of the bodies
// straight from global memory, the quarters combined with __shfl_xor_sync. Each quarter is
// n / 4 bodies, rounded down: when n is not a multiple of 4, the last n % 4 bodies are
// never added (wrong).
#include "nbody.cuh"

namespace {

constexpr int kBlock = 256;
constexpr int kLanes = 4;  // lanes per body, neighbours in one warp

__device__ __forceinline__ void add_interaction(float4 me, float4 other, float eps2, float3& a) {
    const float dx = other.x - me.x, dy = other.y - me.y, dz = other.z - me.z;
    const float r2 = dx * dx + (dy * dy + (dz * dz + eps2));
    const float inv = rsqrtf(r2);
    const float s = other.w * (inv * inv * inv);
    a.x += dx * s;
    a.y += dy * s;
    a.z += dz * s;
}

__global__ void kernel(const float4* __restrict__ pos_mass, float4* __restrict__ acc, int n, float eps2) {
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    const int i = t / kLanes, lane = t % kLanes;
    const float4 me = i < n ? pos_mass[i] : make_float4(0.f, 0.f, 0.f, 0.f);
    const int quarter = n / kLanes;  // BUG: rounds down; bodies kLanes · quarter … n − 1 are lost
    float3 a = make_float3(0.f, 0.f, 0.f);
    for (int j = lane * quarter; j < (lane + 1) * quarter; ++j) add_interaction(me, pos_mass[j], eps2, a);
    for (int offset = 1; offset < kLanes; offset *= 2) {
        a.x += __shfl_xor_sync(0xffffffffu, a.x, offset);
        a.y += __shfl_xor_sync(0xffffffffu, a.y, offset);
        a.z += __shfl_xor_sync(0xffffffffu, a.z, offset);
    }
    if (lane == 0 && i < n) acc[i] = make_float4(a.x, a.y, a.z, 0.f);
}

}  // namespace

void nbody_split(const float4* pos_mass, float4* acc, int n, float eps2) {
    if (n <= 0) return;
    const int threads = n * kLanes;
    kernel<<<(threads + kBlock - 1) / kBlock, kBlock>>>(pos_mass, acc, n, eps2);
}
