// SPDX-License-Identifier: MIT
// Known-bad 01.2: a software-pipelined grid-stride loop that loads the next iteration's
// six values (at i + stride) before storing the current ones, with no bound check on those
// loads. The values are never used, so every result is right, but the last iteration reads
// up to a stride (≥ 256 floats) past each array's end, into the unmapped page, at every
// n ≥ 1 (n = 1 reads x[256]). Must be rejected: fault.
#include "coalescing.cuh"

namespace {

__global__ void drift_soa_kernel(float* __restrict__ x, float* __restrict__ y, float* __restrict__ z,
                                 const float* __restrict__ vx, const float* __restrict__ vy,
                                 const float* __restrict__ vz, size_t n, float dt) {
    const size_t stride = size_t(gridDim.x) * blockDim.x;
    size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float px = x[i], py = y[i], pz = z[i], ux = vx[i], uy = vy[i], uz = vz[i];
    for (; i < n; i += stride) {
        // The next particle's loads go out before this one's stores: more bytes in flight.
        const size_t j = i + stride;  // the bug: j may be past the end, and is not checked
        const float qx = x[j], qy = y[j], qz = z[j], wx = vx[j], wy = vy[j], wz = vz[j];
        x[i] = px + ux * dt, y[i] = py + uy * dt, z[i] = pz + uz * dt;
        px = qx, py = qy, pz = qz, ux = wx, uy = wy, uz = wz;
    }
}

}  // namespace

void drift_soa(ParticleArrays p, size_t n, float dt) {
    int device = 0, sms = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    const int block = 256;
    size_t wanted = (n + 2 * block - 1) / (2 * block);  // at least two particles per thread
    unsigned grid = unsigned(wanted < size_t(sms) * 16 ? wanted : size_t(sms) * 16);
    if (grid > 0) drift_soa_kernel<<<grid, block>>>(p.x, p.y, p.z, p.vx, p.vy, p.vz, n, dt);
}
