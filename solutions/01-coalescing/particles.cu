// SPDX-License-Identifier: MIT
// Exercise 01.2 — reference. With one array per coordinate, a warp reads 128 contiguous
// bytes from each of the six arrays it needs and nothing else; each thread drifts two
// particles, a grid-stride apart, with all twelve loads issued first.
#include "coalescing.cuh"

namespace {

//! [soa]
constexpr int kPerThread = 2;

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
//! [soa]

}  // namespace

void drift_soa(ParticleArrays p, size_t n, float dt) {
    int device = 0, sms = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    const int block = 256;
    size_t wanted = (n + kPerThread * block - 1) / (kPerThread * block);
    unsigned grid = unsigned(wanted < size_t(sms) * 16 ? wanted : size_t(sms) * 16);
    if (grid > 0) drift_soa_kernel<<<grid, block>>>(p.x, p.y, p.z, p.vx, p.vy, p.vz, n, dt);
}
