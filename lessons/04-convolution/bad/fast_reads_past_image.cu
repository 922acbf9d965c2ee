// SPDX-License-Identifier: MIT
// Known-bad 04.4: the tile load tests the right edge against nothing. In the partial tiles
// of the last columns it loads the first pixels of the next row where zeros belong (wrong),
// and past the last row's end it reads the guard values after the image or the unmapped
// page beyond them (wrong or fault).
#include "convolution.cuh"

namespace {

constexpr int kThreadsX = 64, kThreadsY = 4, kThreads = kThreadsX * kThreadsY;

// Outputs per thread, in a column: long strips amortize the k − 1 extra rows each strip
// reads; for wide filters a shorter strip keeps the unrolled code and the tile small.
template <int K>
constexpr int kStrip = K <= 7 ? 16 : 8;
// Blocks per SM the register budget must allow (the compiler then caps registers per
// thread to fit them). The unrolled code keeps many loaded values live at once: with nvcc
// 13.0 for sm_90, k = 7 fits in 80 registers (three blocks of 256 threads per SM), while
// k = 13 and 15 take over 200, which a cap of 128 would turn into spills to local memory:
// those run one block per SM instead (`-Xptxas -v` prints the counts).
template <int K>
constexpr int kMinBlocks = K <= 7 ? 3 : (K <= 11 ? 2 : 1);

__constant__ float c_filter[kMaxFilterWidth * kMaxFilterWidth];
int g_k = 1;

template <int K>
__global__ void __launch_bounds__(kThreads, kMinBlocks<K>)
    conv_fast_kernel(const float* __restrict__ in, float* __restrict__ out, int rows, int cols) {
    constexpr int R = (K - 1) / 2, S = kStrip<K>;
    constexpr int kOutRows = kThreadsY * S, kOutCols = kThreadsX;
    constexpr int kInRows = kOutRows + K - 1, kInCols = kOutCols + K - 1, kCells = kInRows * kInCols;
    __shared__ float tile[kCells];

    // The input tile, halo and ghost cells included, as one flat array: consecutive threads
    // load consecutive pixels of a row, and every load of the unrolled loop is independent,
    // so about twenty are in flight per thread.
    const int tid = threadIdx.y * kThreadsX + threadIdx.x;
    const int y0 = blockIdx.y * kOutRows - R, x0 = blockIdx.x * kOutCols - R;
#pragma unroll
    for (int n = 0; n < (kCells + kThreads - 1) / kThreads; ++n) {
        const int e = n * kThreads + tid;
        if (e < kCells) {
            const int yy = y0 + e / kInCols, xx = x0 + e % kInCols;  // divisions by constants
            // unsigned: a negative coordinate compares as huge, one test per side
            const bool inside = unsigned(yy) < unsigned(rows) && xx >= 0;  // the defect: no test against cols
            tile[e] = inside ? in[size_t(yy) * cols + xx] : 0.f;
        }
    }
    __syncthreads();

    // Input row t of the strip meets output i of the strip with filter row t − i, when
    // 0 ≤ t − i < K. All indices are compile-time constants: acc stays in registers and
    // each weight is a constant-bank operand of its FFMA.
    float acc[S];
#pragma unroll
    for (int i = 0; i < S; ++i) acc[i] = 0.f;
    const float* s = tile + threadIdx.y * S * kInCols + threadIdx.x;
#pragma unroll
    for (int t = 0; t < S + K - 1; ++t) {
#pragma unroll
        for (int j = 0; j < K; ++j) {
            const float v = s[t * kInCols + j];  // one shared load ...
#pragma unroll
            for (int i = 0; i < S; ++i)          // ... for up to K multiply-adds
                if (t - i >= 0 && t - i < K) acc[i] = fmaf(c_filter[(t - i) * K + j], v, acc[i]);
        }
    }

    const int x = blockIdx.x * kOutCols + threadIdx.x, y = blockIdx.y * kOutRows + threadIdx.y * S;
    if (x >= cols) return;
#pragma unroll
    for (int i = 0; i < S; ++i)
        if (y + i < rows) out[size_t(y + i) * cols + x] = acc[i];  // a warp writes 32 consecutive floats
}

template <int K>
void launch(const float* in, float* out, int rows, int cols) {
    constexpr int kOutRows = kThreadsY * kStrip<K>;
    const dim3 grid((cols + kThreadsX - 1) / kThreadsX, (rows + kOutRows - 1) / kOutRows);
    conv_fast_kernel<K><<<grid, dim3(kThreadsX, kThreadsY)>>>(in, out, rows, cols);
}

}  // namespace

void set_filter_fast(const float* weights, int k) {
    cudaMemcpyToSymbol(c_filter, weights, sizeof(float) * k * k);
    g_k = k;
}

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
