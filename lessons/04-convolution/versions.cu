// SPDX-License-Identifier: MIT
// The grader's copies of the notes' four kernels (versions.cuh): written once here, the
// same code as the starters and references they stand for, so that the teaching table
// measures exactly the versions each graded exercise separates.
#include <cuda_runtime.h>

#include "convolution.cuh"
#include "grader/cuda_check.cuh"
#include "versions.cuh"

namespace versions {

namespace {

constexpr int kTaps = kMaxFilterWidth * kMaxFilterWidth;
constexpr int kBasicX = 32, kBasicY = 8;             // the untiled kernels' block
constexpr int kTile = 32;                            // the tiled kernels' output tile and block side
constexpr int kMaxIn = kTile + kMaxFilterWidth - 1;  // input tile side for the widest filter

__device__ float g_filter[kTaps];
__constant__ float c_filter[kTaps];
int g_k = 1;

// The untiled kernel, weights from global memory (kGlobal, the 04.1 starter) or from
// constant memory (the 04.1 reference): one template, two kernels, each the same loop as
// the file it stands for.
template <bool kGlobal>
__global__ void basic_kernel(const float* __restrict__ in, float* __restrict__ out, int rows, int cols, int k) {
    const int x = blockIdx.x * kBasicX + threadIdx.x, y = blockIdx.y * kBasicY + threadIdx.y;
    if (y >= rows || x >= cols) return;
    const int r = (k - 1) / 2;
    float acc = 0.f;
    for (int i = 0; i < k; ++i) {
        const int yy = y - r + i;
        if (yy < 0 || yy >= rows) continue;
        for (int j = 0; j < k; ++j) {
            const int xx = x - r + j;
            if (xx >= 0 && xx < cols)
                acc = fmaf(kGlobal ? g_filter[i * k + j] : c_filter[i * k + j], in[size_t(yy) * cols + xx], acc);
        }
    }
    out[size_t(y) * cols + x] = acc;
}

__global__ void __launch_bounds__(kTile * kTile)
    halo_tile_kernel(const float* __restrict__ in, float* __restrict__ out, int rows, int cols, int k) {
    __shared__ float tile[kMaxIn * kMaxIn];
    const int r = (k - 1) / 2, side = kTile + k - 1;
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int y0 = blockIdx.y * kTile - r, x0 = blockIdx.x * kTile - r;
    for (int e = ty * kTile + tx; e < side * side; e += kTile * kTile) {
        const int yy = y0 + e / side, xx = x0 + e % side;
        tile[e] = (yy >= 0 && yy < rows && xx >= 0 && xx < cols) ? in[size_t(yy) * cols + xx] : 0.f;
    }
    __syncthreads();
    const int y = blockIdx.y * kTile + ty, x = blockIdx.x * kTile + tx;
    if (y >= rows || x >= cols) return;
    float acc = 0.f;
    for (int i = 0; i < k; ++i)
        for (int j = 0; j < k; ++j) acc = fmaf(c_filter[i * k + j], tile[(ty + i) * side + tx + j], acc);
    out[size_t(y) * cols + x] = acc;
}

__global__ void __launch_bounds__(kTile * kTile)
    cache_halo_kernel(const float* __restrict__ in, float* __restrict__ out, int rows, int cols, int k) {
    __shared__ float tile[kTile][kTile];
    const int r = (k - 1) / 2;
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int y = blockIdx.y * kTile + ty, x = blockIdx.x * kTile + tx;
    tile[ty][tx] = (y < rows && x < cols) ? in[size_t(y) * cols + x] : 0.f;
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

dim3 grid_of(int rows, int cols, int bx, int by) { return dim3((cols + bx - 1) / bx, (rows + by - 1) / by); }

}  // namespace

void set_filter(const float* weights, int k) {
    CUDA_CHECK(cudaMemcpyToSymbol(g_filter, weights, sizeof(float) * k * k));
    CUDA_CHECK(cudaMemcpyToSymbol(c_filter, weights, sizeof(float) * k * k));
    g_k = k;
}

void global(const float* in, float* out, int rows, int cols) {
    if (rows > 0 && cols > 0)
        basic_kernel<true><<<grid_of(rows, cols, kBasicX, kBasicY), dim3(kBasicX, kBasicY)>>>(in, out, rows, cols, g_k);
}

void constant(const float* in, float* out, int rows, int cols) {
    if (rows > 0 && cols > 0)
        basic_kernel<false><<<grid_of(rows, cols, kBasicX, kBasicY), dim3(kBasicX, kBasicY)>>>(in, out, rows, cols, g_k);
}

void halo_tile(const float* in, float* out, int rows, int cols) {
    if (rows > 0 && cols > 0)
        halo_tile_kernel<<<grid_of(rows, cols, kTile, kTile), dim3(kTile, kTile)>>>(in, out, rows, cols, g_k);
}

void cache_halo(const float* in, float* out, int rows, int cols) {
    if (rows > 0 && cols > 0)
        cache_halo_kernel<<<grid_of(rows, cols, kTile, kTile), dim3(kTile, kTile)>>>(in, out, rows, cols, g_k);
}

}  // namespace versions
