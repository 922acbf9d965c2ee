// SPDX-License-Identifier: MIT
// Known-bad 04.2: the technique faked. The starter's untiled kernel with a token of shared
// memory in front: each thread stores its own pixel in a __shared__ array, the block waits
// at a barrier, and the thread reads its pixel back into the sum, times zero (the compiler
// keeps it: 0 · x is not 0 for every float x) — a shared store, a barrier and a shared
// load, all there. But every tap is still a global load after the barrier: the sums do not
// read a tile. Correct, and as fast as the starter; rejected [technique] (a global load
// after the last barrier).
#include "convolution.cuh"

namespace {

constexpr int kBlockX = 32, kBlockY = 8;

__constant__ float c_filter[kMaxFilterWidth * kMaxFilterWidth];
int g_k = 1;

__global__ void __launch_bounds__(kBlockX * kBlockY)
    conv_token_kernel(const float* __restrict__ in, float* __restrict__ out, int rows, int cols, int k) {
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

void set_filter_tiled(const float* weights, int k) {
    cudaMemcpyToSymbol(c_filter, weights, sizeof(float) * k * k);
    g_k = k;
}

void conv_tiled(const float* in, float* out, int rows, int cols) {
    if (rows <= 0 || cols <= 0) return;
    const dim3 grid((cols + kBlockX - 1) / kBlockX, (rows + kBlockY - 1) / kBlockY);
    conv_token_kernel<<<grid, dim3(kBlockX, kBlockY)>>>(in, out, rows, cols, g_k);
}
