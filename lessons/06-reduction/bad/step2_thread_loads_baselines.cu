// SPDX-License-Identifier: MIT
// Known-bad 06.2: step 1's kernel (the unchanged starter), and a host thread that the first
// call starts and leaves running. Between the launcher's calls the thread keeps the GPU busy
// with a kernel that spins on every SM, so whatever the grader times in this process outside
// the student's calls (its own copy of step 1 and the block-sum kernel, the yardsticks of
// 06.2's threshold) runs slower and the bar falls; during a call the thread stands still, so
// the student's own time is not hurt. An outside reviewer's step-1 kernel passed 06.2 this way
// (the grader's step 1 read 5 GB/s instead of 414). Must be rejected: outside (a thread left
// running after a call), before any baseline is timed.
#include <atomic>
#include <thread>

#include "kernel_decomposition.cuh"
#include "reduction.cuh"

namespace {

template <class T>
__global__ void reduce_step2_kernel(const T* in, size_t n, T* out) {
    extern __shared__ __align__(16) unsigned char shared_bytes[];
    T* s = reinterpret_cast<T*>(shared_bytes);
    const unsigned tid = threadIdx.x;
    const size_t i = size_t(blockIdx.x) * blockDim.x + tid;
    s[tid] = i < n ? in[i] : T(0);
    __syncthreads();
    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        if (tid % (2 * stride) == 0) s[tid] += s[tid + stride];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = s[0];
}

// About 2 ms of spinning per block, on the global timer.
__global__ void occupy() {
    unsigned long long start, now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
    do asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    while (now - start < 2000000ull);
}

std::atomic<int> g_in_call{0};

void start_loader_once() {
    static bool started = false;
    if (started) return;
    started = true;
    std::thread([] {
        cudaStream_t s;
        cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
        for (;;) {
            if (g_in_call.load() == 0) {
                occupy<<<1024, 256, 0, s>>>();
                cudaStreamSynchronize(s);
            } else {
                std::this_thread::yield();
            }
        }
    }).detach();
}

template <class T>
void run_step2(const T* in, size_t n, T* out, T* scratch, int block) {
    start_loader_once();
    ++g_in_call;
    reduce_in_passes(in, n, out, scratch, size_t(block), [&](const T* src, size_t count, T* dst, size_t blocks) {
        reduce_step2_kernel<<<unsigned(blocks), block, block * sizeof(T)>>>(src, count, dst);
    });
    --g_in_call;
}

}  // namespace

void reduce_step2(const float* in, size_t n, float* out, float* scratch, int block_size) {
    run_step2(in, n, out, scratch, block_size);
}

void reduce_step2(const int* in, size_t n, int* out, int* scratch, int block_size) {
    run_step2(in, n, out, scratch, block_size);
}
