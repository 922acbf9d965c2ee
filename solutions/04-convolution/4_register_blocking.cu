// SPDX-License-Identifier: MIT
// Exercise 04.4 — reference. Four changes to the halo tile of 04.2:
// - the filter width is a template parameter: every loop over the filter is unrolled, and
//   each weight becomes an operand the multiply-add reads straight from the constant bank;
// - each thread computes 4 adjacent columns × S rows of outputs (S = 16 up to k = 7, 8
//   above), held in registers, so a value it reads from shared memory serves up to 4k
//   multiply-adds instead of one;
// - the tile is loaded in float4 chunks, and all of a thread's loads are issued before the
//   first store to shared memory, so they wait for memory together, not one after another;
// - a block of 16 × 8 threads covers 64 columns × 8S rows, so the halo costs less per pixel.
// Shared memory delivers one 32-lane load per clock per SM, a quarter of the FMA rate, and
// every non-FFMA instruction takes an issue slot from the FFMAs (theory.md, "Register
// blocking").
#include <cstddef>

#include "convolution.cuh"

namespace {

constexpr int kThreadsX = 16, kThreadsY = 8, kThreads = kThreadsX * kThreadsY;
constexpr int kCols = 4;  // outputs per thread along a row: one float4

template <int K>
struct Geometry {
    static constexpr int R = (K - 1) / 2;
    // Outputs per thread down a column: long strips amortize the k − 1 extra rows each
    // strip reads; for wide filters a shorter strip keeps the unrolled code within the
    // registers four blocks per SM allow.
    static constexpr int S = K <= 7 ? 16 : 8;
    static constexpr int kOutRows = kThreadsY * S, kOutCols = kThreadsX * kCols;
    // The tile starts P ≥ R columns left of the block's first output, P a multiple of 4, so
    // that each float4 chunk lies on a 16-byte boundary of shared memory and, when cols is
    // a multiple of 4, of the image row (cudaMalloc'd rows then start 16-byte aligned).
    static constexpr int P = (R + 3) / 4 * 4;
    static constexpr int kInRows = kOutRows + K - 1, kChunks = (kOutCols + 2 * P) / 4, kAll = kInRows * kChunks;
    static constexpr int kPerThread = (kAll + kThreads - 1) / kThreads;  // chunks each thread loads
};

__constant__ float c_filter[kMaxFilterWidth * kMaxFilterWidth];
int g_k = 1;

// The block's input tile, halo included, 0 outside the image. kAligned (cols % 4 == 0): a
// chunk lies all inside a row or all outside it, and one float4 load fetches it; otherwise
// four scalar loads, each tested on its own. Every load goes into a register first and the
// stores follow in a second loop, so a thread's kPerThread loads are in flight together:
// the tile costs about one memory latency, not one per load.
template <int K, bool kAligned>
__device__ __forceinline__ void load_tile(float4* tile, const float* __restrict__ in, int rows, int cols, int y0,
                                          int x0) {
    using G = Geometry<K>;
    const int tid = threadIdx.y * kThreadsX + threadIdx.x;
    float4 v[G::kPerThread];
#pragma unroll
    for (int n = 0; n < G::kPerThread; ++n) {
        // consecutive threads take consecutive chunks of a row; divisions by a constant
        const int e = n * kThreads + tid, yy = y0 + e / G::kChunks, xx = x0 + 4 * (e % G::kChunks);
        v[n] = make_float4(0.f, 0.f, 0.f, 0.f);
        // unsigned: a negative coordinate compares as huge, one test per side
        if (e < G::kAll && unsigned(yy) < unsigned(rows)) {
            const float* row = in + ptrdiff_t(yy) * cols;
            if (kAligned) {
                if (unsigned(xx) < unsigned(cols)) v[n] = *reinterpret_cast<const float4*>(row + xx);
            } else {
                if (unsigned(xx) < unsigned(cols)) v[n].x = row[xx];
                if (unsigned(xx + 1) < unsigned(cols)) v[n].y = row[xx + 1];
                if (unsigned(xx + 2) < unsigned(cols)) v[n].z = row[xx + 2];
                if (unsigned(xx + 3) < unsigned(cols)) v[n].w = row[xx + 3];
            }
        }
    }
#pragma unroll
    for (int n = 0; n < G::kPerThread; ++n)
        if (n * kThreads + tid < G::kAll) tile[n * kThreads + tid] = v[n];
}

// 4 blocks of 128 threads per SM: the compiler keeps each thread within 128 registers.
template <int K>
__global__ void __launch_bounds__(kThreads, 4)
    conv_fast_kernel(const float* __restrict__ in, float* __restrict__ out, int rows, int cols) {
    using G = Geometry<K>;
    constexpr int S = G::S, kOff = G::P - G::R;            // a window's first column within its chunk
    constexpr int kLoads = (kOff + kCols + K - 1 + 3) / 4;  // float4 reads per tile row of a window
    __shared__ float4 tile[G::kAll];
    const int y0 = blockIdx.y * G::kOutRows - G::R, x0 = blockIdx.x * G::kOutCols - G::P;
    if (cols % 4 == 0) load_tile<K, true>(tile, in, rows, cols, y0, x0);
    else load_tile<K, false>(tile, in, rows, cols, y0, x0);
    __syncthreads();

    //! [strip]
    // Thread (tx, ty) sums output rows ty·S + i and columns 4tx + c (i < S, c < 4). Tile row
    // t of its window meets output row i with filter row t − i, when 0 ≤ t − i < K; value
    // v[kOff + c + j] of that row meets output column c with filter column j. All indices
    // are compile-time constants: acc and v stay in registers, and each weight is a
    // constant-bank operand of its FFMA.
    float acc[S][kCols];
#pragma unroll
    for (int i = 0; i < S; ++i)
#pragma unroll
        for (int c = 0; c < kCols; ++c) acc[i][c] = 0.f;
    const float4* s = tile + threadIdx.y * S * G::kChunks + threadIdx.x;
#pragma unroll
    for (int t = 0; t < S + K - 1; ++t) {
        float v[4 * kLoads];  // the K + 3 values of this row the thread needs, and a few more
#pragma unroll
        for (int q = 0; q < kLoads; ++q) {  // kLoads 16-byte shared loads ...
            const float4 w = s[t * G::kChunks + q];
            v[4 * q] = w.x, v[4 * q + 1] = w.y, v[4 * q + 2] = w.z, v[4 * q + 3] = w.w;
        }
#pragma unroll
        for (int i = 0; i < S; ++i)  // ... feed 4K multiply-adds for each of up to K output rows
            if (t - i >= 0 && t - i < K)
#pragma unroll
                for (int j = 0; j < K; ++j)
#pragma unroll
                    for (int c = 0; c < kCols; ++c)
                        acc[i][c] = fmaf(c_filter[(t - i) * K + j], v[kOff + c + j], acc[i][c]);
    }
    //! [strip]

    const int x = blockIdx.x * G::kOutCols + threadIdx.x * kCols, y = blockIdx.y * G::kOutRows + threadIdx.y * S;
    if (x >= cols) return;
    const bool whole = cols % 4 == 0;  // then x % 4 == 0: the 4 outputs are one aligned float4, all inside
#pragma unroll
    for (int i = 0; i < S; ++i) {
        if (y + i >= rows) break;
        float* o = out + size_t(y + i) * cols + x;
        if (whole) *reinterpret_cast<float4*>(o) = make_float4(acc[i][0], acc[i][1], acc[i][2], acc[i][3]);
        else
#pragma unroll
            for (int c = 0; c < kCols; ++c)
                if (x + c < cols) o[c] = acc[i][c];
    }
}

template <int K>
void launch(const float* in, float* out, int rows, int cols) {
    using G = Geometry<K>;
    const dim3 grid((cols + G::kOutCols - 1) / G::kOutCols, (rows + G::kOutRows - 1) / G::kOutRows);
    conv_fast_kernel<K><<<grid, dim3(kThreadsX, kThreadsY)>>>(in, out, rows, cols);
}

}  // namespace

void set_filter_fast(const float* weights, int k) {
    cudaMemcpyToSymbol(c_filter, weights, sizeof(float) * k * k);
    g_k = k;
}

//! [dispatch]
void conv_fast(const float* in, float* out, int rows, int cols) {
    if (rows <= 0 || cols <= 0) return;
    switch (g_k) {  // one compiled kernel per filter width
        case 1: launch<1>(in, out, rows, cols); break;
        case 3: launch<3>(in, out, rows, cols); break;
        case 5: launch<5>(in, out, rows, cols); break;
        case 7: launch<7>(in, out, rows, cols); break;
        case 9: launch<9>(in, out, rows, cols); break;
        case 11: launch<11>(in, out, rows, cols); break;
        case 13: launch<13>(in, out, rows, cols); break;
        case 15: launch<15>(in, out, rows, cols); break;
        default: break;  // the contract has odd widths up to 15 only
    }
}
//! [dispatch]
