// SPDX-License-Identifier: MIT
// Known-bad 01.2: correct, but each thread drifts a contiguous chunk of 16 particles, the
// way one would on a CPU: a warp's 32 threads then read addresses 64 bytes apart.
// Must be rejected: slow.
#include "coalescing.cuh"

namespace {
constexpr int kChunk = 16;
__global__ void drift_soa_kernel(ParticleArrays p, size_t n, float dt) {
    size_t first = (size_t(blockIdx.x) * blockDim.x + threadIdx.x) * kChunk;
    for (size_t i = first; i < first + kChunk && i < n; ++i)
        p.x[i] += p.vx[i] * dt, p.y[i] += p.vy[i] * dt, p.z[i] += p.vz[i] * dt;
}
}  // namespace

void drift_soa(ParticleArrays particles, size_t n, float dt) {
    size_t threads = (n + kChunk - 1) / kChunk;
    if (n) drift_soa_kernel<<<unsigned((threads + 255) / 256), 256>>>(particles, n, dt);
}
