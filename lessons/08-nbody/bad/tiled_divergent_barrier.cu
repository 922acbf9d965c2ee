// SPDX-License-Identifier: MIT
// Known-bad 08.1: the notes' tiled kernel, with its read past n fixed but its structure
// kept: the tile loop and its two __syncthreads() sit inside a grid-stride loop over
// i < n. In the last block the threads with i ≥ n never enter that loop: they exit, and the
// barriers are then reached by part of the block only (undefined behaviour). On current
// GPUs exited threads count as arrived, so nothing hangs; but they never load their slots
// of the tiles, and the bodies in the last block add the stale contents of those slots
// instead of the bodies that belong there (wrong).
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
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        const float4 me = pos_mass[i];
        float3 a = make_float3(0.f, 0.f, 0.f);
        for (int base = 0; base < n; base += blockDim.x) {
            const int j = base + threadIdx.x;
            if (j < n) tile[threadIdx.x] = pos_mass[j];
            __syncthreads();  // BUG: not every thread of the block gets here
            const int count = min(int(blockDim.x), n - base);
            for (int k = 0; k < count; ++k) add_interaction(me, tile[k], eps2, a);
            __syncthreads();
        }
        acc[i] = make_float4(a.x, a.y, a.z, 0.f);
    }
}

}  // namespace

void nbody_tiled(const float4* pos_mass, float4* acc, int n, float eps2) {
    if (n <= 0) return;
    kernel<<<(n + kBlock - 1) / kBlock, kBlock, kBlock * sizeof(float4)>>>(pos_mass, acc, n, eps2);
}
