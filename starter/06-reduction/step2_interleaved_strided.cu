// SPDX-License-Identifier: MIT
// Contract: lessons/06-reduction/contract/reduction.cuh · test: meson test -C build lesson06 --test-args='-tc=06.2*'
// Exercise 06.2 — step 2: strided index (read lessons/06-reduction/theory.md, "Step 2:
// strided index and bank conflicts"). This is step 1's kernel: at stride s the threads
// that add are those whose index is a multiple of 2s, so every warp has a few active
// lanes at the first levels, and the modulo costs instructions of its own.
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
    // TODO(06.2): give the pairs to the first threads of the block instead: thread tid
    // works on index = 2 * stride * tid and adds s[index + stride] to s[index] when
    // index < blockDim.x. Then whole warps either work or skip a level.
    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        if (tid % (2 * stride) == 0) s[tid] += s[tid + stride];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = s[0];
}

template <class T>
void run_step2(const T* in, size_t n, T* out, T* scratch, int block) {
    reduce_in_passes(in, n, out, scratch, size_t(block), [&](const T* src, size_t count, T* dst, size_t blocks) {
        reduce_step2_kernel<<<unsigned(blocks), block, block * sizeof(T)>>>(src, count, dst);
    });
}

}  // namespace

void reduce_step2(const float* in, size_t n, float* out, float* scratch, int block_size) {
    run_step2(in, n, out, scratch, block_size);
}
void reduce_step2(const int* in, size_t n, int* out, int* scratch, int block_size) {
    run_step2(in, n, out, scratch, block_size);
}
