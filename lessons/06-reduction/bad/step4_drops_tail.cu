// SPDX-License-Identifier: MIT
// Known-bad 06.4: the first add during the load checks only the second value's bound, and
// loads nothing when it fails: in the last, partial block the values whose partner lies
// past the end are dropped (for n = 1, all of them). Must be rejected: wrong.
#include "kernel_decomposition.cuh"
#include "reduction.cuh"

namespace {

template <class T>
__global__ void reduce_step4_kernel(const T* in, size_t n, T* out) {
    extern __shared__ __align__(16) unsigned char shared_bytes[];
    T* s = reinterpret_cast<T*>(shared_bytes);
    const unsigned tid = threadIdx.x;
    const size_t i = size_t(blockIdx.x) * (2 * blockDim.x) + tid;
    s[tid] = i + blockDim.x < n ? in[i] + in[i + blockDim.x] : T(0);
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (tid < stride) s[tid] += s[tid + stride];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = s[0];
}

template <class T>
void run_step4(const T* in, size_t n, T* out, T* scratch, int block) {
    reduce_in_passes(in, n, out, scratch, 2 * size_t(block), [&](const T* src, size_t count, T* dst, size_t blocks) {
        reduce_step4_kernel<<<unsigned(blocks), block, block * sizeof(T)>>>(src, count, dst);
    });
}

}  // namespace

void reduce_step4(const float* in, size_t n, float* out, float* scratch, int block_size) {
    run_step4(in, n, out, scratch, block_size);
}
void reduce_step4(const int* in, size_t n, int* out, int* scratch, int block_size) {
    run_step4(in, n, out, scratch, block_size);
}
