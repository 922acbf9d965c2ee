// SPDX-License-Identifier: MIT
// Exercise 01.1 — the double3 trap (read lessons/01-coalescing/theory.md, "The double3 trap").
// One thread per double3 is the obvious mapping, but a warp's loads then walk memory in
// 24-byte steps, so every load instruction touches three times the sectors it uses.
#include "coalescing.cuh"

namespace {

__global__ void shift_double3_kernel(const double3* in, double3* out, size_t n, double k) {
    size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) {
        double3 v = in[i];
        v.x += k;
        v.y += k;
        v.z += k;
        out[i] = v;
    }
}

}  // namespace

void shift_double3(const double3* in, double3* out, size_t n, double k) {
    // TODO(01.1): the same 3n doubles can be processed so that consecutive threads touch
    // consecutive doubles (view both arrays as double* of length 3n, or as double2*), and
    // each thread can keep several independent loads in flight (a grid-stride loop with a
    // few elements per iteration). Keep handling every element, including the last ones.
    const int block = 256;
    unsigned grid = unsigned((n + block - 1) / block);
    if (grid > 0) shift_double3_kernel<<<grid, block>>>(in, out, n, k);
}
