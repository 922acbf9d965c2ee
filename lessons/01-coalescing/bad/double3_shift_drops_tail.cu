// SPDX-License-Identifier: MIT
// Known-bad 01.1: coalesced, but the grid is rounded down, so the last 3n mod 256 doubles
// are never written. Must be rejected: wrong (never written).
#include "coalescing.cuh"

namespace {
__global__ void shift_flat(const double* in, double* out, size_t m, double k) {
    size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < m) out[i] = in[i] + k;
}
}  // namespace

void shift_double3(const double3* in, double3* out, size_t n, double k) {
    size_t m = 3 * n;
    unsigned grid = unsigned(m / 256);  // rounds down: drops the tail
    if (grid > 0) shift_flat<<<grid, 256>>>(reinterpret_cast<const double*>(in), reinterpret_cast<double*>(out), m, k);
}
