// SPDX-License-Identifier: MIT
// The grader's steps 1–4 (see step_yardsticks.cuh). One kernel, the step a template
// parameter: the steps differ only in how a block loads its values and walks its tree.
#include "kernel_decomposition.cuh"
#include "step_yardsticks.cuh"

namespace {

template <int kStep>
__global__ void step_kernel(const float* in, size_t n, float* out) {
    extern __shared__ float s[];
    const unsigned tid = threadIdx.x;
    if constexpr (kStep < 4) {
        const size_t i = size_t(blockIdx.x) * blockDim.x + tid;
        s[tid] = i < n ? in[i] : 0.0f;
    } else {  // step 4: the first add during the load
        const size_t i = size_t(blockIdx.x) * (2 * blockDim.x) + tid;
        float v = i < n ? in[i] : 0.0f;
        if (i + blockDim.x < n) v += in[i + blockDim.x];
        s[tid] = v;
    }
    __syncthreads();
    if constexpr (kStep == 1) {  // interleaved, divergent: every other thread, then every fourth …
        for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
            if (tid % (2 * stride) == 0) s[tid] += s[tid + stride];
            __syncthreads();
        }
    } else if constexpr (kStep == 2) {  // interleaved, the first threads add: bank conflicts
        for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
            const unsigned index = 2 * stride * tid;
            if (index < blockDim.x) s[index] += s[index + stride];
            __syncthreads();
        }
    } else {  // sequential addressing
        for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
            if (tid < stride) s[tid] += s[tid + stride];
            __syncthreads();
        }
    }
    if (tid == 0) out[blockIdx.x] = s[0];
}

template <int kStep>
void run(const float* in, size_t n, float* out, float* scratch, int block) {
    const size_t per_block = kStep < 4 ? size_t(block) : 2 * size_t(block);
    reduce_in_passes(in, n, out, scratch, per_block, [&](const float* src, size_t count, float* dst, size_t blocks) {
        step_kernel<kStep><<<unsigned(blocks), block, block * sizeof(float)>>>(src, count, dst);
    });
}

}  // namespace

void grader_step_sum(int step, const float* in, size_t n, float* out, float* scratch, int block_size) {
    switch (step) {
        case 1: return run<1>(in, n, out, scratch, block_size);
        case 2: return run<2>(in, n, out, scratch, block_size);
        case 3: return run<3>(in, n, out, scratch, block_size);
        default: return run<4>(in, n, out, scratch, block_size);
    }
}
