// SPDX-License-Identifier: MIT
// Contract: lessons/04-convolution/contract/convolution.cuh · test: meson test -C build lesson04 --test-args='-tc=04.2*'
// Exercise 04.2 — halo tiles in shared memory (theory: "Halo tiles in shared memory").
// This is the untiled kernel of 04.1, complete and correct. Neighbouring threads read
// almost the same k × k windows: each input pixel is fetched by k² different threads,
// every fetch a global load with its own bounds test. Only the caches stand between those
// fetches and DRAM.
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

void set_filter_tiled(const float* weights, int k) {
    cudaMemcpyToSymbol(c_filter, weights, sizeof(float) * k * k);
    g_k = k;
}

void conv_tiled(const float* in, float* out, int rows, int cols) {
    // TODO(04.2): give each block a T × T output tile (T = 32, say) and a __shared__ input
    // tile of (T + k − 1)² floats: the output tile plus r = (k − 1) / 2 pixels on each side.
    // Let the block's threads load it together (more cells than threads: loop), storing 0
    // for pixels outside the image, then __syncthreads(), then let each thread sum its
    // k × k window from shared memory. Size the shared array for the widest filter (15).
    if (rows <= 0 || cols <= 0) return;
    const dim3 grid((cols + kBlockX - 1) / kBlockX, (rows + kBlockY - 1) / kBlockY);
    conv_untiled_kernel<<<grid, dim3(kBlockX, kBlockY)>>>(in, out, rows, cols, g_k);
}
