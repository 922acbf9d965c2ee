// SPDX-License-Identifier: MIT
// Known-bad 01.1: indexes with the wrong scale (bytes instead of elements) and writes far
// outside the allocation: an illegal-address fault. Must be rejected: fault, with the
// other exercises unaffected (each runs in its own process).
#include "coalescing.cuh"

namespace {
__global__ void shift_flat(const double* in, double* out, size_t m, double k) {
    size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < m) out[i * sizeof(double) * 4096] = in[i] + k;
}
}  // namespace

void shift_double3(const double3* in, double3* out, size_t n, double k) {
    size_t m = 3 * n;
    unsigned grid = unsigned((m + 255) / 256);
    if (grid > 0) shift_flat<<<grid, 256>>>(reinterpret_cast<const double*>(in), reinterpret_cast<double*>(out), m, k);
}
