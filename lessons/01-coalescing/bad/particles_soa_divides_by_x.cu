// SPDX-License-Identifier: MIT
// Known-bad 01.2: the reference, with each position updated as x · (1 + v·dt / x), which
// is x + v·dt only while x != 0: at an exact zero it is 0 · inf or 0 · NaN, NaN. Right on
// inputs uniform in [-1, 1); the grader's inputs with exact zeros break it. Must be
// rejected: wrong.
#include "coalescing.cuh"

namespace {

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
            if (j < n)  // the bug: a relative step, divided by the position
                x[j] = px[u] * (1.f + ux[u] * dt / px[u]), y[j] = py[u] * (1.f + uy[u] * dt / py[u]),
                z[j] = pz[u] * (1.f + uz[u] * dt / pz[u]);
        }
    }
}

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
