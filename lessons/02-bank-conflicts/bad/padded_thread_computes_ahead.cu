// SPDX-License-Identifier: MIT
// Known-bad 02.2: the unpadded tile (the unchanged starter), and a host thread that the first
// call starts and leaves running to repeat the last call's work on whatever the buffers hold.
// An outside reviewer's naive matrix multiply passed 03.3 this way. Must be rejected: outside
// (a thread left running after a call), at the first call.
#include <chrono>
#include <functional>
#include <mutex>
#include <thread>

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

}  // namespace

namespace {

std::mutex g_lock;
std::function<void()> g_last_call;

// Remembers the call's work and, from the first call on, a thread that is never joined
// repeats it on the legacy default stream: while the grader writes the next call's fresh
// inputs into the same buffers, the thread computes from them, and the grader's own
// synchronization waits for its work, so the next call could find its result made already.
void compute_ahead(std::function<void()> work) {
    {
        std::lock_guard<std::mutex> hold(g_lock);
        g_last_call = std::move(work);
    }
    static bool started = false;
    if (started) return;
    started = true;
    std::thread([] {
        for (;;) {
            std::function<void()> again;
            {
                std::lock_guard<std::mutex> hold(g_lock);
                again = g_last_call;
            }
            again();
            cudaDeviceSynchronize();
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
    }).detach();
}

}  // namespace

static void starter_transpose_padded(const float* in, float* out, int rows, int cols) {
    if (rows <= 0 || cols <= 0) return;
    dim3 grid((cols + kTile - 1) / kTile, (rows + kTile - 1) / kTile);
    transpose_unpadded_kernel<<<grid, dim3(kWidth, kHeight)>>>(in, out, rows, cols);
}

void transpose_padded(const float* in, float* out, int rows, int cols) {
    starter_transpose_padded(in, out, rows, cols);
    compute_ahead([=] { starter_transpose_padded(in, out, rows, cols); });
}
