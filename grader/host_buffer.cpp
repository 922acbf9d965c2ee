// SPDX-License-Identifier: MIT
#include "grader/host_buffer.hpp"

#include <cuda_runtime.h>

#include <cstring>
#include <string>

#include "grader/cuda_check.cuh"

namespace grader {

namespace {
// Guard bytes on each side. A page in front keeps the data page-aligned, as cudaHostAlloc's own
// pointers are; a page behind catches a copy that runs on past the end by up to 4 KiB.
constexpr size_t kGuardBytes = 4096;

bool all_equal(const char* p, size_t n, uint8_t byte) {
    for (size_t i = 0; i < n; ++i)
        if (static_cast<uint8_t>(p[i]) != byte) return false;
    return true;
}
}  // namespace

HostMemory::HostMemory(size_t bytes, uint8_t guard_byte, const char* what) : bytes_(bytes), guard_(guard_byte) {
    const size_t total = bytes + 2 * kGuardBytes;
    // Mapped explicitly (implied under unified addressing): the checks below read it on the device.
    cudaError_t e = cudaHostAlloc(reinterpret_cast<void**>(&base_), total, cudaHostAllocMapped);
    if (e != cudaSuccess) {
        cudaGetLastError();
        throw CudaError(e, std::string("cudaHostAlloc of ") + std::to_string(total) + " bytes for " + what +
                               " failed: " + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")");
    }
    data_ = base_ + kGuardBytes;
    void* device_base = nullptr;
    CUDA_CHECK(cudaHostGetDevicePointer(&device_base, base_, 0));
    device_data_ = static_cast<char*>(device_base) + kGuardBytes;
    std::memset(base_, guard_, kGuardBytes);
    std::memset(data_ + bytes_, guard_, kGuardBytes);
}

HostMemory::~HostMemory() {
    if (base_) cudaFreeHost(base_);
}

void HostMemory::fill(uint8_t byte) {
    if (bytes_) std::memset(data_, byte, bytes_);
}

bool HostMemory::guards_intact() const {
    return all_equal(base_, kGuardBytes, guard_) && all_equal(data_ + bytes_, kGuardBytes, guard_);
}

}  // namespace grader
