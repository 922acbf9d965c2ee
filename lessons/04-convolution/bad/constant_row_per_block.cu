// SPDX-License-Identifier: MIT
// Known-bad 04.1: the reference's loop, launched with one block per image row: blocks of
// 256 threads along the row, gridDim.y = rows. Right for every image of up to 65535 rows;
// the contract allows 65536, and a grid's y dimension holds at most 65535 blocks, so the
// launch fails there and nothing is computed. Must be rejected: fault (the launch error),
// or wrong.
#include "convolution.cuh"

namespace {

constexpr int kBlockX = 256;

__constant__ float c_filter[kMaxFilterWidth * kMaxFilterWidth];
int g_k = 1;

__global__ void conv_constant_kernel(const float* __restrict__ in, float* __restrict__ out, int rows, int cols, int k) {
    const int x = blockIdx.x * kBlockX + threadIdx.x, y = blockIdx.y;
    if (x >= cols) return;
    const int r = (k - 1) / 2;
    float acc = 0.f;
    for (int i = 0; i < k; ++i) {
        const int yy = y - r + i;
        if (yy < 0 || yy >= rows) continue;
        for (int j = 0; j < k; ++j) {
            const int xx = x - r + j;
            if (xx >= 0 && xx < cols) acc = fmaf(c_filter[i * k + j], in[size_t(yy) * cols + xx], acc);
        }
    }
    out[size_t(y) * cols + x] = acc;
}

}  // namespace

void set_filter_constant(const float* weights, int k) {
    cudaMemcpyToSymbol(c_filter, weights, sizeof(float) * k * k);
    g_k = k;
}

void conv_constant(const float* in, float* out, int rows, int cols) {
    if (rows <= 0 || cols <= 0) return;
    const dim3 grid((cols + kBlockX - 1) / kBlockX, rows);  // the bug: rows may be 65536
    conv_constant_kernel<<<grid, kBlockX>>>(in, out, rows, cols, g_k);
}
