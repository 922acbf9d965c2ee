// SPDX-License-Identifier: MIT
// Contract: lessons/06-reduction/contract/reduction.cuh · test: meson test -C build lesson06 --test-args='-tc=06.7*'
// Exercise 06.7 — step 7: one pass at memory speed (read lessons/06-reduction/theory.md,
// "Step 7: many values per thread at memory speed" and "Warp shuffles"). This is step 6's
// kernel: every thread loads two values and then spends the rest of its life in the tree,
// so few loads are in flight and most of the time goes into block-wide bookkeeping.
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
    // TODO(06.7): loop instead: i = blockIdx.x * kBlock + tid, stepping by
    // gridDim.x * kBlock, reading the input as float4/int4 (n / 4 of them; in is 16-byte
    // aligned) and adding into a few independent register accumulators, with all loads of
    // an iteration issued before the adds; then add the last n % 4 values. Reduce each
    // warp with __shfl_down_sync (offsets 16, 8, 4, 2, 1), put one value per warp in
    // shared memory, and let warp 0 reduce those the same way.
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
    // TODO(06.7): launch only as many blocks as the GPU holds at once (number of SMs ×
    // cudaOccupancyMaxActiveBlocksPerMultiprocessor), never more than the input needs,
    // writing one partial sum per block to scratch; then one block of the same kernel
    // sums those partials into out. block_size is only a hint for this step.
    reduce_in_passes(in, n, out, scratch, 2 * size_t(block), [&](const T* src, size_t count, T* dst, size_t blocks) {
        launch_step7(src, count, dst, unsigned(blocks), block);
    });
}

}  // namespace

void reduce_step7(const float* in, size_t n, float* out, float* scratch, int block_size) {
    run_step7(in, n, out, scratch, block_size);
}
void reduce_step7(const int* in, size_t n, int* out, int* scratch, int block_size) {
    run_step7(in, n, out, scratch, block_size);
}
