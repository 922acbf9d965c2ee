// SPDX-License-Identifier: MIT
/// @file
/// @brief Device memory owned by the grader: poisoned before each call and followed by a
///        guard zone whose canary bytes reveal writes past the end.
#pragma once
#include <cuda_runtime.h>

#include <string>
#include <utility>
#include <vector>

#include "grader/cuda_check.cuh"

namespace grader {

/// Allocates `bytes` on the device or throws CudaError saying how much was asked for
/// and how much was free ("out of memory" is a clear message, never a crash).
void* device_alloc(size_t bytes, const char* what);

template <class T>
class DeviceBuffer {
public:
    static constexpr size_t kGuardBytes = 4096;
    static constexpr unsigned char kCanary = 0xA7;

    /// n elements, poisoned, guard set.
    explicit DeviceBuffer(size_t n, const char* what = "buffer") : n_(n) {
        ptr_ = static_cast<T*>(device_alloc(n * sizeof(T) + kGuardBytes, what));
        CUDA_CHECK(cudaMemset(reinterpret_cast<char*>(ptr_) + n * sizeof(T), kCanary, kGuardBytes));
        poison();
    }
    /// A copy of `host`, guard set.
    explicit DeviceBuffer(const std::vector<T>& host, const char* what = "input") : DeviceBuffer(host.size(), what) {
        upload(host);
    }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    DeviceBuffer(DeviceBuffer&& o) noexcept : ptr_(std::exchange(o.ptr_, nullptr)), n_(o.n_) {}
    ~DeviceBuffer() {
        if (ptr_) cudaFree(ptr_);
    }

    T* data() { return ptr_; }
    const T* data() const { return ptr_; }
    size_t size() const { return n_; }
    size_t bytes() const { return n_ * sizeof(T); }

    void upload(const std::vector<T>& host) {
        CUDA_CHECK(cudaMemcpy(ptr_, host.data(), std::min(host.size(), n_) * sizeof(T), cudaMemcpyHostToDevice));
    }
    std::vector<T> download() const {
        std::vector<T> host(n_);
        CUDA_CHECK(cudaMemcpy(host.data(), ptr_, n_ * sizeof(T), cudaMemcpyDeviceToHost));
        return host;
    }
    /// Every byte 0xFF: NaN for floating point, −1 for integers; compare() reports
    /// elements still holding it as "never written".
    void poison() { CUDA_CHECK(cudaMemset(ptr_, 0xFF, n_ * sizeof(T))); }

    /// True when the canary bytes after the last element are untouched.
    bool guard_intact() const {
        std::vector<unsigned char> g(kGuardBytes);
        CUDA_CHECK(cudaMemcpy(g.data(), reinterpret_cast<const char*>(ptr_) + n_ * sizeof(T), kGuardBytes,
                              cudaMemcpyDeviceToHost));
        for (unsigned char b : g)
            if (b != kCanary) return false;
        return true;
    }

private:
    T* ptr_ = nullptr;
    size_t n_ = 0;
};

}  // namespace grader
