// SPDX-License-Identifier: MIT
// Known-bad 08.2: the reference kernel behind a launcher that remembers its last result and
// copies it back when called again with the same pointer, n and eps2. Every single check
// with fresh buffers passes; the grader's leapfrog run, which calls it on the same buffer
// with moving bodies, gets stale accelerations and its energy drifts (wrong). Where the
// allocator hands a later check the same address, that check fails first (wrong too).
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

}  // namespace

// BUG: the result is computed again only when the arguments change. The same buffer with
// new positions in it (every step of a simulation) gets the old accelerations.
void nbody_unrolled(const float4* pos_mass, float4* acc, int n, float eps2) {
    static const float4* last_pos = nullptr;
    static int last_n = 0;
    static float last_eps2 = 0;
    static float4* cache = nullptr;
    static int capacity = 0;
    if (n <= 0) return;
    if (pos_mass == last_pos && n == last_n && eps2 == last_eps2) {
        cudaMemcpyAsync(acc, cache, n * sizeof(float4), cudaMemcpyDeviceToDevice);
        return;
    }
    nbody_unrolled_kernel<<<(n + kTile - 1) / kTile, kTile>>>(pos_mass, acc, n, eps2);
    if (n > capacity) {
        cudaFree(cache);
        cudaMalloc(&cache, n * sizeof(float4));
        capacity = n;
    }
    cudaMemcpyAsync(cache, acc, n * sizeof(float4), cudaMemcpyDeviceToDevice);
    last_pos = pos_mass, last_n = n, last_eps2 = eps2;
}
