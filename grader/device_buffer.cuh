// SPDX-License-Identifier: MIT
/// @file
/// @brief Typed device buffers owned by the grader: poisoned before each call, guarded on
///        both sides (device_memory.hpp says how).
#pragma once
#include <algorithm>
#include <cstring>
#include <type_traits>
#include <vector>

#include "grader/device_memory.hpp"

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
    explicit DeviceBuffer(size_t n, const char* what = "buffer") : mem_(n * sizeof(T), guard_byte<T>(), what), n_(n) { poison(); }
    /// A copy of `host`.
    explicit DeviceBuffer(const std::vector<T>& host, const char* what = "input") : DeviceBuffer(host.size(), what) {
        upload(host);
    }

    T* data() { return static_cast<T*>(mem_.data()); }
    const T* data() const { return static_cast<const T*>(mem_.data()); }
    size_t size() const { return n_; }
    size_t bytes() const { return n_ * sizeof(T); }

    void upload(const std::vector<T>& host) { mem_.upload(host.data(), std::min(host.size(), n_) * sizeof(T)); }
    std::vector<T> download() const {
        std::vector<T> host(n_);
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
    size_t n_;
};

}  // namespace grader
