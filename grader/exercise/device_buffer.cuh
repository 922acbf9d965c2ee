// SPDX-License-Identifier: MIT
/// @file
/// @brief Typed device buffers owned by the grader: poisoned before each call, guarded on
///        both sides (device_memory.hpp says how).
#pragma once
#include <algorithm>
#include <cstring>
#include <type_traits>
#include <vector>

#include "grader/exercise/device_memory.hpp"

namespace grader {

/// The guard bytes of a buffer of T: NaN for floating point (and for structures of
/// floats), 0x7F7F… for integers — 2139062143 as an int, 127 as a byte — so that a value
/// read past either end spoils any sum, product or count it enters.
template <class T>
constexpr uint8_t guard_byte() {
    return std::is_integral_v<T> ? 0x7F : 0xFF;
}

/// The poison written into outputs before each call: every byte 0xFF, NaN for floating
/// point and −1 for integers. compare() reports elements still holding it as "never written".
inline constexpr uint8_t kPoisonByte = 0xFF;

/// The value of T whose every byte is `byte`.
template <class T>
T filled_with(uint8_t byte) {
    T v;
    std::memset(&v, byte, sizeof v);
    return v;
}

template <class T>
class DeviceBuffer {
public:
    /// n elements, poisoned.
    explicit DeviceBuffer(size_t n, const char* what = "buffer") : mem_(n * sizeof(T), guard_byte<T>(), what) { poison(); }
    /// A copy of `host`.
    explicit DeviceBuffer(const std::vector<T>& host, const char* what = "input") : DeviceBuffer(host.size(), what) {
        upload(host);
    }

    T* data() { return static_cast<T*>(mem_.data()); }
    const T* data() const { return static_cast<const T*>(mem_.data()); }
    /// The elements in use: the count it was made with, or the last use().
    size_t size() const { return mem_.bytes() / sizeof(T); }
    size_t bytes() const { return mem_.bytes(); }
    /// The count it was made with.
    size_t capacity() const { return mem_.capacity() / sizeof(T); }
    /// For timed calls of a varied size (timed_sizes.hpp): from now on the buffer holds its
    /// first n elements (n ≤ capacity()) where a buffer of n elements would lie, its end next
    /// to the guard page (DeviceMemory::use). data() moves, and the contents are unspecified
    /// until written: read data() and size() at every call.
    void use(size_t n) { mem_.use(n * sizeof(T)); }

    void upload(const std::vector<T>& host) { mem_.upload(host.data(), std::min(host.size(), size()) * sizeof(T)); }
    std::vector<T> download() const {
        std::vector<T> host(size());
        mem_.download(host.data(), bytes());
        return host;
    }
    void poison() { mem_.fill(kPoisonByte); }
    /// True when nothing was written next to either end of the buffer.
    bool guard_intact() const { return mem_.guards_intact(); }

    DeviceMemory& memory() { return mem_; }
    const DeviceMemory& memory() const { return mem_; }

private:
    DeviceMemory mem_;
};

}  // namespace grader
