// SPDX-License-Identifier: MIT
/// @file
/// @brief Pinned host buffers owned by the grader, for launchers that copy between host and
///        device themselves (lesson 07): guarded on both sides, poisoned before each call,
///        and checked between calls like grader::DeviceBuffer (call.hpp: host_input,
///        host_output).
///
/// The memory comes from cudaHostAlloc, so cudaMemcpyAsync moves it by DMA without a
/// staging copy. Guard bytes lie before the first and after the last element, inside the
/// same allocation, so a copy that runs past either end lands in them and is seen after
/// the call (bounds). The checks between calls (checksum, poisoned elements: guarded_memory.hpp)
/// run on the GPU through the buffer's device mapping: one pass over PCIe or NVLink, far
/// quicker than the host for a buffer of hundreds of MiB.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "grader/exercise/device_buffer.cuh"
#include "grader/exercise/guarded_memory.hpp"

namespace grader {

class HostMemory final : public GuardedMemory {
public:
    /// `bytes` of pinned host memory whose guard zones hold `guard_byte`; `what` names the
    /// buffer in an allocation failure. Throws CudaError.
    HostMemory(size_t bytes, uint8_t guard_byte, const char* what);
    HostMemory(const HostMemory&) = delete;
    HostMemory& operator=(const HostMemory&) = delete;
    ~HostMemory() override;

    void* data() const override { return data_; }
    size_t bytes() const override { return bytes_; }
    bool on_host() const override { return true; }
    /// The bytes it was made with: the most use() may ask for.
    size_t capacity() const { return capacity_; }
    /// From now on the buffer is `bytes` long (at most capacity()), for a timed call of a
    /// varied size (timed_sizes.hpp). Its start stays where it is (a host buffer has no
    /// unmapped page after it to move next to): everything after the used part, up to the end
    /// of the back guard, holds guard bytes and is checked as the back guard, so a copy that
    /// writes past the current size is seen (bounds). The contents of a part that grows back
    /// are unspecified.
    void use(size_t bytes);
    /// Every byte of the buffer set to `byte` (on the host).
    void fill(uint8_t byte) override;
    /// True when the guard bytes next to both ends are untouched.
    bool guards_intact() const override;

private:
    const void* device_address() const override { return device_data_; }  // its device mapping
    char* base_ = nullptr;  ///< the allocation: guard, data, guard (and what its block has beyond)
    size_t size_ = 0;       ///< of the block at base_
    char* data_ = nullptr;
    void* device_data_ = nullptr;  ///< data_ as the device sees it
    size_t bytes_ = 0, capacity_ = 0;
    uint8_t guard_ = 0;
};

template <class T>
class HostBuffer {
public:
    /// n elements, poisoned.
    explicit HostBuffer(size_t n, const char* what = "host buffer") : mem_(n * sizeof(T), guard_byte<T>(), what) { poison(); }

    T* data() { return static_cast<T*>(mem_.data()); }
    const T* data() const { return static_cast<const T*>(mem_.data()); }
    /// The elements in use: the count it was made with, or the last use().
    size_t size() const { return mem_.bytes() / sizeof(T); }
    size_t bytes() const { return mem_.bytes(); }
    size_t capacity() const { return mem_.capacity() / sizeof(T); }
    /// For timed calls of a varied size: from now on the buffer holds its first n elements
    /// (n ≤ capacity()), the rest guard bytes (HostMemory::use).
    void use(size_t n) { mem_.use(n * sizeof(T)); }
    T& operator[](size_t i) { return data()[i]; }
    const T& operator[](size_t i) const { return data()[i]; }

    /// A copy of the contents, for compare() and the Exercise::expect_* checks.
    std::vector<T> contents() const { return std::vector<T>(data(), data() + size()); }
    void poison() { mem_.fill(kPoisonByte); }

    HostMemory& memory() { return mem_; }
    const HostMemory& memory() const { return mem_; }

private:
    HostMemory mem_;
};

}  // namespace grader
