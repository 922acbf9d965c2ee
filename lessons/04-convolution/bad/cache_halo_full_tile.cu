// SPDX-License-Identifier: MIT
// Known-bad 04.3: correct and fast, but another exercise's technique. This is 04.2's halo
// tile — the halo loaded into shared memory with the block's own pixels — under 04.3's
// names. It reads nothing from global memory once the tile is loaded, so no halo pixel
// comes through the caches, which is what 04.3 teaches. Faster than the cache-halo kernel on
// the GPUs measured, so speed cannot reject it; rejected [technique] (no global load after
// the barrier).
#include "convolution.cuh"

namespace {

constexpr int kOut = 32;
constexpr int kMaxIn = kOut + kMaxFilterWidth - 1;

__constant__ float c_filter[kMaxFilterWidth * kMaxFilterWidth];
int g_k = 1;

__global__ void __launch_bounds__(kOut * kOut)
    conv_full_tile_kernel(const float* __restrict__ in, float* __restrict__ out, int rows, int cols, int k) {
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

void set_filter_cache_halo(const float* weights, int k) {
    cudaMemcpyToSymbol(c_filter, weights, sizeof(float) * k * k);
    g_k = k;
}

void conv_cache_halo(const float* in, float* out, int rows, int cols) {
    if (rows <= 0 || cols <= 0) return;
    const dim3 grid((cols + kOut - 1) / kOut, (rows + kOut - 1) / kOut);
    conv_full_tile_kernel<<<grid, dim3(kOut, kOut)>>>(in, out, rows, cols, g_k);
}
