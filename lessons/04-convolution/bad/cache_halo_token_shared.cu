// SPDX-License-Identifier: MIT
// Known-bad 04.3: the technique faked with a token of shared memory. It stands for the
// outside submissions of issue #32 whose shared tile the arithmetic does not use: each
// thread stores its own pixel in a __shared__ tile, the block waits at a barrier and the
// thread reads its pixel back, times zero, as the sum's start; every tap, the block's own
// pixels too, is a global load. A shared store, a barrier, a shared load and global loads
// after it: the old 04.3 rule held. But the sums' loop computes with no value loaded from
// shared memory (the token is read once, before the loop); rejected [technique]
// (shared-fed-math).
#include "convolution.cuh"

namespace {

constexpr int kBlockX = 32, kBlockY = 8;

__constant__ float c_filter[kMaxFilterWidth * kMaxFilterWidth];
int g_k = 1;

__global__ void __launch_bounds__(kBlockX * kBlockY)
    conv_cache_token_kernel(const float* __restrict__ in, float* __restrict__ out, int rows, int cols, int k) {
    __shared__ float own[kBlockY][kBlockX];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int x = blockIdx.x * kBlockX + tx, y = blockIdx.y * kBlockY + ty;
    const bool inside = y < rows && x < cols;
    own[ty][tx] = inside ? in[size_t(y) * cols + x] : 0.f;
    __syncthreads();  // every thread reaches it: none has returned yet
    if (!inside) return;
    const int r = (k - 1) / 2;
    float acc = 0.f * own[ty][tx];  // the token; the pixels are finite, so this is ±0
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

void set_filter_cache_halo(const float* weights, int k) {
    cudaMemcpyToSymbol(c_filter, weights, sizeof(float) * k * k);
    g_k = k;
}

void conv_cache_halo(const float* in, float* out, int rows, int cols) {
    if (rows <= 0 || cols <= 0) return;
    const dim3 grid((cols + kBlockX - 1) / kBlockX, (rows + kBlockY - 1) / kBlockY);
    conv_cache_token_kernel<<<grid, dim3(kBlockX, kBlockY)>>>(in, out, rows, cols, g_k);
}
