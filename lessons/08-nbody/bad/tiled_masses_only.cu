// SPDX-License-Identifier: MIT
// Known-bad 08.1: a shared tile of the masses alone. It stands for an outside submission of
// issue #32: the reference's tile loop, store, barriers and shared loads all there, but the
// tile holds one float per body, its mass, while the positions each interaction needs are
// still read from global memory on every trip, body by body, as in the naive kernel. The
// loop has a barrier and shared loads (tile-loop holds); but the interactions' math takes
// the positions from global loads of that loop: rejected [technique] (no-global-fed-math).
#include "nbody.cuh"

namespace {

constexpr int kBlock = 256;

__global__ void nbody_masses_kernel(const float4* __restrict__ pos_mass, float4* __restrict__ acc, int n, float eps2) {
    extern __shared__ float mass[];  // blockDim.x masses: the decoy
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const float4 me = i < n ? pos_mass[i] : make_float4(0.f, 0.f, 0.f, 0.f);
    const float* p = reinterpret_cast<const float*>(pos_mass);
    float3 a = make_float3(0.f, 0.f, 0.f);
    for (int base = 0; base < n; base += blockDim.x) {
        const int j = base + threadIdx.x;
        if (j < n) mass[threadIdx.x] = pos_mass[j].w;
        __syncthreads();
        const int count = min(int(blockDim.x), n - base);
        for (int k = 0; k < count; ++k) {
            const size_t o = 4 * size_t(base + k);  // the position, from global memory
            const float dx = p[o] - me.x, dy = p[o + 1] - me.y, dz = p[o + 2] - me.z;
            const float r2 = dx * dx + dy * dy + dz * dz + eps2;
            const float inv = 1.0f / sqrtf(r2);
            const float s = mass[k] * inv * inv * inv;
            a.x += dx * s;
            a.y += dy * s;
            a.z += dz * s;
        }
        __syncthreads();
    }
    if (i < n) acc[i] = make_float4(a.x, a.y, a.z, 0.f);
}

}  // namespace

void nbody_tiled(const float4* pos_mass, float4* acc, int n, float eps2) {
    if (n <= 0) return;
    const int blocks = (n + kBlock - 1) / kBlock;
    nbody_masses_kernel<<<blocks, kBlock, kBlock * sizeof(float)>>>(pos_mass, acc, n, eps2);
}
