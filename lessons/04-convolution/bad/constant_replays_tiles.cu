// SPDX-License-Identifier: MIT
// Known-bad 04.1: the reference's kernel behind a cache of output tiles. On a large image
// (the timed ones) right after another, each block compares a digest of its tile — the top
// 12 bits (sign, exponent, 3 bits of mantissa) of the tile's first input pixel, cheap to
// read — with the digest its tile had in the previous call, and when they are equal copies
// its pixels from the previous call's result (kept in a buffer of its own) instead of
// computing them. It ignores the filter. Against an image that changes in a few pixels
// between calls such a digest replays nearly every tile; against a fresh image it still
// matches in about one tile in fifty, and those tiles are stale. Right on the first call.
// It once replayed only on the same buffers and shape, which the timed calls no longer have:
// each has a shape and a place in its buffers of its own (issue 32). Must be rejected: wrong.
#include <cuda_runtime.h>

#include "convolution.cuh"

namespace {

constexpr int kBlockX = 32, kBlockY = 8;
constexpr long kLarge = 1L << 24;  // pixels: the timed image is larger, every checked one smaller

__constant__ float c_filter[kMaxFilterWidth * kMaxFilterWidth];
int g_k = 1;

__global__ void conv_constant_kernel(const float* __restrict__ in, float* __restrict__ out, int rows, int cols, int k,
                                     float* kept, unsigned int* digests) {
    const int x = blockIdx.x * kBlockX + threadIdx.x, y = blockIdx.y * kBlockY + threadIdx.y;
    const size_t tile = size_t(blockIdx.y) * gridDim.x + blockIdx.x;
    const unsigned int digest = __float_as_uint(in[size_t(blockIdx.y) * kBlockY * cols + size_t(blockIdx.x) * kBlockX]) >> 20;
    const bool replay = digests[tile] == digest;  // the bug: 12 bits stand for the tile and its filter
    __syncthreads();  // every thread has read the old digest
    if (threadIdx.x == 0 && threadIdx.y == 0) digests[tile] = digest;
    if (y >= rows || x >= cols) return;
    const size_t p = size_t(y) * cols + x;
    if (replay) {
        out[p] = kept[p];
        return;
    }
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
    out[p] = acc;
    kept[p] = acc;
}

// What the previous calls kept, and whether the last one was large.
struct Cache {
    bool large_before = false;
    size_t pixels = 0, tiles = 0;  // allocated
    float* kept = nullptr;
    unsigned int* digests = nullptr;
};

}  // namespace

void set_filter_constant(const float* weights, int k) {
    cudaMemcpyToSymbol(c_filter, weights, sizeof(float) * k * k);
    g_k = k;
}

void conv_constant(const float* in, float* out, int rows, int cols) {
    if (rows <= 0 || cols <= 0) return;
    static Cache cache;
    const dim3 grid((cols + kBlockX - 1) / kBlockX, (rows + kBlockY - 1) / kBlockY);
    const size_t pixels = size_t(rows) * cols, tiles = size_t(grid.x) * grid.y;
    const bool large = long(pixels) >= kLarge;
    bool repeat = large && cache.large_before;
    cache.large_before = large;
    if (pixels > cache.pixels) {
        cudaFree(cache.kept);
        cudaMalloc(&cache.kept, pixels * sizeof(float));
        cache.pixels = pixels;
        repeat = false;
    }
    if (tiles > cache.tiles) {
        cudaFree(cache.digests);
        cudaMalloc(&cache.digests, tiles * sizeof(unsigned int));
        cache.tiles = tiles;
        repeat = false;
    }
    if (!repeat) cudaMemsetAsync(cache.digests, 0xFF, tiles * sizeof(unsigned int), 0);  // no digest has 32 bits set
    conv_constant_kernel<<<grid, dim3(kBlockX, kBlockY)>>>(in, out, rows, cols, g_k, cache.kept, cache.digests);
}
