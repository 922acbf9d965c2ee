// SPDX-License-Identifier: MIT
/// @file
/// @brief `--sms=N`: grading as on a GPU with fewer SMs, by confining the process's CUDA
///        work to N SMs of the GPU with a green context (CUDA driver API, CUDA 12.4+).
///
/// The CUDA runtime creates its context lazily, at the first call that needs one, and
/// adopts whatever context is current on the calling thread at that moment. limit_sms()
/// makes a green context of N SMs current on the calling thread before that first call, so
/// every later runtime call of that thread — kernel launches on the default stream or on
/// streams it creates, allocations, events — runs in the partition. Call it on the main
/// thread before anything touches the device: the supervisor does so before it checks the
/// GPU, an exercise's process from a start-up constructor (grader/exercise/exercise_process.cpp).
///
/// The driver library is opened with dlopen, not linked: a program linked to libcuda.so.1
/// does not even start on a machine without the NVIDIA driver, where `grade` must still
/// run (the policy check and the build need no GPU; the run then reports SKIP).
///
/// What this cannot confine: a thread other than the one that called limit_sms() has no
/// current context, so the runtime gives it the GPU's primary context, all of its SMs; and
/// cudaSetDevice() binds the primary context to its thread. sm_limit_left() tells the latter.
#pragma once
#include <string>

namespace grader {

/// How `grade` and an exercise's process begin the line of a limit_sms() failure whose
/// reason is green contexts themselves (`unsupported`).
inline constexpr const char* kGreenContextsNeeded = "--sms needs green contexts (CUDA driver 12.4+, toolkit 12.4+): ";

/// The limit in force in this process (all zero without one).
struct SmLimit {
    int requested = 0;    ///< the N of `--sms=N`
    int sms = 0;          ///< the SMs the green context holds: N, or N rounded up to the GPU's step
    int total = 0;        ///< the whole GPU's SMs
    /// What the driver says of the whole GPU: the least SMs a split gives, and the step of its
    /// default split (8 and 8, seen on an H100 and an H200)
    int min_partition = 0, coscheduled_step = 0;
    /// The split ignores the SMs' co-scheduling groups (a finer step: asked for where the default
    /// split cannot give N)
    bool fine_split = false;
    bool active() const { return sms > 0; }
};

/// Why `--sms=n` cannot be applied here, or "" when it can; creates no context. Covers: a
/// toolkit older than 12.4 (this build has no green-context API), no driver library, a
/// driver older than 12.4, no device, a device without green contexts, an n larger than the
/// GPU's SM count or one the driver cannot split off. `unsupported`, when given, is set true
/// when the reason is green contexts themselves (toolkit, driver or device), false when the
/// reason is n or that there is no GPU to ask.
std::string sm_limit_unavailable(int n, bool* unsupported = nullptr);

/// Creates a green context of n SMs of device 0 (rounded up to the GPU's step where n is
/// not a multiple of it: sm_limit().sms says how many) and makes it current on the calling
/// thread, so that the CUDA runtime adopts it. Returns "" on success, else why not in one
/// line naming the driver call that failed (and sets `unsupported` as above); nothing is
/// left current then. Call it once, before the process's first CUDA runtime call.
std::string limit_sms(int n, bool* unsupported = nullptr);

/// Destroys the green context limit_sms() made, leaving no context current: `grade` calls it
/// once it is done with the GPU, so that no context of its own stays on the GPU (the green
/// context holds the device's primary context) while the exercises' processes run. sm_limit()
/// keeps its values. Returns "" or the driver call that failed, in one line.
std::string release_sms_limit();

/// The limit made by limit_sms() (inactive when none was made).
const SmLimit& sm_limit();

/// "" while the calling thread's current context is still the green context limit_sms()
/// made (or there is no limit); else what happened, in one line: code that called
/// cudaSetDevice() or changed the current context left the partition.
std::string sm_limit_left();

}  // namespace grader
