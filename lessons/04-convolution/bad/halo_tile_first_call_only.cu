// SPDX-License-Identifier: MIT
// Known-bad 04.2: the technique on the process's first call only. The first call of
// conv_tiled runs the reference's halo-tile kernel; every call after it runs the starter's
// untiled kernel, every tap a global load. Both are correct, and at 04.2's timed width the
// untiled kernel is about as fast (the threshold cannot tell them apart), so correctness and
// speed pass. Its compiled code holds a kernel with the technique, so a check that reads
// every compiled kernel passes it too; but the first call is a checked one, long before the
// timing, and no timed call runs the tiled kernel. Must be rejected [technique] from the
// kernels the timed calls ran (or slow, on a GPU whose speed separates the two kernels).
#include "convolution.cuh"

namespace {

constexpr int kOut = 32;                            // the tiled kernel's output tile side
constexpr int kMaxIn = kOut + kMaxFilterWidth - 1;  // its input tile side for the widest filter
constexpr int kBlockX = 32, kBlockY = 8;            // the untiled kernel's block

__constant__ float c_filter[kMaxFilterWidth * kMaxFilterWidth];
int g_k = 1;
bool g_first_call = true;

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
    for (int i = 0; i < k; ++i)
        for (int j = 0; j < k; ++j) acc = fmaf(c_filter[i * k + j], tile[(ty + i) * side + tx + j], acc);
    out[size_t(y) * cols + x] = acc;
}

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
    if (rows <= 0 || cols <= 0) return;
    if (g_first_call) {  // the one call that shows the technique
        g_first_call = false;
        const dim3 grid((cols + kOut - 1) / kOut, (rows + kOut - 1) / kOut);
        conv_tiled_kernel<<<grid, dim3(kOut, kOut)>>>(in, out, rows, cols, g_k);
        return;
    }
    const dim3 grid((cols + kBlockX - 1) / kBlockX, (rows + kBlockY - 1) / kBlockY);
    conv_untiled_kernel<<<grid, dim3(kBlockX, kBlockY)>>>(in, out, rows, cols, g_k);
}
