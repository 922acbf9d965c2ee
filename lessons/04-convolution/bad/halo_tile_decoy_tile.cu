// SPDX-License-Identifier: MIT
// Known-bad 04.2: the technique faked with a decoy tile. It stands for an outside submission
// of issue #32: the input tile is loaded into shared memory and the block waits at a barrier,
// but every sum was computed before, from global memory, and after the barrier the kernel
// only reads its own pixel back from the tile, times zero. A shared store, a barrier, a
// shared load after it and no global load after the last barrier: the old traits all hold.
// But the math of the sums' loop takes its pixels from global loads of that loop; rejected
// [technique] (no-global-fed-math: "still computes in a loop with values it loads from
// global memory in that loop").
#include "convolution.cuh"

namespace {

constexpr int kBlock = 32;

__constant__ float c_filter[kMaxFilterWidth * kMaxFilterWidth];
int g_k = 1;

__global__ void __launch_bounds__(kBlock * kBlock)
    conv_decoy_kernel(const float* __restrict__ in, float* __restrict__ out, int rows, int cols, int k) {
    __shared__ float tile[kBlock][kBlock];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int x = blockIdx.x * kBlock + tx, y = blockIdx.y * kBlock + ty;
    const bool inside = y < rows && x < cols;
    const int r = (k - 1) / 2;
    float acc = 0.f;
    // The real sums, before the barrier: every tap a global load.
    for (int i = 0; inside && i < k; ++i) {
        const int yy = y - r + i;
        if (yy < 0 || yy >= rows) continue;
        for (int j = 0; j < k; ++j) {
            const int xx = x - r + j;
            if (xx >= 0 && xx < cols) acc = fmaf(c_filter[i * k + j], in[size_t(yy) * cols + xx], acc);
        }
    }
    tile[ty][tx] = inside ? in[size_t(y) * cols + x] : 0.f;  // the decoy
    __syncthreads();
    if (!inside) return;
    acc += 0.f * tile[ty][tx];  // finite pixels: adds ±0
    out[size_t(y) * cols + x] = acc;
}

}  // namespace

void set_filter_tiled(const float* weights, int k) {
    cudaMemcpyToSymbol(c_filter, weights, sizeof(float) * k * k);
    g_k = k;
}

void conv_tiled(const float* in, float* out, int rows, int cols) {
    if (rows <= 0 || cols <= 0) return;
    const dim3 grid((cols + kBlock - 1) / kBlock, (rows + kBlock - 1) / kBlock);
    conv_decoy_kernel<<<grid, dim3(kBlock, kBlock)>>>(in, out, rows, cols, g_k);
}
