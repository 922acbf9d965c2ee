// SPDX-License-Identifier: MIT
/// @file
/// @brief One call of a student's launcher, described once: what it runs, which grader
///        buffers it reads and writes, and how its result is checked.
///
/// Exercise::check() runs the call once and checks it; Exercise::grade() times it and
/// checks the timed calls with the same description. So what is timed is what is checked:
/// before every timed call the outputs are poisoned again and in-place data restored;
/// after every timed call no output may still hold the poison; and a call chosen at random
/// is verified in full against inputs that have changed a little between calls (two
/// elements swapped), so that replaying an earlier result fails.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "grader/device_buffer.cuh"
#include "grader/host_buffer.hpp"
#include "grader/random.hpp"

namespace grader {

class Call {
public:
    /// Whether and how an input is varied between timed calls: two elements swapped, one
    /// element changed (for results a swap leaves as they were: a histogram, a sum), or not at all.
    enum class Vary { swap, no, change };

    /// `context` names the call in messages, e.g. "add_matrices, 1023 × 1025".
    Call(std::string context, std::function<void()> launch) : context_(std::move(context)), launch_(std::move(launch)) {}

    /// A const input: it must be unchanged after the call. With Vary::swap the grader swaps
    /// two of its elements (in `host` and on the device) before each timed call, so the
    /// verify function must compute what it expects from `host` as it is then. Use
    /// Vary::no where the order of the values carries meaning. With Vary::change one element
    /// chosen at random is increased by one before each timed call (integers wrap around).
    template <class T>
    Call& input(DeviceBuffer<T>& d, std::vector<T>& host, const std::string& name, Vary vary = Vary::swap) {
        Buffer b{&d.memory(), Role::input, name};
        if (vary == Vary::swap && host.size() >= 2)
            b.vary = [&d, &host](Rng& rng) {
                const size_t i = rng.next() % host.size(), j = rng.next() % host.size();
                std::swap(host[i], host[j]);
                d.memory().upload(&host[i], sizeof(T), i * sizeof(T));
                d.memory().upload(&host[j], sizeof(T), j * sizeof(T));
            };
        if constexpr (std::is_arithmetic_v<T>)  // Vary::change needs numbers; structures (float4) may still swap
            if (vary == Vary::change && !host.empty())
                b.vary = [&d, &host](Rng& rng) {
                    const size_t i = rng.next() % host.size();
                    host[i] = static_cast<T>(host[i] + 1);
                    d.memory().upload(&host[i], sizeof(T), i * sizeof(T));
                };
        buffers_.push_back(std::move(b));
        return *this;
    }
    /// Read and written in place: restored before every call to what `d` holds now (the
    /// verify function compares with the grader's host copy of those values).
    template <class T>
    Call& in_out(DeviceBuffer<T>& d, const std::string& name) {
        Buffer b{&d.memory(), Role::in_out, name};
        auto copy = std::make_shared<DeviceBuffer<T>>(d.size(), "pristine copy");
        copy->memory().copy_from(d.memory());
        b.pristine = std::shared_ptr<void>(copy, &copy->memory());
        b.element_bytes = sizeof(T);
        buffers_.push_back(std::move(b));
        return *this;
    }
    /// Written by the call: poisoned before every call; no element may still hold the
    /// poison after a timed call.
    template <class T>
    Call& output(DeviceBuffer<T>& d, const std::string& name) {
        Buffer b{&d.memory(), Role::output, name};
        b.element_bytes = sizeof(T);
        buffers_.push_back(std::move(b));
        return *this;
    }
    /// Working space the launcher may use freely (up to its size): poisoned before every
    /// call, its guard bytes checked after.
    template <class T>
    Call& scratch(DeviceBuffer<T>& d, const std::string& name) {
        buffers_.push_back(Buffer{&d.memory(), Role::scratch, name});
        return *this;
    }
    /// A const input in pinned host memory, for a launcher that copies it to the device
    /// itself (lesson 07): unchanged after the call, and varied before each timed call as
    /// input() says (here the buffer is the grader's copy: the verify function reads it).
    template <class T>
    Call& host_input(HostBuffer<T>& h, const std::string& name, Vary vary = Vary::swap) {
        Host b{&h.memory(), Role::input, name};
        if (vary == Vary::swap && h.size() >= 2)
            b.vary = [&h](Rng& rng) {
                const size_t i = rng.next() % h.size(), j = rng.next() % h.size();
                std::swap(h[i], h[j]);
            };
        if constexpr (std::is_arithmetic_v<T>)
            if (vary == Vary::change && h.size() >= 1)
                b.vary = [&h](Rng& rng) {
                    const size_t i = rng.next() % h.size();
                    h[i] = static_cast<T>(h[i] + 1);
                };
        host_buffers_.push_back(std::move(b));
        return *this;
    }
    /// Written by the call into pinned host memory (copied back from the device): poisoned
    /// before every call; no element may still hold the poison after a timed call.
    template <class T>
    Call& host_output(HostBuffer<T>& h, const std::string& name) {
        Host b{&h.memory(), Role::output, name};
        b.element_bytes = sizeof(T);
        host_buffers_.push_back(std::move(b));
        return *this;
    }
    /// Runs before every call, checked or timed, outside the timed interval and before the
    /// buffers are prepared: state the grader changes from call to call besides its buffers
    /// (lesson 07 draws a fresh key for its work kernel).
    Call& before_each(std::function<void()> hook) {
        before_each_ = std::move(hook);
        return *this;
    }
    /// The lesson's comparison of the outputs with what the inputs require (calls to
    /// Exercise::expect_close and the like, which reject).
    Call& verify(std::function<void()> check) {
        verify_ = std::move(check);
        return *this;
    }

    const std::string& context() const { return context_; }
    const std::function<void()>& launch() const { return launch_; }

    // --- used by Exercise ---
    enum class Role { input, in_out, output, scratch };
    struct Buffer {
        DeviceMemory* memory;
        Role role;
        std::string name;
        std::function<void(Rng&)> vary;           // inputs with Vary::swap or Vary::change
        uint64_t checksum = 0;                    // inputs: their device checksum before the call
        std::shared_ptr<void> pristine;           // in_out: the initial contents, on the device
        size_t element_bytes = 0;                 // outputs and in_out
        DeviceMemory& initial() const { return *static_cast<DeviceMemory*>(pristine.get()); }
    };
    std::vector<Buffer>& buffers() { return buffers_; }
    /// A pinned host buffer and its role (input or output only).
    struct Host {
        HostMemory* memory;
        Role role;
        std::string name;
        std::function<void(Rng&)> vary;  // inputs with Vary::swap
        uint64_t checksum = 0;           // inputs: their checksum before the call
        size_t element_bytes = 0;        // outputs
    };
    std::vector<Host>& host_buffers() { return host_buffers_; }
    const std::function<void()>& before_each() const { return before_each_; }
    const std::function<void()>& verifier() const { return verify_; }

private:
    std::string context_;
    std::function<void()> launch_;
    std::vector<Buffer> buffers_;
    std::vector<Host> host_buffers_;
    std::function<void()> before_each_;
    std::function<void()> verify_;
};

}  // namespace grader
