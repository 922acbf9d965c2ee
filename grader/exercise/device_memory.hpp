// SPDX-License-Identifier: MIT
/// @file
/// @brief Device memory the grader owns, laid out so that an access outside it is seen.
///
/// Normal runs (CUDA virtual memory management, on every GPU this course supports): the
/// buffer's start is 256-byte aligned and its end lies at most 255 bytes before a page
/// that is reserved but not mapped, so a read or write past the end faults. Between the
/// end and that page, and before the start, lie guard bytes: NaN for floating-point
/// elements, a huge value for integers, so that a value read from them spoils any result
/// it enters, and a write to them is seen afterwards. Without virtual memory management
/// the guard zones are plain bytes of a larger cudaMalloc.
///
/// Under compute-sanitizer every buffer is its own cudaMalloc of exactly its size, so
/// memcheck reports any access outside it, read or write, in either direction.
#pragma once
#include <cstddef>
#include <cstdint>

#include "grader/exercise/guarded_memory.hpp"

namespace grader {

class DeviceMemory final : public GuardedMemory {
public:
    /// `bytes` of device memory whose guard zones hold `guard_byte`; `what` names the buffer
    /// in an out-of-memory message. Throws CudaError.
    DeviceMemory(size_t bytes, uint8_t guard_byte, const char* what);
    DeviceMemory(const DeviceMemory&) = delete;
    DeviceMemory& operator=(const DeviceMemory&) = delete;
    DeviceMemory(DeviceMemory&& o) noexcept;
    DeviceMemory& operator=(DeviceMemory&&) = delete;
    ~DeviceMemory();

    void* data() const override { return data_; }
    size_t bytes() const override { return bytes_; }
    bool on_host() const override { return false; }
    /// The bytes it was made with: the most use() may ask for.
    size_t capacity() const { return capacity_; }

    /// From now on the buffer is `bytes` long (at most capacity()), laid out as a buffer made
    /// with that size would be: its start 256-byte aligned and its end at most 255 bytes
    /// before the unmapped page (the last bytes of the allocation), so a timed call of a
    /// varied size (timed_sizes.hpp) keeps the guard page right after the part it uses. What
    /// lies before the new start, including the unused part, holds guard bytes, of which the
    /// 4 KiB next to the start are checked like the front guard; the contents of the used
    /// part are unspecified (the caller fills or poisons it). data() moves: read it at each
    /// call. Under compute-sanitizer the start stays and only the size changes (nothing is
    /// timed there). Throws CudaError.
    void use(size_t bytes);

    /// Every byte of the buffer set to `byte` (synchronous).
    void fill(uint8_t byte) override;
    void upload(const void* host, size_t bytes, size_t offset = 0);
    void download(void* host, size_t bytes, size_t offset = 0) const;
    /// Copies all of `other` (same size) into this buffer, on the device.
    void copy_from(const DeviceMemory& other);
    /// True when the guard bytes next to both ends are untouched (always true where the
    /// sanitizer, not guard bytes, watches the ends).
    bool guards_intact() const override;

private:
    const void* device_address() const override { return data_; }
    void release() noexcept;
    char* data_ = nullptr;
    size_t bytes_ = 0, capacity_ = 0;
    uint8_t guard_ = 0;
    size_t front_ = 0, back_ = 0;  ///< guard bytes mapped before the start and after the end
    size_t made_front_ = 0;        ///< front_ as made, at full capacity (use: buffer_layout.hpp)
    // Virtual memory management: the reserved range, the mapped part and its handle.
    unsigned long long va_ = 0, mapped_at_ = 0, reserved_ = 0, mapped_ = 0, handle_ = 0;
    void* malloc_base_ = nullptr;
};

}  // namespace grader
