// SPDX-License-Identifier: MIT
// Known-bad 07.1: zero-copy by a kernel of its own, which reads the mapped host input and
// writes the device input (and the other way round for the output), with launch_work in
// between on device memory. The data never goes through the copy engines. The contract
// allows no kernel of the student's own in this lesson, and the policy check finds the
// __global__ before anything is built. Must be rejected: policy.
#include "streams.cuh"

namespace {
__global__ void copy_kernel(const float* from, float* to, size_t n) {
    for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) to[i] = from[i];
}
}  // namespace

void run_pipeline(const float* host_in, float* host_out, float* dev_in, float* dev_out, size_t n) {
    if (n == 0) return;
    copy_kernel<<<1024, 256>>>(host_in, dev_in, n);
    launch_work(dev_in, dev_out, n, 0);
    copy_kernel<<<1024, 256>>>(dev_out, host_out, n);
}
