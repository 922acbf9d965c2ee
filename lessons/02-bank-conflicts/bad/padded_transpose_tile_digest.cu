// SPDX-License-Identifier: MIT
// Known-bad 02.2: the padded tile behind a cache of transposed tiles, keyed by a cheap
// digest of part of each tile: the sign and exponent of its first element. A call with the
// same arguments as the previous one replays, from a buffer of the launcher's own, every
// tile whose digest is unchanged, and transposes the others. The checks call each shape
// once, so nothing is replayed there; the timed calls repeat one call on fresh inputs,
// where about one tile in six keeps its digest but not its contents. Must be rejected:
// wrong (a timed call verified in full against the grader's own transpose).
#include <cstdint>

#include "bank_conflicts.cuh"

namespace {

constexpr int kTile = 64;
constexpr int kWidth = 32, kHeight = 8;
constexpr int kThreads = kWidth * kHeight;

// `cache` mirrors `out` (the last transpose computed, element for element) and
// `digests` holds one digest per tile.
__global__ void __launch_bounds__(kThreads)
    transpose_cached_kernel(const float* __restrict__ in, float* __restrict__ out, int rows, int cols,
                            float* __restrict__ cache, uint32_t* __restrict__ digests, bool replay) {
    __shared__ float tile[kTile][kTile + 1];
    const int r0 = blockIdx.y * kTile, c0 = blockIdx.x * kTile;
    const size_t t = size_t(blockIdx.y) * gridDim.x + blockIdx.x;
    const uint32_t digest = __float_as_uint(in[size_t(r0) * cols + c0]) >> 23;  // sign and exponent
    if (replay && digests[t] == digest) {  // the same for the whole block: no barrier is skipped by part of it
        // the bug: "same digest, same tile" — the other 4095 elements may have changed
        for (int dy = threadIdx.y; dy < kTile; dy += kHeight)
            for (int dx = threadIdx.x; dx < kTile; dx += kWidth)
                if (c0 + dy < cols && r0 + dx < rows) {
                    const size_t o = size_t(c0 + dy) * rows + r0 + dx;
                    out[o] = cache[o];
                }
        return;
    }
    float v[kTile / kHeight][kTile / kWidth];
#pragma unroll
    for (int i = 0; i < kTile / kHeight; ++i)
#pragma unroll
        for (int j = 0; j < kTile / kWidth; ++j) {
            int dy = threadIdx.y + i * kHeight, dx = threadIdx.x + j * kWidth;
            v[i][j] = (r0 + dy < rows && c0 + dx < cols) ? in[size_t(r0 + dy) * cols + c0 + dx] : 0.f;
        }
#pragma unroll
    for (int i = 0; i < kTile / kHeight; ++i)
#pragma unroll
        for (int j = 0; j < kTile / kWidth; ++j) tile[threadIdx.y + i * kHeight][threadIdx.x + j * kWidth] = v[i][j];
    __syncthreads();
#pragma unroll
    for (int i = 0; i < kTile / kHeight; ++i)
#pragma unroll
        for (int j = 0; j < kTile / kWidth; ++j) {
            int dy = threadIdx.y + i * kHeight, dx = threadIdx.x + j * kWidth;
            if (c0 + dy < cols && r0 + dx < rows) {
                const size_t o = size_t(c0 + dy) * rows + r0 + dx;
                out[o] = cache[o] = tile[dx][dy];
            }
        }
    if (threadIdx.x == 0 && threadIdx.y == 0) digests[t] = digest;  // every thread read it before the barrier
}

// The previous call and the launcher's own buffers for its shape.
struct Cache {
    const float* in = nullptr;
    float* out = nullptr;
    int rows = 0, cols = 0;
    float* result = nullptr;
    uint32_t* digests = nullptr;
};

}  // namespace

void transpose_padded(const float* in, float* out, int rows, int cols) {
    if (rows <= 0 || cols <= 0) return;
    static Cache cache;
    dim3 grid((cols + kTile - 1) / kTile, (rows + kTile - 1) / kTile);
    const bool same = in == cache.in && out == cache.out && rows == cache.rows && cols == cache.cols;
    if (rows != cache.rows || cols != cache.cols) {  // a new shape: new buffers
        cudaFree(cache.result);
        cudaFree(cache.digests);
        cache.result = nullptr, cache.digests = nullptr;
        if (cudaMalloc(&cache.result, size_t(rows) * cols * sizeof(float)) != cudaSuccess ||
            cudaMalloc(&cache.digests, size_t(grid.x) * grid.y * sizeof(uint32_t)) != cudaSuccess)
            return;  // out of memory: the grader sees an unwritten output
    }
    cache.in = in, cache.out = out, cache.rows = rows, cache.cols = cols;
    transpose_cached_kernel<<<grid, dim3(kWidth, kHeight)>>>(in, out, rows, cols, cache.result, cache.digests, same);
}
