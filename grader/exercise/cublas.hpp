// SPDX-License-Identifier: MIT
/// @file
/// @brief A cuBLAS handle for the lessons whose vendor baseline is cuBLAS (01: geam and
///        axpy, 02: geam's transpose, 03: SGEMM). Header-only: only those lessons link cuBLAS.
#pragma once
#include <cublas_v2.h>

#include <stdexcept>
#include <string>

namespace grader {

class Cublas {
public:
    Cublas() {
        check(cublasCreate(&handle_), "cublasCreate");
        // FP32 arithmetic: the default math mode never rounds SGEMM's inputs to TF32.
        check(cublasSetMathMode(handle_, CUBLAS_DEFAULT_MATH), "cublasSetMathMode");
    }
    ~Cublas() { cublasDestroy(handle_); }
    Cublas(const Cublas&) = delete;
    Cublas& operator=(const Cublas&) = delete;
    cublasHandle_t get() const { return handle_; }

    /// Throws naming the call when cuBLAS reports an error (a grader bug, not the student's).
    static void check(cublasStatus_t s, const char* what) {
        if (s != CUBLAS_STATUS_SUCCESS) throw std::runtime_error(std::string(what) + " failed: " + cublasGetStatusString(s));
    }

private:
    cublasHandle_t handle_ = nullptr;
};

}  // namespace grader
