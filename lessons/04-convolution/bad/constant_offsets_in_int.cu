// SPDX-License-Identifier: MIT
// Known-bad 04.1: the reference, with each output pixel's place counted in bytes and held
// in an int (an image has fewer than 2^31 pixels, so an int looks safe). Past 2^31 bytes,
// the 2^29th pixel, the offset wraps to a negative one and the stores write about 2 GiB
// before out, whose last pixels keep the grader's poison. The loads keep the reference's
// addressing, so that the kernel is as fast as the reference wherever its speed is graded
// (16 SMs of an H100 included, where 04.1's reference passed by 1.10 ×) and only the size
// rejects it. Every timed image is far smaller (in and out together 16 × the L2, a quarter
// of the free memory at most), and so are the checked shapes. Must be rejected: wrong,
// bounds or fault, by the check past 2^31 bytes (a 23173 × 23173 image).
#include "convolution.cuh"

namespace {

constexpr int kBlockX = 32, kBlockY = 8;

__constant__ float c_filter[kMaxFilterWidth * kMaxFilterWidth];
int g_k = 1;  // the width set last, on the host

// BUG: the byte offset in 32 bits. Counted unsigned, so that it wraps the same way whatever
// the compiler makes of a signed overflow, then held in an int, as a careless port would.
__device__ int byte_offset(int row, int cols, int col) { return int(unsigned(row * cols + col) * unsigned(sizeof(float))); }

__global__ void conv_constant_kernel(const float* __restrict__ in, float* __restrict__ out, int rows, int cols, int k) {
    const int x = blockIdx.x * kBlockX + threadIdx.x, y = blockIdx.y * kBlockY + threadIdx.y;
    if (y >= rows || x >= cols) return;
    const int r = (k - 1) / 2;
    float acc = 0.f;
    for (int i = 0; i < k; ++i) {
        const int yy = y - r + i;
        if (yy < 0 || yy >= rows) continue;  // a row of zeros: nothing to add
        for (int j = 0; j < k; ++j) {
            const int xx = x - r + j;
            if (xx >= 0 && xx < cols) acc = fmaf(c_filter[i * k + j], in[size_t(yy) * cols + xx], acc);
        }
    }
    *reinterpret_cast<float*>(reinterpret_cast<char*>(out) + byte_offset(y, cols, x)) = acc;
}

}  // namespace

void set_filter_constant(const float* weights, int k) {
    cudaMemcpyToSymbol(c_filter, weights, sizeof(float) * k * k);
    g_k = k;
}

void conv_constant(const float* in, float* out, int rows, int cols) {
    if (rows <= 0 || cols <= 0) return;
    const dim3 grid((cols + kBlockX - 1) / kBlockX, (rows + kBlockY - 1) / kBlockY);
    conv_constant_kernel<<<grid, dim3(kBlockX, kBlockY)>>>(in, out, rows, cols, g_k);
}
