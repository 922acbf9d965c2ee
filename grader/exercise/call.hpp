// SPDX-License-Identifier: MIT
/// @file
/// @brief One call of a student's launcher, described once: what it runs, which grader
///        buffers it reads and writes, and how its result is checked.
///
/// Exercise::check() runs the call once and checks it; Exercise::grade() times it and
/// verifies **every** timed call, warm-ups included, in full. Before each timed call, outside
/// the timed interval, `timed_inputs` writes fresh inputs on the device under a key no
/// launcher can predict (so that no result kept from an earlier call, keyed by any part of
/// its input, is still right), the outputs are poisoned and in-place data is kept as it is
/// then; after it, the guards and const inputs are checked, no output may still hold the
/// poison, and `timed_verify` compares the outputs with the grader's own result, computed on
/// the GPU from the same inputs (Exercise::expect_on_device). Nothing a launcher can read
/// says which call is which: all are checked the same way. With `timed_size`, every timed
/// run also has a size of its own, drawn from a band below the nominal one
/// (timed_sizes.hpp), and the checks above look at the part of each buffer that size uses.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "grader/common/timed_sizes.hpp"
#include "grader/exercise/device_buffer.cuh"
#include "grader/exercise/host_buffer.hpp"

namespace grader {

class Call {
public:
    /// `context` names the call in messages, e.g. "add_matrices, 1023 × 1025".
    Call(std::string context, std::function<void()> launch) : context_(std::move(context)), launch_(std::move(launch)) {}

    /// A const input: it must be unchanged after the call (checked on the device). `host` is
    /// the grader's copy for the untimed checks' verify functions; timed calls get fresh
    /// device-made inputs from timed_inputs instead, and leave `host` stale.
    template <class T>
    Call& input(DeviceBuffer<T>& d, const std::string& name) {
        buffers_.push_back(Buffer{&d.memory(), Role::input, name});
        return *this;
    }
    /// Read and written in place. Before an untimed check it is restored to what `d` holds
    /// now; before a timed call timed_inputs writes it afresh and a copy is kept, which
    /// initial() returns for the grader's reference.
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
    /// itself (lesson 07): unchanged after the call; timed_inputs writes it afresh.
    template <class T>
    Call& host_input(HostBuffer<T>& h, const std::string& name) {
        buffers_.push_back(Buffer{&h.memory(), Role::input, name});
        return *this;
    }
    /// Written by the call into pinned host memory (copied back from the device): poisoned
    /// before every call; no element may still hold the poison after a timed call.
    template <class T>
    Call& host_output(HostBuffer<T>& h, const std::string& name) {
        Buffer b{&h.memory(), Role::output, name};
        b.element_bytes = sizeof(T);
        buffers_.push_back(std::move(b));
        return *this;
    }
    /// Runs before every call, checked or timed, outside the timed interval and before the
    /// buffers are prepared: state the grader changes from call to call besides its buffers
    /// (lesson 07 draws a fresh key for its work kernel).
    Call& before_each(std::function<void()> hook) {
        before_each_ = std::move(hook);
        return *this;
    }
    /// The lesson's comparison of the outputs with what the inputs require, for untimed
    /// checks (calls to Exercise::expect_close and the like, which reject).
    Call& verify(std::function<void()> check) {
        verify_ = std::move(check);
        return *this;
    }
    /// Writes every input (and in-place buffer) of a timed call afresh, on the device, from
    /// `key` (device_inputs.cuh). Required for a call that Exercise::grade() times.
    Call& timed_inputs(std::function<void(uint64_t key)> fill) {
        timed_inputs_ = std::move(fill);
        return *this;
    }
    /// Verifies a timed call in full against the grader's own result on the GPU (its
    /// reference kernel, cuBLAS, CUB) for the inputs timed_inputs wrote; rejects like verify.
    /// Required for a call that Exercise::grade() times.
    Call& timed_verify(std::function<void()> check) {
        timed_verify_ = std::move(check);
        return *this;
    }
    /// Varies the size of every timed run, warm-ups included. Before each one, ahead of
    /// timed_inputs, `choose` takes the run's sizes from the SizeDraw (SizeDraw::pick, one
    /// pick per varied dimension), makes every buffer the call names the size that run uses
    /// (DeviceBuffer::use: its end next to the guard page, so that a write past the current
    /// size is a bounds error and a read past it can fault, as for a buffer of that size),
    /// sets what the launcher, timed_inputs and timed_verify read for the size, and returns
    /// the run's work as a share of the nominal work (RunSize). After the timing it is called
    /// once more with SizeDraw::nominal(), which must give back the sizes the buffers were
    /// made with. A call without it is timed at one size.
    Call& timed_size(std::function<RunSize(SizeDraw&)> choose) {
        timed_size_ = std::move(choose);
        return *this;
    }
    /// The contents an in-place buffer had before this call (after timed_inputs, for a timed
    /// call): what the grader's reference starts from.
    template <class T>
    const T* initial(const DeviceBuffer<T>& d) const {
        for (const Buffer& b : buffers_)
            if (b.memory == &d.memory() && b.role == Role::in_out) return static_cast<const T*>(b.initial().data());
        throw std::logic_error("grader bug: Call::initial() of a buffer that is not in_out");
    }

    /// This call with another launcher on the same buffers, inputs and checks: how a
    /// baseline is timed and verified like the student's call (Exercise::baseline).
    Call with_launch(std::string context, std::function<void()> launch) const {
        Call c = *this;
        c.context_ = std::move(context), c.launch_ = std::move(launch);
        return c;
    }

    const std::string& context() const { return context_; }
    const std::function<void()>& launch() const { return launch_; }

    // --- used by Exercise ---
    enum class Role { input, in_out, output, scratch };
    /// A buffer of the call, on the device or in pinned host memory (guarded_memory.hpp); the
    /// host ones are inputs and outputs only.
    struct Buffer {
        GuardedMemory* memory;
        Role role;
        std::string name;
        uint64_t checksum = 0;                    // inputs: their checksum before the call
        std::shared_ptr<void> pristine;           // in_out: the initial contents, on the device
        size_t element_bytes = 0;                 // outputs and in_out
        DeviceMemory& initial() const { return *static_cast<DeviceMemory*>(pristine.get()); }
        DeviceMemory& device() const { return *static_cast<DeviceMemory*>(memory); }  // in_out: on the device
    };
    std::vector<Buffer>& buffers() { return buffers_; }
    const std::function<void()>& before_each() const { return before_each_; }
    const std::function<void()>& verifier() const { return verify_; }
    const std::function<void(uint64_t)>& timed_inputs() const { return timed_inputs_; }
    const std::function<void()>& timed_verifier() const { return timed_verify_; }
    const std::function<RunSize(SizeDraw&)>& timed_size() const { return timed_size_; }

private:
    std::string context_;
    std::function<void()> launch_;
    std::vector<Buffer> buffers_;
    std::function<void()> before_each_;
    std::function<void()> verify_;
    std::function<void(uint64_t)> timed_inputs_;
    std::function<void()> timed_verify_;
    std::function<RunSize(SizeDraw&)> timed_size_;
};

}  // namespace grader
