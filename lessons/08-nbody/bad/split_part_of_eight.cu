// SPDX-License-Identifier: MIT
// Known-bad 08.3: the split reference, written and tried where it always chose 8 threads
// per body: each thread takes 32 entries of every tile, right for P = 8 only. With P = 2 or
// 4 a body's threads cover 64 or 128 of the tile's 256 bodies; P = 1 runs a correct
// one-thread-per-body kernel. On a GPU of 132 SMs the reference's rule picks P = 8 at every
// size the grader checked before (n ≤ 4099, 16384 timed); the sizes that take each path
// by n and SM count catch it. Must be rejected: wrong.
#include "nbody.cuh"

namespace {

constexpr int kBlock = 256;  // threads per block; also bodies per tile (one load per thread)
constexpr int kUnroll = 16;

__device__ __forceinline__ void add_interaction(float4 me, float4 other, float eps2, float3& a) {
    const float dx = other.x - me.x, dy = other.y - me.y, dz = other.z - me.z;
    const float r2 = dx * dx + (dy * dy + (dz * dz + eps2));
    const float inv = rsqrtf(r2);
    const float s = other.w * (inv * inv * inv);
    a.x += dx * s;
    a.y += dy * s;
    a.z += dz * s;
}

template <int P>
__global__ void __launch_bounds__(kBlock)
    nbody_split_kernel(const float4* __restrict__ pos_mass, float4* __restrict__ acc, int n, float eps2) {
    constexpr int kBodies = kBlock / P;  // bodies per block
    constexpr int kPart = 32;            // the bug: tile entries per thread, kBlock / 8
    __shared__ float4 tile[kBlock];
    __shared__ float3 partial[kBlock];
    // Consecutive threads take consecutive bodies, so the 32 threads of a warp share one
    // part of the tile: each read from shared memory is one broadcast.
    const int body = threadIdx.x % kBodies, part = threadIdx.x / kBodies;
    const int i = blockIdx.x * kBodies + body;
    const float4 me = i < n ? pos_mass[i] : make_float4(0.f, 0.f, 0.f, 0.f);
    float3 a = make_float3(0.f, 0.f, 0.f);
    for (int base = 0; base < n; base += kBlock) {
        const int j = base + threadIdx.x;
        tile[threadIdx.x] = j < n ? pos_mass[j] : make_float4(0.f, 0.f, 0.f, 0.f);
        __syncthreads();
        const float4* mine = tile + part * kPart;
#pragma unroll kUnroll
        for (int k = 0; k < kPart; ++k) add_interaction(me, mine[k], eps2, a);
        __syncthreads();
    }
    // Each body's P partial sums, added in a fixed order by the thread of part 0.
    partial[threadIdx.x] = a;
    __syncthreads();
    if (part == 0 && i < n) {
        for (int p = 1; p < P; ++p) {
            const float3 b = partial[p * kBodies + body];
            a.x += b.x, a.y += b.y, a.z += b.z;
        }
        acc[i] = make_float4(a.x, a.y, a.z, 0.f);
    }
}

// P = 1: one thread per body, all of every tile.
__global__ void __launch_bounds__(kBlock)
    one_per_body_kernel(const float4* __restrict__ pos_mass, float4* __restrict__ acc, int n, float eps2) {
    __shared__ float4 tile[kBlock];
    const int i = blockIdx.x * kBlock + threadIdx.x;
    const float4 me = i < n ? pos_mass[i] : make_float4(0.f, 0.f, 0.f, 0.f);
    float3 a = make_float3(0.f, 0.f, 0.f);
    for (int base = 0; base < n; base += kBlock) {
        const int j = base + threadIdx.x;
        tile[threadIdx.x] = j < n ? pos_mass[j] : make_float4(0.f, 0.f, 0.f, 0.f);
        __syncthreads();
#pragma unroll kUnroll
        for (int k = 0; k < kBlock; ++k) add_interaction(me, tile[k], eps2, a);
        __syncthreads();
    }
    if (i < n) acc[i] = make_float4(a.x, a.y, a.z, 0.f);
}

template <int P>
void launch(const float4* pos_mass, float4* acc, int n, float eps2) {
    const int bodies_per_block = kBlock / P;
    nbody_split_kernel<P><<<(n + bodies_per_block - 1) / bodies_per_block, kBlock>>>(pos_mass, acc, n, eps2);
}

int sm_count() {
    static const int count = [] {
        int device = 0, sms = 1;
        cudaGetDevice(&device);
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
        return sms;
    }();
    return count;
}

}  // namespace

void nbody_split(const float4* pos_mass, float4* acc, int n, float eps2) {
    if (n <= 0) return;
    // The fewest threads per body that give at least two blocks per SM (at most 8, so that
    // a warp never straddles two parts of the tile).
    int p = 1;
    while (p < 8 && (n + kBlock / p - 1) / (kBlock / p) < 2 * sm_count()) p *= 2;
    switch (p) {
        case 1: one_per_body_kernel<<<(n + kBlock - 1) / kBlock, kBlock>>>(pos_mass, acc, n, eps2); break;
        case 2: launch<2>(pos_mass, acc, n, eps2); break;
        case 4: launch<4>(pos_mass, acc, n, eps2); break;
        default: launch<8>(pos_mass, acc, n, eps2); break;
    }
}
