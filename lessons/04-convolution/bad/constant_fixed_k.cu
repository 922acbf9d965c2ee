// SPDX-License-Identifier: MIT
// Known-bad 04.1: the filter width fixed at compile time, as the notes' `#define K 7`
// does, while set_filter_constant accepts any width: every width but 7 reads the weights
// with the wrong row length and sums the wrong window. Rejected as wrong (first at k = 1).
#include "convolution.cuh"

namespace {

constexpr int kBlockX = 32, kBlockY = 8;

__constant__ float c_filter[kMaxFilterWidth * kMaxFilterWidth];
int g_k = 1;  // the width set last, on the host

__global__ void conv_constant_kernel(const float* __restrict__ in, float* __restrict__ out, int rows, int cols, int k) {
    const int x = blockIdx.x * kBlockX + threadIdx.x, y = blockIdx.y * kBlockY + threadIdx.y;
    if (y >= rows || x >= cols) return;
    constexpr int K = 7;  // the defect: the notes' #define K 7, whatever width was set
    const int r = (K - 1) / 2;
    float acc = 0.f;
    for (int i = 0; i < K; ++i) {
        const int yy = y - r + i;
        if (yy < 0 || yy >= rows) continue;  // a row of zeros: nothing to add
        for (int j = 0; j < K; ++j) {
            const int xx = x - r + j;
            if (xx >= 0 && xx < cols) acc = fmaf(c_filter[i * K + j], in[size_t(yy) * cols + xx], acc);
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
    const dim3 grid((cols + kBlockX - 1) / kBlockX, (rows + kBlockY - 1) / kBlockY);
    conv_constant_kernel<<<grid, dim3(kBlockX, kBlockY)>>>(in, out, rows, cols, g_k);
}
