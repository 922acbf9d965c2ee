// SPDX-License-Identifier: MIT
// Known-bad 04.3: the notes' cache-halo kernel. In a partial tile at the bottom or right
// edge of the image, the shared cells of pixels past the edge are never written, and the
// inner loop takes them from shared memory (they lie inside the block's tile) instead of
// treating them as the zero padding. Those sums pick up stale shared memory: another
// tile's pixels, or the NaN the grader writes there before every checked call. Wrong.
#include "convolution.cuh"

namespace {

constexpr int kTile = 32;

__constant__ float c_filter[kMaxFilterWidth * kMaxFilterWidth];
int g_k = 1;

__global__ void __launch_bounds__(kTile * kTile)
    conv_cache_halo_kernel(const float* __restrict__ in, float* __restrict__ out, int rows, int cols, int k) {
    __shared__ float tile[kTile][kTile];
    const int r = (k - 1) / 2;
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int y = blockIdx.y * kTile + ty, x = blockIdx.x * kTile + tx;
    // The notes' load: cells past the image's last row or column are never written, yet
    // the loop below reads every cell of the tile from shared memory.
    if (y < rows && x < cols) tile[ty][tx] = in[size_t(y) * cols + x];
    __syncthreads();
    if (y >= rows || x >= cols) return;
    float acc = 0.f;
    for (int i = 0; i < k; ++i) {
        const int sy = ty - r + i, yy = y - r + i;
        for (int j = 0; j < k; ++j) {
            const int sx = tx - r + j, xx = x - r + j;
            float v = 0.f;
            if (sy >= 0 && sy < kTile && sx >= 0 && sx < kTile) v = tile[sy][sx];
            else if (yy >= 0 && yy < rows && xx >= 0 && xx < cols) v = in[size_t(yy) * cols + xx];
            acc = fmaf(c_filter[i * k + j], v, acc);
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
    const dim3 grid((cols + kTile - 1) / kTile, (rows + kTile - 1) / kTile);
    conv_cache_halo_kernel<<<grid, dim3(kTile, kTile)>>>(in, out, rows, cols, g_k);
}
