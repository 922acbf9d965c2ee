// SPDX-License-Identifier: MIT
// Known-bad 04.1: the technique faked. Something is __constant__ — the filter width, which
// the kernel reads once — so the kernel does read the constant bank; but the weights, read
// k² times per pixel, stay in a __device__ array in global memory, as in the starter.
// Correct, and as fast as the starter. The machine code shows a load through the __device__
// array's address (constant bank 4 holds it), which the check does not allow: rejected
// [technique].
#include "convolution.cuh"

namespace {

constexpr int kBlockX = 32, kBlockY = 8;

__device__ float g_filter[kMaxFilterWidth * kMaxFilterWidth];  // the weights: still global memory
__constant__ int c_k;                                           // only the width is __constant__

__global__ void conv_k_constant_kernel(const float* __restrict__ in, float* __restrict__ out, int rows, int cols) {
    const int x = blockIdx.x * kBlockX + threadIdx.x, y = blockIdx.y * kBlockY + threadIdx.y;
    if (y >= rows || x >= cols) return;
    const int k = c_k, r = (k - 1) / 2;
    float acc = 0.f;
    for (int i = 0; i < k; ++i) {
        const int yy = y - r + i;
        if (yy < 0 || yy >= rows) continue;
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
    cudaMemcpyToSymbol(c_k, &k, sizeof(int));
}

void conv_constant(const float* in, float* out, int rows, int cols) {
    if (rows <= 0 || cols <= 0) return;
    const dim3 grid((cols + kBlockX - 1) / kBlockX, (rows + kBlockY - 1) / kBlockY);
    conv_k_constant_kernel<<<grid, dim3(kBlockX, kBlockY)>>>(in, out, rows, cols);
}
