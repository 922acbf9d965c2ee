// SPDX-License-Identifier: MIT
// Known-bad 08.1: the tiled kernel without the second __syncthreads(), the one that keeps a
// fast warp from loading the next tile while slower warps still read this one. A race; the
// global load before the store usually gives the slow warps time to finish, so the results
// tend to come out right. Only racecheck reliably rejects it (as fault); its test runs
// under compute-sanitizer.
#include "nbody.cuh"

namespace {

constexpr int kBlock = 256;

__device__ __forceinline__ void add_interaction(float4 me, float4 other, float eps2, float3& a) {
    const float dx = other.x - me.x, dy = other.y - me.y, dz = other.z - me.z;
    const float r2 = dx * dx + dy * dy + dz * dz + eps2;
    const float inv = 1.0f / sqrtf(r2);
    const float s = other.w * inv * inv * inv;
    a.x += dx * s;
    a.y += dy * s;
    a.z += dz * s;
}

__global__ void kernel(const float4* __restrict__ pos_mass, float4* __restrict__ acc, int n, float eps2) {
    extern __shared__ float4 tile[];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const float4 me = i < n ? pos_mass[i] : make_float4(0.f, 0.f, 0.f, 0.f);
    float3 a = make_float3(0.f, 0.f, 0.f);
    for (int base = 0; base < n; base += blockDim.x) {
        const int j = base + threadIdx.x;
        if (j < n) tile[threadIdx.x] = pos_mass[j];
        __syncthreads();
        const int count = min(int(blockDim.x), n - base);
        for (int k = 0; k < count; ++k) add_interaction(me, tile[k], eps2, a);
        // BUG: no __syncthreads() here; the next iteration's store races with these reads
    }
    if (i < n) acc[i] = make_float4(a.x, a.y, a.z, 0.f);
}

}  // namespace

void nbody_tiled(const float4* pos_mass, float4* acc, int n, float eps2) {
    if (n <= 0) return;
    kernel<<<(n + kBlock - 1) / kBlock, kBlock, kBlock * sizeof(float4)>>>(pos_mass, acc, n, eps2);
}
