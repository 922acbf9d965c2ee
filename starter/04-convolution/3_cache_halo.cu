// SPDX-License-Identifier: MIT
// Contract: lessons/04-convolution/contract/convolution.cuh · test: meson test -C build lesson04 --test-args='-tc=04.3*'
// Exercise 04.3 — inner tile in shared memory, halo through the caches (theory: "Halo
// through the caches"). This is the untiled kernel of 04.1 again, complete and correct:
// 04.2 and 04.3 are two ways of tiling the same kernel, and the teaching table of 04.0
// compares them on your GPU.
#include "convolution.cuh"

namespace {

constexpr int kBlockX = 32, kBlockY = 8;

__constant__ float c_filter[kMaxFilterWidth * kMaxFilterWidth];
int g_k = 1;

__global__ void conv_untiled_kernel(const float* __restrict__ in, float* __restrict__ out, int rows, int cols, int k) {
    const int x = blockIdx.x * kBlockX + threadIdx.x, y = blockIdx.y * kBlockY + threadIdx.y;
    if (y >= rows || x >= cols) return;
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

void set_filter_cache_halo(const float* weights, int k) {
    cudaMemcpyToSymbol(c_filter, weights, sizeof(float) * k * k);
    g_k = k;
}

void conv_cache_halo(const float* in, float* out, int rows, int cols) {
    // TODO(04.3): give each block a T × T tile (T = 32, say) and a __shared__ T × T array.
    // Each thread stores its own pixel there (and 0 when its pixel lies outside the image:
    // in a partial tile at the right or bottom edge those cells are read as the padding),
    // then __syncthreads(). In the k × k loop, take a neighbour from shared memory when it
    // lies inside the block's tile, from global memory when it lies in the image but in
    // another block's tile (the caches usually have it), and 0 otherwise.
    if (rows <= 0 || cols <= 0) return;
    const dim3 grid((cols + kBlockX - 1) / kBlockX, (rows + kBlockY - 1) / kBlockY);
    conv_untiled_kernel<<<grid, dim3(kBlockX, kBlockY)>>>(in, out, rows, cols, g_k);
}
