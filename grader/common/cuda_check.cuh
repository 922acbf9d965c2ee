// SPDX-License-Identifier: MIT
/// @file
/// @brief CUDA_CHECK: every runtime call checked, with its text, file and line.
#pragma once
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace grader {

/// Thrown when a CUDA runtime call fails. The grader turns it into a FAIL verdict
/// ("fault"), never into a crash of the suite.
class CudaError : public std::runtime_error {
public:
    CudaError(cudaError_t code, const std::string& what) : std::runtime_error(what), code_(code) {}
    cudaError_t code() const { return code_; }

private:
    cudaError_t code_;
};

/// Throws CudaError naming the call, the place and the error when `code` is not cudaSuccess.
void check_cuda(cudaError_t code, const char* call, const char* file, int line);

/// After a student's launcher returns: surfaces launch errors and asynchronous faults
/// (illegal address, misaligned access, trap) at the right place, naming the launcher.
void check_launch(const char* what);

}  // namespace grader

#define CUDA_CHECK(call) ::grader::check_cuda((call), #call, __FILE__, __LINE__)
