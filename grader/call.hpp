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
#include <utility>
#include <vector>

#include "grader/device_buffer.cuh"
#include "grader/random.hpp"

namespace grader {

class Call {
public:
    /// Whether an input may be varied between timed calls.
    enum class Vary { swap, no };

    /// `context` names the call in messages, e.g. "add_matrices, 1023 × 1025".
    Call(std::string context, std::function<void()> launch) : context_(std::move(context)), launch_(std::move(launch)) {}

    /// A const input: it must be unchanged after the call. With Vary::swap the grader swaps
    /// two of its elements (in `host` and on the device) before each timed call, so the
    /// verify function must compute what it expects from `host` as it is then. Use
    /// Vary::no where the order of the values carries meaning.
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
        std::function<void(Rng&)> vary;           // inputs with Vary::swap
        uint64_t checksum = 0;                    // inputs: their device checksum before the call
        std::shared_ptr<void> pristine;           // in_out: the initial contents, on the device
        size_t element_bytes = 0;                 // outputs and in_out
        DeviceMemory& initial() const { return *static_cast<DeviceMemory*>(pristine.get()); }
    };
    std::vector<Buffer>& buffers() { return buffers_; }
    const std::function<void()>& verifier() const { return verify_; }

private:
    std::string context_;
    std::function<void()> launch_;
    std::vector<Buffer> buffers_;
    std::function<void()> verify_;
};

}  // namespace grader
