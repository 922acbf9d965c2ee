// SPDX-License-Identifier: MIT
// Contract: lessons/06-reduction/contract/reduction.cuh · test: meson test -C build lesson06 --test-args='-tc=06.3*'
// Exercise 06.3 — step 3: sequential addressing (read lessons/06-reduction/theory.md,
// "Step 3: sequential addressing and idle threads"). This is step 2's kernel: the active
// threads are packed into the first warps, but at stride s neighbouring threads touch
// words 2s apart, so several lanes of a warp hit the same shared-memory bank.
#include "kernel_decomposition.cuh"
#include "reduction.cuh"

namespace {

template <class T>
__global__ void reduce_step3_kernel(const T* in, size_t n, T* out) {
    extern __shared__ __align__(16) unsigned char shared_bytes[];
    T* s = reinterpret_cast<T*>(shared_bytes);
    const unsigned tid = threadIdx.x;
    const size_t i = size_t(blockIdx.x) * blockDim.x + tid;
    s[tid] = i < n ? in[i] : T(0);
    __syncthreads();
    // TODO(06.3): reverse the tree: start with stride = blockDim.x / 2 and halve it; the
    // threads tid < stride add s[tid + stride] to s[tid]. Consecutive lanes then touch
    // consecutive words, one per bank.
    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        const unsigned index = 2 * stride * tid;
        if (index < blockDim.x) s[index] += s[index + stride];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = s[0];
}

template <class T>
void run_step3(const T* in, size_t n, T* out, T* scratch, int block) {
    reduce_in_passes(in, n, out, scratch, size_t(block), [&](const T* src, size_t count, T* dst, size_t blocks) {
        reduce_step3_kernel<<<unsigned(blocks), block, block * sizeof(T)>>>(src, count, dst);
    });
}

}  // namespace

void reduce_step3(const float* in, size_t n, float* out, float* scratch, int block_size) {
    run_step3(in, n, out, scratch, block_size);
}
void reduce_step3(const int* in, size_t n, int* out, int* scratch, int block_size) {
    run_step3(in, n, out, scratch, block_size);
}
