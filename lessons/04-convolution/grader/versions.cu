// SPDX-License-Identifier: MIT
// The grader's copies of the notes' four kernels (versions.cuh): written once here, the
// same code as the starters and references they stand for, so that the teaching table
// measures exactly the versions each graded exercise separates; and strips_one_load(), the
// former 04.4 reference, which shows what the current one's loads in flight buy. The blocks
// marked student-release: omit hold the answers among them, which the release leaves out.
#include <cuda_runtime.h>

#include <cstddef>

#include "convolution.cuh"
#include "grader/common/cuda_check.cuh"
#include "versions.cuh"

namespace versions {

namespace {

constexpr int kTaps = kMaxFilterWidth * kMaxFilterWidth;
constexpr int kBasicX = 32, kBasicY = 8;             // the untiled kernels' block
// student-release: omit (the tiled kernels' shapes)
constexpr int kTile = 32;                            // the tiled kernels' output tile and block side
constexpr int kOut = kTile;                          // its name in 2_halo_tile.cu, which halo_tile_kernel copies
constexpr int kMaxIn = kTile + kMaxFilterWidth - 1;  // input tile side for the widest filter
// student-release: end

__device__ float g_filter[kTaps];
__constant__ float c_filter[kTaps];
int g_k = 1;

// The untiled kernel, weights from global memory (kGlobal, the 04.1 starter) or from
// constant memory (the 04.1 reference): one template, two kernels, each the same loop as
// the file it stands for. kMagnitude (the timed calls' reference) also sums |w|·|in| over
// the same taps into `magnitude`.
template <bool kGlobal, bool kMagnitude = false>
__global__ void basic_kernel(const float* __restrict__ in, float* __restrict__ out, int rows, int cols, int k,
                             float* __restrict__ magnitude = nullptr) {
    const int x = blockIdx.x * kBasicX + threadIdx.x, y = blockIdx.y * kBasicY + threadIdx.y;
    if (y >= rows || x >= cols) return;
    const int r = (k - 1) / 2;
    float acc = 0.f, mag = 0.f;
    for (int i = 0; i < k; ++i) {
        const int yy = y - r + i;
        if (yy < 0 || yy >= rows) continue;
        for (int j = 0; j < k; ++j) {
            const int xx = x - r + j;
            if (xx >= 0 && xx < cols) {
                const float w = kGlobal ? g_filter[i * k + j] : c_filter[i * k + j], v = in[size_t(yy) * cols + xx];
                acc = fmaf(w, v, acc);
                if (kMagnitude) mag = fmaf(fabsf(w), fabsf(v), mag);
            }
        }
    }
    out[size_t(y) * cols + x] = acc;
    if (kMagnitude) magnitude[size_t(y) * cols + x] = mag;
}

// student-release: omit (the 04.2 and 04.3 references, and the former 04.4 reference)
// copy of solutions/04-convolution/2_halo_tile.cu: conv_tiled_kernel
// copy of starter/04-convolution/4_register_blocking.cu: conv_tiled_kernel
__global__ void __launch_bounds__(kOut * kOut)
    halo_tile_kernel(const float* __restrict__ in, float* __restrict__ out, int rows, int cols, int k) {
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

// copy of solutions/04-convolution/3_cache_halo.cu: conv_cache_halo_kernel
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

// ---- register strips with one tile load in flight (the former 04.4 reference) ----------
// The filter width is a template parameter (every loop unrolls, every weight is a constant
// operand), each thread of a 64 × 4 block sums a vertical strip of S outputs, so a value
// read from shared memory feeds up to K multiply-adds. What it lacks against the current
// reference: each tile element is loaded in its own branch and stored to shared memory
// right after it returns, so a thread has one global load in flight at a time, and pays a
// division and a branch per 4-byte element; and it reads shared memory 4 bytes at a time.
constexpr int kOneThreadsX = 64, kOneThreadsY = 4, kOneThreads = kOneThreadsX * kOneThreadsY;

template <int K>
constexpr int kOneStrip = K <= 7 ? 16 : 8;  // outputs per thread, down a column
// Blocks per SM the register budget must allow: with nvcc 13.0 for sm_90, k = 7 fits in
// 80 registers, while k = 13 and 15 need over 200, which a cap of 128 would spill.
template <int K>
constexpr int kOneMinBlocks = K <= 7 ? 3 : (K <= 11 ? 2 : 1);

template <int K>
__global__ void __launch_bounds__(kOneThreads, kOneMinBlocks<K>)
    strips_one_load_kernel(const float* __restrict__ in, float* __restrict__ out, int rows, int cols) {
    constexpr int R = (K - 1) / 2, S = kOneStrip<K>;
    constexpr int kOutRows = kOneThreadsY * S, kOutCols = kOneThreadsX;
    constexpr int kInRows = kOutRows + K - 1, kInCols = kOutCols + K - 1, kCells = kInRows * kInCols;
    __shared__ float tile[kCells];
    const int tid = threadIdx.y * kOneThreadsX + threadIdx.x;
    const int y0 = blockIdx.y * kOutRows - R, x0 = blockIdx.x * kOutCols - R;
#pragma unroll
    for (int n = 0; n < (kCells + kOneThreads - 1) / kOneThreads; ++n) {
        const int e = n * kOneThreads + tid;
        if (e < kCells) {  // load, then store: the next load waits for this one
            const int yy = y0 + e / kInCols, xx = x0 + e % kInCols;
            const bool inside = unsigned(yy) < unsigned(rows) && unsigned(xx) < unsigned(cols);
            tile[e] = inside ? in[size_t(yy) * cols + xx] : 0.f;
        }
    }
    __syncthreads();
    // Input row t of the strip meets output i with filter row t − i, when 0 ≤ t − i < K.
    float acc[S];
#pragma unroll
    for (int i = 0; i < S; ++i) acc[i] = 0.f;
    const float* s = tile + threadIdx.y * S * kInCols + threadIdx.x;
#pragma unroll
    for (int t = 0; t < S + K - 1; ++t)
#pragma unroll
        for (int j = 0; j < K; ++j) {
            const float v = s[t * kInCols + j];  // one 4-byte shared load for up to K multiply-adds
#pragma unroll
            for (int i = 0; i < S; ++i)
                if (t - i >= 0 && t - i < K) acc[i] = fmaf(c_filter[(t - i) * K + j], v, acc[i]);
        }
    const int x = blockIdx.x * kOutCols + threadIdx.x, y = blockIdx.y * kOutRows + threadIdx.y * S;
    if (x >= cols) return;
#pragma unroll
    for (int i = 0; i < S; ++i)
        if (y + i < rows) out[size_t(y + i) * cols + x] = acc[i];
}

template <int K>
void strips_one_load_launch(const float* in, float* out, int rows, int cols) {
    constexpr int kOutRows = kOneThreadsY * kOneStrip<K>;
    const dim3 grid((cols + kOneThreadsX - 1) / kOneThreadsX, (rows + kOutRows - 1) / kOutRows);
    strips_one_load_kernel<K><<<grid, dim3(kOneThreadsX, kOneThreadsY)>>>(in, out, rows, cols);
}
// student-release: end

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

void reference(const float* in, float* out, float* magnitude, int rows, int cols) {
    if (rows > 0 && cols > 0)
        basic_kernel<false, true>
            <<<grid_of(rows, cols, kBasicX, kBasicY), dim3(kBasicX, kBasicY)>>>(in, out, rows, cols, g_k, magnitude);
}

// student-release: omit (the launchers of the answers above)
void halo_tile(const float* in, float* out, int rows, int cols) {
    if (rows > 0 && cols > 0)
        halo_tile_kernel<<<grid_of(rows, cols, kTile, kTile), dim3(kTile, kTile)>>>(in, out, rows, cols, g_k);
}

void cache_halo(const float* in, float* out, int rows, int cols) {
    if (rows > 0 && cols > 0)
        cache_halo_kernel<<<grid_of(rows, cols, kTile, kTile), dim3(kTile, kTile)>>>(in, out, rows, cols, g_k);
}

void strips_one_load(const float* in, float* out, int rows, int cols) {
    if (rows <= 0 || cols <= 0) return;
    switch (g_k) {  // one compiled kernel per filter width
        case 1: strips_one_load_launch<1>(in, out, rows, cols); break;
        case 3: strips_one_load_launch<3>(in, out, rows, cols); break;
        case 5: strips_one_load_launch<5>(in, out, rows, cols); break;
        case 7: strips_one_load_launch<7>(in, out, rows, cols); break;
        case 9: strips_one_load_launch<9>(in, out, rows, cols); break;
        case 11: strips_one_load_launch<11>(in, out, rows, cols); break;
        case 13: strips_one_load_launch<13>(in, out, rows, cols); break;
        case 15: strips_one_load_launch<15>(in, out, rows, cols); break;
        default: break;
    }
}
// student-release: end

}  // namespace versions
