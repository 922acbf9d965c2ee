// SPDX-License-Identifier: MIT
// Known-bad 02.1: the reference, with each output element's place counted in bytes and held
// in an int (a matrix has fewer than 2^31 elements, so an int looks safe). Past 2^31 bytes,
// the 2^29th float, the offset wraps to a negative one: the stores write about 2 GiB before
// `out`, whose tail keeps the grader's poison. The loads keep the reference's addressing, so
// that the kernel is as fast as the reference wherever its speed is graded. Every
// timed matrix is far smaller (16 × the L2, a quarter of the free memory at most), and so
// are the checked shapes, kTransposeMaxSide × 3 included. Must be rejected: wrong, bounds
// or fault, by the check past 2^31 bytes (a 23173 × 23173 matrix).
#include "bank_conflicts.cuh"

namespace {

constexpr int kTile = 64;                // the tile is kTile × kTile elements
constexpr int kWidth = 32, kHeight = 8;  // threads per block: one warp per tile row
constexpr int kThreads = kWidth * kHeight;

// BUG: the byte offset in 32 bits. Counted unsigned, so that it wraps the same way whatever
// the compiler makes of a signed overflow, then held in an int, as a careless port would.
__device__ int byte_offset(int row, int width, int col) { return int(unsigned(row * width + col) * unsigned(sizeof(float))); }

__global__ void __launch_bounds__(kThreads)
    transpose_tiled_kernel(const float* __restrict__ in, float* __restrict__ out, int rows, int cols) {
    __shared__ float tile[kTile][kTile];
    const int r0 = blockIdx.y * kTile, c0 = blockIdx.x * kTile;
    char* out_bytes = reinterpret_cast<char*>(out);
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
    for (int i = 0; i < kTile / kHeight; ++i) {
#pragma unroll
        for (int j = 0; j < kTile / kWidth; ++j) {
            int dy = threadIdx.y + i * kHeight, dx = threadIdx.x + j * kWidth;
            if (c0 + dy < cols && r0 + dx < rows)
                *reinterpret_cast<float*>(out_bytes + byte_offset(c0 + dy, rows, r0 + dx)) = tile[dx][dy];
        }
    }
}

}  // namespace

void transpose_tiled(const float* in, float* out, int rows, int cols) {
    if (rows <= 0 || cols <= 0) return;
    dim3 grid((cols + kTile - 1) / kTile, (rows + kTile - 1) / kTile);
    transpose_tiled_kernel<<<grid, dim3(kWidth, kHeight)>>>(in, out, rows, cols);
}
