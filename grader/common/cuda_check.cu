// SPDX-License-Identifier: MIT
#include "grader/common/cuda_check.cuh"

namespace grader {

void check_cuda(cudaError_t code, const char* call, const char* file, int line) {
    if (code == cudaSuccess) return;
    throw CudaError(code, std::string(call) + " failed at " + file + ":" + std::to_string(line) + ": " +
                              cudaGetErrorName(code) + " (" + cudaGetErrorString(code) + ")");
}

void check_launch(const char* what) {
    cudaError_t launch = cudaGetLastError();
    if (launch != cudaSuccess)
        throw CudaError(launch, std::string(what) + " did not launch: " + cudaGetErrorName(launch) + " (" +
                                    cudaGetErrorString(launch) + "); check the grid and block sizes and the shared memory asked for");
    cudaError_t run = cudaDeviceSynchronize();
    if (run != cudaSuccess)
        throw CudaError(run, std::string(what) + " faulted while running: " + cudaGetErrorName(run) + " (" +
                                 cudaGetErrorString(run) + "); run the memcheck setup to find the bad access: "
                                 "meson test -C build --setup=memcheck <lesson>");
}

}  // namespace grader
