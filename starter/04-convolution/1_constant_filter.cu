// SPDX-License-Identifier: MIT
// Contract: lessons/04-convolution/contract/convolution.cuh · test: meson test -C build lesson04 --test-args='-tc=04.1*'
// Exercise 04.1 — the filter in constant memory (theory: "Constant memory").
// This is the notes' basic kernel, complete and correct: one thread per output pixel, its
// k × k neighbours read from global memory, zero outside the image. The weights sit in a
// __device__ array, that is, in global memory: every multiply-add of every thread issues a
// global load for its weight, although all 32 lanes of a warp want the same one.
#include "convolution.cuh"

namespace {

constexpr int kBlockX = 32, kBlockY = 8;

// TODO(04.1): make this a __constant__ array (set_filter_constant fills it the same way,
// with cudaMemcpyToSymbol) so that the weights come through the constant cache, whose
// broadcast serves a whole warp reading one address in one go.
__device__ float g_filter[kMaxFilterWidth * kMaxFilterWidth];
int g_k = 1;  // the width set last, on the host

__global__ void conv_global_kernel(const float* __restrict__ in, float* __restrict__ out, int rows, int cols, int k) {
    const int x = blockIdx.x * kBlockX + threadIdx.x, y = blockIdx.y * kBlockY + threadIdx.y;
    if (y >= rows || x >= cols) return;
    const int r = (k - 1) / 2;
    float acc = 0.f;
    for (int i = 0; i < k; ++i) {
        const int yy = y - r + i;
        if (yy < 0 || yy >= rows) continue;  // a row of zeros: nothing to add
        for (int j = 0; j < k; ++j) {
            const int xx = x - r + j;
            if (xx >= 0 && xx < cols) acc = fmaf(g_filter[i * k + j], in[size_t(yy) * cols + xx], acc);
        }
    }
    out[size_t(y) * cols + x] = acc;
}

}  // namespace

void set_filter_constant(const float* weights, int k) {
    cudaMemcpyToSymbol(g_filter, weights, sizeof(float) * k * k);
    g_k = k;
}

void conv_constant(const float* in, float* out, int rows, int cols) {
    if (rows <= 0 || cols <= 0) return;
    const dim3 grid((cols + kBlockX - 1) / kBlockX, (rows + kBlockY - 1) / kBlockY);
    conv_global_kernel<<<grid, dim3(kBlockX, kBlockY)>>>(in, out, rows, cols, g_k);
}
