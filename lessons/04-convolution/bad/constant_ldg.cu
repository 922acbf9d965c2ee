// SPDX-License-Identifier: MIT
// Known-bad 04.1: correct, and as fast as the starter, without the technique. The weights stay
// in a __device__ array in global memory and the kernel reads them with __ldg, the read-only
// data path, which on every GPU from sm_75 on is the L1 the starter's loads go through as
// well; a warp-uniform load there is a broadcast too. Where speed cannot separate 04.1 from
// its starter, only the machine code can: no operand comes from the constant bank, and every
// weight is a global load from the __device__ array's address. Rejected [technique].
#include "convolution.cuh"

namespace {

constexpr int kBlockX = 32, kBlockY = 8;

__device__ float g_filter[kMaxFilterWidth * kMaxFilterWidth];  // global memory, not __constant__
int g_k = 1;

__global__ void conv_ldg_kernel(const float* __restrict__ in, float* __restrict__ out, int rows, int cols, int k) {
    const int x = blockIdx.x * kBlockX + threadIdx.x, y = blockIdx.y * kBlockY + threadIdx.y;
    if (y >= rows || x >= cols) return;
    const int r = (k - 1) / 2;
    float acc = 0.f;
    for (int i = 0; i < k; ++i) {
        const int yy = y - r + i;
        if (yy < 0 || yy >= rows) continue;
        for (int j = 0; j < k; ++j) {
            const int xx = x - r + j;
            if (xx >= 0 && xx < cols) acc = fmaf(__ldg(&g_filter[i * k + j]), __ldg(&in[size_t(yy) * cols + xx]), acc);
        }
    }
    out[size_t(y) * cols + x] = acc;
}

}  // namespace

void set_filter_constant(const float* weights, int k) {
    cudaMemcpyToSymbol(g_filter, weights, sizeof(float) * k * k);
    g_k = k;
}

void conv_constant(const float* in, float* out, int rows, int cols) {
    if (rows <= 0 || cols <= 0) return;
    const dim3 grid((cols + kBlockX - 1) / kBlockX, (rows + kBlockY - 1) / kBlockY);
    conv_ldg_kernel<<<grid, dim3(kBlockX, kBlockY)>>>(in, out, rows, cols, g_k);
}
