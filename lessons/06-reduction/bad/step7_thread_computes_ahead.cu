// SPDX-License-Identifier: MIT
// Known-bad 06.7: step 6's kernel (the unchanged starter), and a host thread that the first
// float call starts and leaves running to repeat the last call's work on whatever the buffers
// hold. An outside reviewer's naive matrix multiply passed 03.3 this way. Must be rejected:
// outside (a thread left running after a call), at the first call.
#include <chrono>
#include <functional>
#include <mutex>
#include <thread>

#include "kernel_decomposition.cuh"
#include "reduction.cuh"

namespace {

template <class T>
__device__ __forceinline__ void publish(T* s, unsigned tid, T v) {
    __syncwarp();
    s[tid] = v;
    __syncwarp();
}

template <unsigned kBlock, class T>
__global__ void __launch_bounds__(kBlock) reduce_step7_kernel(const T* in, size_t n, T* out) {
    __shared__ T s[kBlock];
    const unsigned tid = threadIdx.x;
    const size_t i = size_t(blockIdx.x) * (2 * kBlock) + tid;
    T v = i < n ? in[i] : T(0);
    if (i + kBlock < n) v += in[i + kBlock];
    s[tid] = v;
    __syncthreads();
    if (kBlock >= 1024) { if (tid < 512) s[tid] += s[tid + 512]; __syncthreads(); }
    if (kBlock >= 512) { if (tid < 256) s[tid] += s[tid + 256]; __syncthreads(); }
    if (kBlock >= 256) { if (tid < 128) s[tid] += s[tid + 128]; __syncthreads(); }
    if (kBlock >= 128) { if (tid < 64) s[tid] += s[tid + 64]; __syncthreads(); }
    if (tid < 32) {
        v = s[tid];
        if (kBlock >= 64) v += s[tid + 32];
        publish(s, tid, v);
        if (tid < 16) v += s[tid + 16];
        publish(s, tid, v);
        if (tid < 8) v += s[tid + 8];
        publish(s, tid, v);
        if (tid < 4) v += s[tid + 4];
        publish(s, tid, v);
        if (tid < 2) v += s[tid + 2];
        publish(s, tid, v);
        if (tid < 1) v += s[tid + 1];
        if (tid == 0) out[blockIdx.x] = v;
    }
}

template <class T>
void launch_step7(const T* src, size_t count, T* dst, unsigned blocks, int block) {
    switch (block) {
        case 1024: reduce_step7_kernel<1024><<<blocks, 1024>>>(src, count, dst); break;
        case 512: reduce_step7_kernel<512><<<blocks, 512>>>(src, count, dst); break;
        case 256: reduce_step7_kernel<256><<<blocks, 256>>>(src, count, dst); break;
        case 128: reduce_step7_kernel<128><<<blocks, 128>>>(src, count, dst); break;
        case 64: reduce_step7_kernel<64><<<blocks, 64>>>(src, count, dst); break;
        default: reduce_step7_kernel<32><<<blocks, 32>>>(src, count, dst); break;
    }
}

template <class T>
void run_step7(const T* in, size_t n, T* out, T* scratch, int block) {
    reduce_in_passes(in, n, out, scratch, 2 * size_t(block), [&](const T* src, size_t count, T* dst, size_t blocks) {
        launch_step7(src, count, dst, unsigned(blocks), block);
    });
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

static void starter_reduce_step7(const float* in, size_t n, float* out, float* scratch, int block_size) {
    run_step7(in, n, out, scratch, block_size);
}

void reduce_step7(const int* in, size_t n, int* out, int* scratch, int block_size) {
    run_step7(in, n, out, scratch, block_size);
}

void reduce_step7(const float* in, size_t n, float* out, float* scratch, int block_size) {
    starter_reduce_step7(in, n, out, scratch, block_size);
    compute_ahead([=] { starter_reduce_step7(in, n, out, scratch, block_size); });
}
