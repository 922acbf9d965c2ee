// SPDX-License-Identifier: MIT
// Known-bad 08.3: the starter's one thread per body (the yardstick 08.3 is graded against),
// and a host thread that the first call starts and leaves running. Between the launcher's
// calls the thread keeps the GPU busy with a kernel that spins on every SM, so the grader's
// own one-thread-per-body kernel, timed in this process outside the student's calls, runs
// slower and 08.3's bar falls; during a call the thread stands still. An outside reviewer's
// 08.2 kernel passed 08.3 this way (the yardstick read 1664 GFLOP/s instead of about 12 100).
// Must be rejected: outside (a thread left running after a call), before the yardstick is
// timed.
#include <atomic>
#include <thread>

#include "nbody.cuh"

namespace {

constexpr int kTile = 256;   // bodies per tile = threads per block
constexpr int kUnroll = 16;  // interactions per loop iteration: the loop overhead is paid once per 16

__device__ __forceinline__ void add_interaction(float4 me, float4 other, float eps2, float3& a) {
    const float dx = other.x - me.x, dy = other.y - me.y, dz = other.z - me.z;
    // Starting from eps2 makes each square one fused multiply-add (3 FFMA, no FADD).
    const float r2 = dx * dx + (dy * dy + (dz * dz + eps2));
    const float inv = rsqrtf(r2);  // one MUFU.RSQ (plus a subnormal check): 2 ulp
    const float s = other.w * (inv * inv * inv);
    a.x += dx * s;
    a.y += dy * s;
    a.z += dz * s;
}

__global__ void __launch_bounds__(kTile)
    nbody_one_per_body_kernel(const float4* __restrict__ pos_mass, float4* __restrict__ acc, int n, float eps2) {
    __shared__ float4 tile[kTile];
    const int i = blockIdx.x * kTile + threadIdx.x;
    const float4 me = i < n ? pos_mass[i] : make_float4(0.f, 0.f, 0.f, 0.f);
    float3 a = make_float3(0.f, 0.f, 0.f);
    for (int base = 0; base < n; base += kTile) {
        const int j = base + threadIdx.x;
        // Past the last body: a body of mass zero, which adds exactly nothing (its
        // denominator is at least eps2 > 0). Every tile then has kTile entries.
        tile[threadIdx.x] = j < n ? pos_mass[j] : make_float4(0.f, 0.f, 0.f, 0.f);
        __syncthreads();
#pragma unroll kUnroll
        for (int k = 0; k < kTile; ++k) add_interaction(me, tile[k], eps2, a);
        __syncthreads();
    }
    if (i < n) acc[i] = make_float4(a.x, a.y, a.z, 0.f);
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

}  // namespace

void nbody_split(const float4* pos_mass, float4* acc, int n, float eps2) {
    if (n <= 0) return;
    start_loader_once();
    ++g_in_call;
    nbody_one_per_body_kernel<<<(n + kTile - 1) / kTile, kTile>>>(pos_mass, acc, n, eps2);
    --g_in_call;
}
