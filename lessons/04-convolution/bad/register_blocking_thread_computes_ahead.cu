// SPDX-License-Identifier: MIT
// Known-bad 04.4: the halo-tile kernel (the unchanged starter), and a host thread that the
// first call starts and leaves running to repeat the last call's work on whatever the buffers
// hold. An outside reviewer's naive matrix multiply passed 03.3 this way. Must be rejected:
// outside (a thread left running after a call), at the first call.
#include <chrono>
#include <functional>
#include <mutex>
#include <thread>

#include "convolution.cuh"

namespace {

constexpr int kOut = 32;
constexpr int kMaxIn = kOut + kMaxFilterWidth - 1;

__constant__ float c_filter[kMaxFilterWidth * kMaxFilterWidth];
int g_k = 1;

__global__ void __launch_bounds__(kOut * kOut)
    conv_tiled_kernel(const float* __restrict__ in, float* __restrict__ out, int rows, int cols, int k) {
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

}  // namespace

void set_filter_fast(const float* weights, int k) {
    cudaMemcpyToSymbol(c_filter, weights, sizeof(float) * k * k);
    g_k = k;
}

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

static void starter_conv_fast(const float* in, float* out, int rows, int cols) {
    if (rows <= 0 || cols <= 0) return;
    const dim3 grid((cols + kOut - 1) / kOut, (rows + kOut - 1) / kOut);
    conv_tiled_kernel<<<grid, dim3(kOut, kOut)>>>(in, out, rows, cols, g_k);
}

void conv_fast(const float* in, float* out, int rows, int cols) {
    starter_conv_fast(in, out, rows, cols);
    compute_ahead([=] { starter_conv_fast(in, out, rows, cols); });
}
