// SPDX-License-Identifier: MIT
// Known-bad 04.2: the ghost cells of the tile (pixels outside the image) are skipped
// instead of set to 0, so edge pixels add whatever shared memory held before: stale pixels
// of another block's tile, or the NaN the grader writes there before every checked call.
// Rejected as wrong.
#include "convolution.cuh"

namespace {

constexpr int kOut = 32;                            // output tile side = block side
constexpr int kMaxIn = kOut + kMaxFilterWidth - 1;  // input tile side for the widest filter

__constant__ float c_filter[kMaxFilterWidth * kMaxFilterWidth];
int g_k = 1;

__global__ void __launch_bounds__(kOut * kOut)
    conv_tiled_kernel(const float* __restrict__ in, float* __restrict__ out, int rows, int cols, int k) {
    __shared__ float tile[kMaxIn * kMaxIn];
    const int r = (k - 1) / 2, side = kOut + k - 1;  // this filter's input tile side
    const int tx = threadIdx.x, ty = threadIdx.y;
    // The input tile starts r pixels above and to the left of the output tile.
    const int y0 = blockIdx.y * kOut - r, x0 = blockIdx.x * kOut - r;
    for (int e = ty * kOut + tx; e < side * side; e += kOut * kOut) {
        const int yy = y0 + e / side, xx = x0 + e % side;
        // Ghost cells (outside the image) hold 0, so the sums below need no bounds test.
        if (yy >= 0 && yy < rows && xx >= 0 && xx < cols) tile[e] = in[size_t(yy) * cols + xx];  // no else: ghost cells unwritten
    }
    __syncthreads();  // every cell written before any thread reads its neighbours'
    const int y = blockIdx.y * kOut + ty, x = blockIdx.x * kOut + tx;
    if (y >= rows || x >= cols) return;
    float acc = 0.f;
    for (int i = 0; i < k; ++i)
        for (int j = 0; j < k; ++j) acc = fmaf(c_filter[i * k + j], tile[(ty + i) * side + tx + j], acc);
    out[size_t(y) * cols + x] = acc;
}

}  // namespace

void set_filter_tiled(const float* weights, int k) {
    cudaMemcpyToSymbol(c_filter, weights, sizeof(float) * k * k);
    g_k = k;
}

void conv_tiled(const float* in, float* out, int rows, int cols) {
    if (rows <= 0 || cols <= 0) return;
    const dim3 grid((cols + kOut - 1) / kOut, (rows + kOut - 1) / kOut);
    conv_tiled_kernel<<<grid, dim3(kOut, kOut)>>>(in, out, rows, cols, g_k);
}
