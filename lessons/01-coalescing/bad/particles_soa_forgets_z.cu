// SPDX-License-Identifier: MIT
// Known-bad 01.2: drifts x and y but forgets z. Must be rejected: wrong.
#include "coalescing.cuh"

namespace {
__global__ void drift_soa_kernel(ParticleArrays p, size_t n, float dt) {
    size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) p.x[i] += p.vx[i] * dt, p.y[i] += p.vy[i] * dt;
}
}  // namespace

void drift_soa(ParticleArrays particles, size_t n, float dt) {
    if (n) drift_soa_kernel<<<unsigned((n + 255) / 256), 256>>>(particles, n, dt);
}
