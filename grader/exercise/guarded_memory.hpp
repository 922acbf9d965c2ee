// SPDX-License-Identifier: MIT
/// @file
/// @brief What the checks around a call need of a grader buffer, wherever it lives: device
///        memory (device_memory.hpp) or pinned host memory (host_buffer.hpp).
///
/// Exercise::check() and Exercise::grade() poison outputs, checksum const inputs and look at
/// the guard bytes of every buffer a Call names through this one interface. The checksum
/// and the count of poisoned elements run on the GPU, through the address at which the GPU
/// sees the buffer: one pass over a buffer of hundreds of MiB, even one in host memory.
#pragma once
#include <cstddef>
#include <cstdint>

namespace grader {

class GuardedMemory {
public:
    virtual ~GuardedMemory() = default;

    /// The buffer as its owner sees it (a device or a host address), and its size.
    virtual void* data() const = 0;
    virtual size_t bytes() const = 0;
    /// Every byte of the buffer set to `byte`, finished on return.
    virtual void fill(uint8_t byte) = 0;
    /// True when the guard bytes next to both ends are untouched.
    virtual bool guards_intact() const = 0;
    /// Where the buffer lives: messages about a host buffer speak of copies back.
    virtual bool on_host() const = 0;

    /// A 64-bit checksum of the contents (on the GPU).
    uint64_t checksum() const;
    /// Elements of `element_bytes` whose every byte is 0xFF, the poison (on the GPU).
    size_t count_poisoned(size_t element_bytes) const;

protected:
    /// The address at which kernels read the buffer.
    virtual const void* device_address() const = 0;
};

}  // namespace grader
