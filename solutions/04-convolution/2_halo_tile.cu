// SPDX-License-Identifier: MIT
// Exercise 04.2 — reference. A block of 32 × 32 threads computes a 32 × 32 tile of the
// output. It first loads the input tile that tile needs, the output tile plus a halo of r
// pixels on every side, into shared memory: (32 + k − 1)² pixels, several per thread,
// pixels outside the image as zeros (ghost cells). After one barrier every thread takes its
// k × k neighbours from shared memory, with no bounds test left in the inner loop.
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
    //! [halo_load]
    for (int e = ty * kOut + tx; e < side * side; e += kOut * kOut) {
        const int yy = y0 + e / side, xx = x0 + e % side;
        // Ghost cells (outside the image) hold 0, so the sums below need no bounds test.
        tile[e] = (yy >= 0 && yy < rows && xx >= 0 && xx < cols) ? in[size_t(yy) * cols + xx] : 0.f;
    }
    __syncthreads();  // every cell written before any thread reads its neighbours'
    //! [halo_load]
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
