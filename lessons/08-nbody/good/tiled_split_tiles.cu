// SPDX-License-Identifier: MIT
// Known-good 08.1: the tile split in two shared arrays, the positions as float4 (w unused)
// and the masses as floats, the interaction loop unrolled by four (#pragma unroll 4). The
// interactions' math reads the positions and the masses from two different shared loads
// and the body's own position from a register loaded before the loop: what the data-path
// traits (shared-fed-math, no-global-fed-math) must accept.
#include "nbody.cuh"

namespace {

constexpr int kBlock = 256;

__global__ void __launch_bounds__(kBlock)
    nbody_split_kernel(const float4* __restrict__ pos_mass, float4* __restrict__ acc, int n, float eps2) {
    __shared__ float4 pos[kBlock];
    __shared__ float mass[kBlock];
    const int i = blockIdx.x * kBlock + threadIdx.x;
    const float4 me = i < n ? pos_mass[i] : make_float4(0.f, 0.f, 0.f, 0.f);
    float ax = 0.f, ay = 0.f, az = 0.f;
    for (int base = 0; base < n; base += kBlock) {
        const int j = base + threadIdx.x;
        if (j < n) {
            const float4 b = pos_mass[j];
            pos[threadIdx.x] = b;
            mass[threadIdx.x] = b.w;
        }
        __syncthreads();
        const int count = min(kBlock, n - base);
#pragma unroll 4
        for (int k = 0; k < count; ++k) {
            const float dx = pos[k].x - me.x, dy = pos[k].y - me.y, dz = pos[k].z - me.z;
            const float r2 = dx * dx + dy * dy + dz * dz + eps2;
            const float inv = 1.0f / sqrtf(r2);
            const float s = mass[k] * inv * inv * inv;
            ax += dx * s;
            ay += dy * s;
            az += dz * s;
        }
        __syncthreads();
    }
    if (i < n) acc[i] = make_float4(ax, ay, az, 0.f);
}

}  // namespace

void nbody_tiled(const float4* pos_mass, float4* acc, int n, float eps2) {
    if (n <= 0) return;
    nbody_split_kernel<<<(n + kBlock - 1) / kBlock, kBlock>>>(pos_mass, acc, n, eps2);
}
