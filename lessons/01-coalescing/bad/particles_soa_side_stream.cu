// SPDX-License-Identifier: MIT
// Known-bad 01.2: the reference drift, but the launcher drifts the first 40 % of the
// particles on the default stream and the other 60 % on a non-blocking stream of its own,
// and nothing makes the default stream wait for that one: the timer stops while most of
// the work still runs. Every result is right. Must be rejected: untimed.
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
            if (j < n) x[j] = px[u] + ux[u] * dt, y[j] = py[u] + uy[u] * dt, z[j] = pz[u] + uz[u] * dt;
        }
    }
}

void drift(ParticleArrays p, size_t first, size_t n, float dt, int sms, cudaStream_t stream) {
    const int block = 256;
    size_t wanted = (n + kPerThread * block - 1) / (kPerThread * block);
    unsigned grid = unsigned(wanted < size_t(sms) * 16 ? wanted : size_t(sms) * 16);
    if (grid > 0)
        drift_soa_kernel<<<grid, block, 0, stream>>>(p.x + first, p.y + first, p.z + first, p.vx + first, p.vy + first,
                                                     p.vz + first, n, dt);
}

}  // namespace

void drift_soa(ParticleArrays p, size_t n, float dt) {
    static cudaStream_t side = nullptr;
    static cudaEvent_t entered = nullptr;
    if (!side) {
        cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking);
        cudaEventCreateWithFlags(&entered, cudaEventDisableTiming);
    }
    int device = 0, sms = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    // The side stream starts after what the default stream already holds (so the results
    // are right); the bug is that nothing makes the default stream wait for the side stream.
    cudaEventRecord(entered, 0);
    cudaStreamWaitEvent(side, entered, 0);
    const size_t head = n / 5 * 2;  // 40 %
    drift(p, 0, head, dt, sms, 0);
    drift(p, head, n - head, dt, sms, side);
}
