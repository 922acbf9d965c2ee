// SPDX-License-Identifier: MIT
// Known-bad 01.2: the reference below 2^20 particles; from there on a path that moves
// particles in pairs, one float2 per array, and leaves "the last pair or the odd particle"
// to a tail. The bound of the pairs is (n − 1) / 2, which is right for odd n only: for even
// n the last pair is neither drifted by the pairs nor by the tail, which runs for odd n.
// Before the timed sizes varied (issue 32) every check passed on every GPU: the sizes
// checked one by one stay below 2^20, and the timed size, timing_elements(), is odd on
// every GPU. The timed calls now meet an even n within their first two runs
// (grader/common/timed_sizes.hpp). Must be rejected: wrong.
#include "coalescing.cuh"

namespace {

constexpr int kPerThread = 2;
constexpr size_t kPairsFrom = size_t(1) << 20;

__global__ void drift_soa_kernel(float* __restrict__ x, float* __restrict__ y, float* __restrict__ z,
                                 const float* __restrict__ vx, const float* __restrict__ vy,
                                 const float* __restrict__ vz, size_t n, float dt) {
    size_t stride = size_t(gridDim.x) * blockDim.x;
    for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += kPerThread * stride) {
        float px[kPerThread], py[kPerThread], pz[kPerThread], ux[kPerThread], uy[kPerThread], uz[kPerThread];
#pragma unroll
        for (int u = 0; u < kPerThread; ++u) {
            size_t j = i + u * stride;
            bool ok = j < n;
            px[u] = ok ? x[j] : 0.f, py[u] = ok ? y[j] : 0.f, pz[u] = ok ? z[j] : 0.f;
            ux[u] = ok ? vx[j] : 0.f, uy[u] = ok ? vy[j] : 0.f, uz[u] = ok ? vz[j] : 0.f;
        }
#pragma unroll
        for (int u = 0; u < kPerThread; ++u) {
            size_t j = i + u * stride;
            if (j < n) x[j] = px[u] + ux[u] * dt, y[j] = py[u] + uy[u] * dt, z[j] = pz[u] + uz[u] * dt;
        }
    }
}

__device__ __forceinline__ float2 drifted(float2 p, float2 v, float dt) { return make_float2(p.x + v.x * dt, p.y + v.y * dt); }

// Particles 2i and 2i + 1 of every array at once (the arrays are 256-byte aligned).
__global__ void drift_pairs_kernel(ParticleArrays p, size_t pairs, float dt) {
    float2* x = reinterpret_cast<float2*>(p.x);
    float2* y = reinterpret_cast<float2*>(p.y);
    float2* z = reinterpret_cast<float2*>(p.z);
    const float2* vx = reinterpret_cast<const float2*>(p.vx);
    const float2* vy = reinterpret_cast<const float2*>(p.vy);
    const float2* vz = reinterpret_cast<const float2*>(p.vz);
    const size_t stride = size_t(gridDim.x) * blockDim.x;
    for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < pairs; i += stride) {
        const float2 px = x[i], py = y[i], pz = z[i], ux = vx[i], uy = vy[i], uz = vz[i];
        x[i] = drifted(px, ux, dt), y[i] = drifted(py, uy, dt), z[i] = drifted(pz, uz, dt);
    }
}

__global__ void drift_one_kernel(ParticleArrays p, size_t i, float dt) {
    p.x[i] += p.vx[i] * dt, p.y[i] += p.vy[i] * dt, p.z[i] += p.vz[i] * dt;
}

}  // namespace

void drift_soa(ParticleArrays p, size_t n, float dt) {
    int device = 0, sms = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    const int block = 256;
    if (n < kPairsFrom) {
        size_t wanted = (n + kPerThread * block - 1) / (kPerThread * block);
        unsigned grid = unsigned(wanted < size_t(sms) * 16 ? wanted : size_t(sms) * 16);
        if (grid > 0) drift_soa_kernel<<<grid, block>>>(p.x, p.y, p.z, p.vx, p.vy, p.vz, n, dt);
        return;
    }
    const size_t pairs = (n - 1) / 2;  // BUG: n / 2 whole pairs; for even n this leaves out the last
    const size_t wanted = (pairs + block - 1) / block;
    drift_pairs_kernel<<<unsigned(wanted < size_t(sms) * 32 ? wanted : size_t(sms) * 32), block>>>(p, pairs, dt);
    if (n % 2) drift_one_kernel<<<1, 1>>>(p, n - 1, dt);
}
