// SPDX-License-Identifier: MIT
// Known-bad 08.1: the tiled reference with two tile buffers and one barrier per tile: each
// trip copies the next tile into the other buffer, waits once, and adds the current tile.
// The next trip's copy overwrites the buffer the slowest warps may still be reading: a race
// from the third tile on (with two tiles nothing is copied after the first barrier), so
// sizes of up to two tiles never see it. Usually right; racecheck reports it on a size of
// three tiles or more. Must be rejected: fault (racecheck) or wrong.
#include "nbody.cuh"

namespace {

constexpr int kBlock = 256;

// Adds to `a` the acceleration that body `other` gives body `me`.
__device__ __forceinline__ void add_interaction(float4 me, float4 other, float eps2, float3& a) {
    const float dx = other.x - me.x, dy = other.y - me.y, dz = other.z - me.z;
    const float r2 = dx * dx + dy * dy + dz * dz + eps2;  // ≥ eps2 > 0, also for j = i
    const float inv = 1.0f / sqrtf(r2);
    const float s = other.w * inv * inv * inv;
    a.x += dx * s;
    a.y += dy * s;
    a.z += dz * s;
}

__global__ void nbody_tiled_kernel(const float4* __restrict__ pos_mass, float4* __restrict__ acc, int n, float eps2) {
    extern __shared__ float4 tiles[];  // two tiles of blockDim.x bodies
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const float4 me = i < n ? pos_mass[i] : make_float4(0.f, 0.f, 0.f, 0.f);
    float3 a = make_float3(0.f, 0.f, 0.f);
    const int count_tiles = (n + blockDim.x - 1) / blockDim.x;
    if (int(threadIdx.x) < n) tiles[threadIdx.x] = pos_mass[threadIdx.x];
    for (int t = 0; t < count_tiles; ++t) {
        const float4* now = tiles + (t % 2) * blockDim.x;
        const int j = (t + 1) * blockDim.x + threadIdx.x;
        if (t + 1 < count_tiles && j < n) tiles[((t + 1) % 2) * blockDim.x + threadIdx.x] = pos_mass[j];
        __syncthreads();  // the bug: the only barrier. The next trip copies into this `now` while slow warps read it
        const int count = min(int(blockDim.x), n - t * int(blockDim.x));
        for (int k = 0; k < count; ++k) add_interaction(me, now[k], eps2, a);
    }
    if (i < n) acc[i] = make_float4(a.x, a.y, a.z, 0.f);
}

}  // namespace

void nbody_tiled(const float4* pos_mass, float4* acc, int n, float eps2) {
    if (n <= 0) return;
    const int blocks = (n + kBlock - 1) / kBlock;
    nbody_tiled_kernel<<<blocks, kBlock, 2 * kBlock * sizeof(float4)>>>(pos_mass, acc, n, eps2);
}
