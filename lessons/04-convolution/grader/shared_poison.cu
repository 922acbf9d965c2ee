// SPDX-License-Identifier: MIT
// NaN into every SM's shared memory (shared_poison.cuh says why).
#include <cuda_runtime.h>

#include "grader/common/cuda_check.cuh"
#include "grader/common/session.hpp"
#include "shared_poison.cuh"

namespace {

__global__ void fill_kernel(int words) {
    extern __shared__ float s[];
    // volatile: shared memory that this kernel never reads again is otherwise dead, and
    // the compiler may drop stores to it.
    volatile float* v = s;
    const float nan = __int_as_float(-1);  // every byte 0xFF, the grader's poison
    for (int i = threadIdx.x; i < words; i += blockDim.x) v[i] = nan;
}

struct Launch {
    int blocks = 0, bytes = 0;
};

// Twice as many blocks as SMs, each with the most dynamic shared memory a block may have:
// no two fit on one SM at once, so the blocks spread over all SMs.
Launch plan() {
    int device = 0, sms = 0, optin = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    CUDA_CHECK(cudaFuncSetAttribute(fill_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, optin));
    return {2 * sms, optin};
}

}  // namespace

void fill_shared_memory_with_nan() {
    // Under compute-sanitizer, which instruments every shared-memory access, the fill would
    // cost more than the checks it serves; those runs look for races and bad addresses.
    if (grader::sanitizer_mode()) return;
    static const Launch l = plan();
    fill_kernel<<<l.blocks, 1024, l.bytes>>>(l.bytes / int(sizeof(float)));
    CUDA_CHECK(cudaGetLastError());
}
