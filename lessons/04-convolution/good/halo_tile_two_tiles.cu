// SPDX-License-Identifier: MIT
// Known-good 04.2: two halo-tile kernels, chosen on the host by the image's size. Images of
// fewer than 4096 pixels get 16 × 16 output tiles (more blocks for a small image), larger
// ones the reference's 32 × 32 tiles; both load their input tile, halo included, into shared
// memory and sum from there. So the checked calls run one kernel and the timed calls the
// other. Unusual but correct: every timed call runs a kernel with the technique, and the
// mechanism check, which judges the kernels the timed calls ran, must pass it.
#include "convolution.cuh"

namespace {

constexpr long kSmall = 4096;  // pixels: below it, the smaller tile

__constant__ float c_filter[kMaxFilterWidth * kMaxFilterWidth];
int g_k = 1;

template <int kOut>
__global__ void __launch_bounds__(kOut * kOut)
    conv_tiled_kernel(const float* __restrict__ in, float* __restrict__ out, int rows, int cols, int k) {
    constexpr int kMaxIn = kOut + kMaxFilterWidth - 1;  // input tile side for the widest filter
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

template <int kOut>
void launch(const float* in, float* out, int rows, int cols) {
    const dim3 grid((cols + kOut - 1) / kOut, (rows + kOut - 1) / kOut);
    conv_tiled_kernel<kOut><<<grid, dim3(kOut, kOut)>>>(in, out, rows, cols, g_k);
}

}  // namespace

void set_filter_tiled(const float* weights, int k) {
    cudaMemcpyToSymbol(c_filter, weights, sizeof(float) * k * k);
    g_k = k;
}

void conv_tiled(const float* in, float* out, int rows, int cols) {
    if (rows <= 0 || cols <= 0) return;
    if (long(rows) * cols < kSmall) launch<16>(in, out, rows, cols);
    else launch<32>(in, out, rows, cols);
}
