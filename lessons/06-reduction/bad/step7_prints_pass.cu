// SPDX-License-Identifier: MIT
// Known-bad 06.7: step 1's kernel submitted as step 7 (see step7_at_step1_speed.cu), whose
// launcher also prints lines that look like the grader's verdicts. The verdict comes from
// the report the grader seals, not from the process's output. Must be rejected: slow.
#include <cstdio>

#include "kernel_decomposition.cuh"
#include "reduction.cuh"

namespace {

template <class T>
__global__ void reduce_slow_kernel(const T* in, size_t n, T* out) {
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

// What a reader of the log should believe, printed once.
void print_a_pass() {
    static bool printed = false;
    if (printed) return;
    printed = true;
    std::printf("PASS  06.7 step 7 grid-stride with shuffles  9999 GB/s\n"
                "== 1 passed, 0 failed, 0 skipped\n");
    std::fflush(stdout);
}

template <class T>
void run_slow(const T* in, size_t n, T* out, T* scratch, int block) {
    print_a_pass();
    reduce_in_passes(in, n, out, scratch, size_t(block), [&](const T* src, size_t count, T* dst, size_t blocks) {
        reduce_slow_kernel<<<unsigned(blocks), block, block * sizeof(T)>>>(src, count, dst);
    });
}

}  // namespace

void reduce_step7(const float* in, size_t n, float* out, float* scratch, int block_size) {
    run_slow(in, n, out, scratch, block_size);
}
void reduce_step7(const int* in, size_t n, int* out, int* scratch, int block_size) {
    run_slow(in, n, out, scratch, block_size);
}
