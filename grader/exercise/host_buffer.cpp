// SPDX-License-Identifier: MIT
#include "grader/exercise/host_buffer.hpp"

#include <cuda_runtime.h>

#include <cstring>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>

#include "grader/common/cuda_check.cuh"

namespace grader {

namespace {
// Guard bytes on each side. A page in front keeps the data page-aligned, as cudaHostAlloc's own
// pointers are; a page behind catches a copy that runs on past the end by up to 4 KiB.
constexpr size_t kGuardBytes = 4096;

// Pinned blocks kept for reuse within the process. cudaHostAlloc and cudaFreeHost pin and
// unpin every page, about 1.4 ms a buffer however small: 0.9 s of lesson 07.1's 3.4 s went
// into its 618 buffers on an H200's host (#19). A block is taken whole by a buffer that
// fits it (sizes go up in powers of two) and comes back here when the buffer ends; blocks of
// up to kPooledBlock are kept, up to kPooledTotal in all, larger ones freed at once. A reused
// block's contents are whatever its last buffer left: HostBuffer poisons every element and
// the guards are set again.
constexpr size_t kPooledBlock = size_t(64) << 20, kPooledTotal = size_t(256) << 20;

class PinnedPool {
public:
    // A block of at least `bytes`, and its size; nullptr and the error when cudaHostAlloc fails.
    char* take(size_t bytes, size_t& size, cudaError_t& error) {
        size = bytes;
        if (bytes <= kPooledBlock) {
            size = kGuardBytes;
            while (size < bytes) size *= 2;
            std::lock_guard<std::mutex> lock(mutex_);
            if (auto it = free_.find(size); it != free_.end()) {
                char* block = it->second;
                free_.erase(it);
                kept_ -= size;
                return block;
            }
        }
        char* block = nullptr;
        // Mapped explicitly (implied under unified addressing): the checks read it on the device.
        error = cudaHostAlloc(reinterpret_cast<void**>(&block), size, cudaHostAllocMapped);
        return error == cudaSuccess ? block : nullptr;
    }
    void give(char* block, size_t size) {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            if (size <= kPooledBlock && kept_ + size <= kPooledTotal) {
                free_.emplace(size, block);
                kept_ += size;
                return;
            }
        }
        cudaFreeHost(block);
    }

private:
    std::mutex mutex_;
    std::multimap<size_t, char*> free_;  // size -> block
    size_t kept_ = 0;
};

PinnedPool& pinned_pool() {
    static PinnedPool* pool = new PinnedPool;  // never destroyed: its blocks live as long as the process
    return *pool;
}

bool all_equal(const char* p, size_t n, uint8_t byte) {
    for (size_t i = 0; i < n; ++i)
        if (static_cast<uint8_t>(p[i]) != byte) return false;
    return true;
}
}  // namespace

HostMemory::HostMemory(size_t bytes, uint8_t guard_byte, const char* what)
    : bytes_(bytes), capacity_(bytes), guard_(guard_byte) {
    const size_t total = bytes + 2 * kGuardBytes;
    cudaError_t e = cudaSuccess;
    base_ = pinned_pool().take(total, size_, e);
    if (!base_) {
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
    if (base_) pinned_pool().give(base_, size_);
}

void HostMemory::fill(uint8_t byte) {
    if (bytes_) std::memset(data_, byte, bytes_);
}

void HostMemory::use(size_t bytes) {
    if (bytes > capacity_) throw std::logic_error("grader bug: HostMemory::use past the buffer's capacity");
    if (bytes == bytes_) return;
    bytes_ = bytes;
    std::memset(data_ + bytes_, guard_, capacity_ - bytes_ + kGuardBytes);
}

bool HostMemory::guards_intact() const {
    return all_equal(base_, kGuardBytes, guard_) && all_equal(data_ + bytes_, capacity_ - bytes_ + kGuardBytes, guard_);
}

}  // namespace grader
