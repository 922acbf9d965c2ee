// SPDX-License-Identifier: MIT
// Known-bad 08.2: the starter's slow tiled kernel, run ahead of the call by a host thread the
// first call starts and leaves running. The thread watches the first bodies of the last
// input it was given; when they change (the grader wrote fresh bodies for the next call) it
// computes the whole result into a buffer of its own on a blocking stream, which the grader's
// own synchronize before the call waits for. The call then only copies that buffer out when
// it holds the result for these bodies, and computes as the starter does otherwise. An outside
// reviewer's naive N-body kernel passed 08.2 "at 31 914 GFLOP/s" this way. Must be rejected:
// outside (a thread left running after a call), at the first call.
#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

#include "nbody.cuh"

namespace {

constexpr int kBlock = 256;
constexpr int kWatched = 4;  // bodies compared to tell a new input

__device__ __forceinline__ void add_interaction(float4 me, float4 other, float eps2, float3& a) {
    const float dx = other.x - me.x, dy = other.y - me.y, dz = other.z - me.z;
    const float r2 = dx * dx + dy * dy + dz * dz + eps2;
    const float inv = 1.0f / sqrtf(r2);
    const float s = other.w * inv * inv * inv;
    a.x += dx * s;
    a.y += dy * s;
    a.z += dz * s;
}

__global__ void slow_kernel(const float4* __restrict__ pos_mass, float4* __restrict__ acc, int n, float eps2) {
    extern __shared__ float4 tile[];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const float4 me = i < n ? pos_mass[i] : make_float4(0.f, 0.f, 0.f, 0.f);
    float3 a = make_float3(0.f, 0.f, 0.f);
    for (int base = 0; base < n; base += blockDim.x) {
        const int j = base + threadIdx.x;
        if (j < n) tile[threadIdx.x] = pos_mass[j];
        __syncthreads();
        const int count = min(int(blockDim.x), n - base);
        for (int k = 0; k < count; ++k) add_interaction(me, tile[k], eps2, a);
        __syncthreads();
    }
    if (i < n) acc[i] = make_float4(a.x, a.y, a.z, 0.f);
}

void launch_slow(const float4* pos_mass, float4* acc, int n, float eps2, cudaStream_t s) {
    slow_kernel<<<(n + kBlock - 1) / kBlock, kBlock, kBlock * sizeof(float4), s>>>(pos_mass, acc, n, eps2);
}

struct Ahead {
    std::mutex m;
    const float4* input = nullptr;  // what the last call was given
    int n = 0;
    float eps2 = 0;
    float4 seen[kWatched] = {};     // its first bodies when the result below was computed
    float4* result = nullptr;
    int result_n = 0;
    bool ready = false;
};
Ahead g;

bool same(const float4* a, const float4* b, int k) {
    for (int i = 0; i < k; ++i)
        if (a[i].x != b[i].x || a[i].y != b[i].y || a[i].z != b[i].z || a[i].w != b[i].w) return false;
    return true;
}

void watch() {
    cudaStream_t s;
    cudaStreamCreate(&s);  // blocking: the legacy default stream, and the grader's synchronize, wait for it
    float4 now[kWatched];
    for (;;) {
        std::this_thread::sleep_for(std::chrono::microseconds(20));
        std::lock_guard<std::mutex> lock(g.m);
        if (!g.input || g.n < kWatched) continue;
        if (cudaMemcpyAsync(now, g.input, sizeof now, cudaMemcpyDeviceToHost, s) != cudaSuccess) continue;
        cudaStreamSynchronize(s);
        if (same(now, g.seen, kWatched)) continue;
        if (g.result_n < g.n) {
            cudaFree(g.result);
            cudaMalloc(&g.result, size_t(g.n) * sizeof(float4));
            g.result_n = g.n;
        }
        launch_slow(g.input, g.result, g.n, g.eps2, s);
        cudaStreamSynchronize(s);
        for (int i = 0; i < kWatched; ++i) g.seen[i] = now[i];
        g.ready = true;
    }
}

}  // namespace

void nbody_unrolled(const float4* pos_mass, float4* acc, int n, float eps2) {
    if (n <= 0) return;
    static std::once_flag started;
    std::call_once(started, [] { std::thread(watch).detach(); });
    std::lock_guard<std::mutex> lock(g.m);
    float4 now[kWatched];
    const bool ahead = g.ready && g.input == pos_mass && g.n == n && g.eps2 == eps2 && n >= kWatched &&
                       cudaMemcpy(now, pos_mass, sizeof now, cudaMemcpyDeviceToHost) == cudaSuccess &&
                       same(now, g.seen, kWatched);
    if (ahead) cudaMemcpyAsync(acc, g.result, size_t(n) * sizeof(float4), cudaMemcpyDeviceToDevice);
    else launch_slow(pos_mass, acc, n, eps2, 0);
    g.input = pos_mass, g.n = n, g.eps2 = eps2;
}
