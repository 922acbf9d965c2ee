// SPDX-License-Identifier: MIT
// Known-bad 01.1: an off-by-one bound (<= instead of <) writes one double past the end
// of `out`. Must be rejected: bounds (the guard bytes after the output change).
#include "coalescing.cuh"

namespace {
__global__ void shift_flat(const double* in, double* out, size_t m, double k) {
    size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i <= m) out[i] = in[i] + k;
}
}  // namespace

void shift_double3(const double3* in, double3* out, size_t n, double k) {
    size_t m = 3 * n;
    unsigned grid = unsigned(m / 256 + 1);
    shift_flat<<<grid, 256>>>(reinterpret_cast<const double*>(in), reinterpret_cast<double*>(out), m, k);
}
