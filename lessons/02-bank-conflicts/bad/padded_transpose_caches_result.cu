// SPDX-License-Identifier: MIT
// Known-bad 02.2: the unpadded 64 × 64 tile (too slow for 02.2), hidden behind a cache: a
// call with the same in, out, rows and cols as the previous one copies that call's result
// from a private buffer instead of transposing. The timed calls repeat one call, but the
// grader writes fresh inputs before each, so the copy is stale. Must be rejected: wrong
// (every timed call is verified in full).
#include "bank_conflicts.cuh"

namespace {

constexpr int kTile = 64;                // the tile is kTile × kTile elements
constexpr int kWidth = 32, kHeight = 8;  // threads per block: one warp per tile row
constexpr int kThreads = kWidth * kHeight;

__global__ void __launch_bounds__(kThreads)
    transpose_unpadded_kernel(const float* __restrict__ in, float* __restrict__ out, int rows, int cols) {
    __shared__ float tile[kTile][kTile];
    const int r0 = blockIdx.y * kTile, c0 = blockIdx.x * kTile;
    // Read: a warp takes 32 consecutive elements of one input row. All 16 loads go out
    // before the first store to shared memory. Elements outside
    // the matrix load as zero and are never written back.
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
    __syncthreads();  // every element of the tile is written before any thread reads it
    // Write: a warp fills 32 consecutive elements of one output row, which is a column of
    // the tile: tile[dx][dy] for 32 consecutive dx, 64 words apart, all in one bank.
#pragma unroll
    for (int i = 0; i < kTile / kHeight; ++i) {
#pragma unroll
        for (int j = 0; j < kTile / kWidth; ++j) {
            int dy = threadIdx.y + i * kHeight, dx = threadIdx.x + j * kWidth;
            if (c0 + dy < cols && r0 + dx < rows) out[size_t(c0 + dy) * rows + r0 + dx] = tile[dx][dy];
        }
    }
}

// The previous call, and its result in a buffer of the launcher's own (one per shape).
struct Cache {
    const float* in = nullptr;
    float* out = nullptr;
    int rows = 0, cols = 0;
    float* result = nullptr;
    bool holds_result = false;
};

}  // namespace

void transpose_padded(const float* in, float* out, int rows, int cols) {
    if (rows <= 0 || cols <= 0) return;
    static Cache cache;
    const size_t bytes = size_t(rows) * cols * sizeof(float);
    if (cache.holds_result && in == cache.in && out == cache.out && rows == cache.rows && cols == cache.cols) {
        // the bug: "same call, same answer" — but the input may have changed since
        cudaMemcpyAsync(out, cache.result, bytes, cudaMemcpyDeviceToDevice, 0);
        return;
    }
    if (rows != cache.rows || cols != cache.cols) {  // a new shape: a new cache
        cudaFree(cache.result);
        cache.result = nullptr;
        cache.holds_result = cudaMalloc(&cache.result, bytes) == cudaSuccess;
    }
    cache.in = in, cache.out = out, cache.rows = rows, cache.cols = cols;
    dim3 grid((cols + kTile - 1) / kTile, (rows + kTile - 1) / kTile);
    transpose_unpadded_kernel<<<grid, dim3(kWidth, kHeight)>>>(in, out, rows, cols);
    if (cache.holds_result) cudaMemcpyAsync(cache.result, out, bytes, cudaMemcpyDeviceToDevice, 0);
}
