// SPDX-License-Identifier: MIT
// Known-bad 04.2: the reference's halo tiles, but a launcher that computes only part of
// the image on some calls. It counts calls on a large image in a row (the timed ones; every
// checked image is smaller), and from the fourth on, every other one computes the first
// 60 % of the rows and writes zeros below: the warm-up calls are right, some timed ones not.
// It once counted only calls that repeat the previous one's arguments, which the timed calls
// no longer do: each has a shape and a place in its buffers of its own (issue 32). Every pixel is written, so
// only the comparison of every timed call with the grader's own result catches it. Must be
// rejected: wrong.
#include <cuda_runtime.h>

#include "convolution.cuh"

namespace {

constexpr int kOut = 32;
constexpr int kMaxIn = kOut + kMaxFilterWidth - 1;
constexpr long kLarge = 1L << 24;  // pixels: the timed image is larger, every checked one smaller

__constant__ float c_filter[kMaxFilterWidth * kMaxFilterWidth];
int g_k = 1;

__global__ void __launch_bounds__(kOut * kOut)
    conv_tiled_kernel(const float* __restrict__ in, float* __restrict__ out, int rows, int cols, int k) {
    __shared__ float tile[kMaxIn * kMaxIn];
    const int r = (k - 1) / 2, side = kOut + k - 1;
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int y0 = blockIdx.y * kOut - r, x0 = blockIdx.x * kOut - r;
    for (int e = ty * kOut + tx; e < side * side; e += kOut * kOut) {
        const int yy = y0 + e / side, xx = x0 + e % side;
        tile[e] = (yy >= 0 && yy < rows && xx >= 0 && xx < cols) ? in[size_t(yy) * cols + xx] : 0.f;
    }
    __syncthreads();
    const int y = blockIdx.y * kOut + ty, x = blockIdx.x * kOut + tx;
    if (y >= rows || x >= cols) return;
    float acc = 0.f;
    for (int i = 0; i < k; ++i)
        for (int j = 0; j < k; ++j) acc = fmaf(c_filter[i * k + j], tile[(ty + i) * side + tx + j], acc);
    out[size_t(y) * cols + x] = acc;
}

}  // namespace

void set_filter_tiled(const float* weights, int k) {
    cudaMemcpyToSymbol(c_filter, weights, sizeof(float) * k * k);
    g_k = k;
}

void conv_tiled(const float* in, float* out, int rows, int cols) {
    if (rows <= 0 || cols <= 0) return;
    static long large_calls = 0;  // in a row
    large_calls = long(rows) * cols >= kLarge ? large_calls + 1 : 0;
    // The bug: the rows below `done` are zeros on these calls. The kernel sees `done` rows,
    // so the last of them also sums zeros where the rows below should be.
    const int done = large_calls >= 4 && large_calls % 2 == 0 ? rows / 10 * 6 : rows;
    if (done < rows) cudaMemsetAsync(out + size_t(done) * cols, 0, size_t(rows - done) * cols * sizeof(float), 0);
    if (done == 0) return;
    const dim3 grid((cols + kOut - 1) / kOut, (done + kOut - 1) / kOut);
    conv_tiled_kernel<<<grid, dim3(kOut, kOut)>>>(in, out, done, cols, g_k);
}
