// SPDX-License-Identifier: MIT
// Known-bad 04.2: the real halo tile, but only in a branch never taken at run time. It
// stands for an outside submission of issue #32: one kernel holds the reference's tile,
// barrier and sums from shared memory under `if (blockDim.x == 7)`, which no launch of
// 32 × 32 threads takes; every block runs the starter's untiled sums instead, every tap a
// global load. The compiled kernel shows every instruction the old rule asked for, so
// reading what the code holds was not enough. The sums' loop that does run computes with
// global loads of that loop; rejected [technique] (no-global-fed-math).
#include "convolution.cuh"

namespace {

constexpr int kOut = 32;
constexpr int kMaxIn = kOut + kMaxFilterWidth - 1;

__constant__ float c_filter[kMaxFilterWidth * kMaxFilterWidth];
int g_k = 1;

__global__ void __launch_bounds__(kOut * kOut)
    conv_dead_branch_kernel(const float* __restrict__ in, float* __restrict__ out, int rows, int cols, int k) {
    const int r = (k - 1) / 2;
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int y = blockIdx.y * kOut + ty, x = blockIdx.x * kOut + tx;
    if (blockDim.x != 7) {  // always: the untiled sums
        if (y >= rows || x >= cols) return;
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
        return;
    }
    // Never reached: the reference's tile (a uniform branch, so the barrier is legal).
    __shared__ float tile[kMaxIn * kMaxIn];
    const int side = kOut + k - 1;
    const int y0 = blockIdx.y * kOut - r, x0 = blockIdx.x * kOut - r;
    for (int e = ty * kOut + tx; e < side * side; e += kOut * kOut) {
        const int yy = y0 + e / side, xx = x0 + e % side;
        tile[e] = (yy >= 0 && yy < rows && xx >= 0 && xx < cols) ? in[size_t(yy) * cols + xx] : 0.f;
    }
    __syncthreads();
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
    conv_dead_branch_kernel<<<grid, dim3(kOut, kOut)>>>(in, out, rows, cols, g_k);
}
