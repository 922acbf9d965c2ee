// SPDX-License-Identifier: MIT
// Known-bad 08.1: the tiled reference, but from its fourth call on 32768 bodies or more —
// the grader's timed size and its largest check, none of its smaller ones — every other call
// takes only the first half of the bodies as sources (every acceleration written, its value
// wrong). Correct on every call before that. Must be rejected: wrong (every timed call is
// checked in full).
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

// `sources`: the bodies j the sums run over (n on a right call).
__global__ void nbody_tiled_kernel(const float4* __restrict__ pos_mass, float4* __restrict__ acc, int n, int sources,
                                   float eps2) {
    extern __shared__ float4 tile[];  // blockDim.x bodies
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    // A thread past the last body does not return: it still loads its share of every
    // tile and reaches every barrier. It only skips the final store.
    const float4 me = i < n ? pos_mass[i] : make_float4(0.f, 0.f, 0.f, 0.f);
    float3 a = make_float3(0.f, 0.f, 0.f);
    for (int base = 0; base < sources; base += blockDim.x) {
        const int j = base + threadIdx.x;
        if (j < sources) tile[threadIdx.x] = pos_mass[j];  // never a read past body n − 1
        __syncthreads();                            // the tile is complete before anyone reads it
        const int count = min(int(blockDim.x), sources - base);
        for (int k = 0; k < count; ++k) add_interaction(me, tile[k], eps2, a);
        __syncthreads();                            // everyone is done with it before it is overwritten
    }
    if (i < n) acc[i] = make_float4(a.x, a.y, a.z, 0.f);
}

}  // namespace

void nbody_tiled(const float4* pos_mass, float4* acc, int n, float eps2) {
    static long large_calls = 0;
    if (n <= 0) return;
    const bool skimp = n >= 32768 && ++large_calls > 3 && large_calls % 2 == 0;  // the bug
    const int blocks = (n + kBlock - 1) / kBlock;
    nbody_tiled_kernel<<<blocks, kBlock, kBlock * sizeof(float4)>>>(pos_mass, acc, n, skimp ? n / 2 : n, eps2);
}
