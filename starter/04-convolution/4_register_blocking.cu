// SPDX-License-Identifier: MIT
// Contract: lessons/04-convolution/contract/convolution.cuh · test: meson test -C build lesson04 --test-args='-tc=04.4*'
// Exercise 04.4 — as fast as you can (theory: "Register blocking"). This is the halo-tile
// kernel of 04.2, complete and correct. k is known only at run time, so the k × k loop
// stays a loop, every weight is a separate constant load, and each value a thread reads
// from shared memory feeds one multiply-add: shared memory, not DRAM, sets the pace.
#include "convolution.cuh"

namespace {

constexpr int kOut = 32;
constexpr int kMaxIn = kOut + kMaxFilterWidth - 1;

__constant__ float c_filter[kMaxFilterWidth * kMaxFilterWidth];
int g_k = 1;

__global__ void __launch_bounds__(kOut * kOut)
    conv_tiled_kernel(const float* __restrict__ in, float* __restrict__ out, int rows, int cols, int k) {
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
    // TODO(04.4): make k a template parameter (conv_fast dispatches on g_k to one kernel
    // per odd width) so that these loops unroll completely, and give each thread a vertical
    // strip of S outputs (S = 8 or 16) in a register array: walk the strip's S + k − 1 input
    // rows, read each of the k values of a row from shared memory once, and add it into
    // every output of the strip whose window covers that row. Make the block's tile larger
    // to match (for example 64 columns × 4 strips of 16 rows).
    for (int i = 0; i < k; ++i)
        for (int j = 0; j < k; ++j) acc = fmaf(c_filter[i * k + j], tile[(ty + i) * side + tx + j], acc);
    out[size_t(y) * cols + x] = acc;
}

}  // namespace

void set_filter_fast(const float* weights, int k) {
    cudaMemcpyToSymbol(c_filter, weights, sizeof(float) * k * k);
    g_k = k;
}

void conv_fast(const float* in, float* out, int rows, int cols) {
    if (rows <= 0 || cols <= 0) return;
    const dim3 grid((cols + kOut - 1) / kOut, (rows + kOut - 1) / kOut);
    conv_tiled_kernel<<<grid, dim3(kOut, kOut)>>>(in, out, rows, cols, g_k);
}
