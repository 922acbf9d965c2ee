// SPDX-License-Identifier: MIT
#include <cstdio>

#include "grader/device_buffer.cuh"

namespace grader {

void* device_alloc(size_t bytes, const char* what) {
    void* p = nullptr;
    cudaError_t err = cudaMalloc(&p, bytes);
    if (err == cudaSuccess) return p;
    cudaGetLastError();  // allocation errors are not sticky; clear it
    size_t free_b = 0, total_b = 0;
    cudaMemGetInfo(&free_b, &total_b);
    char buf[256];
    std::snprintf(buf, sizeof buf, "could not allocate %.1f MiB for %s (%s); %.1f of %.1f MiB free on the GPU", bytes / 1048576.0,
                  what, cudaGetErrorName(err), free_b / 1048576.0, total_b / 1048576.0);
    throw CudaError(err, buf);
}

}  // namespace grader
