// SPDX-License-Identifier: MIT
/// @file
/// @brief Timing a launch the way good harnesses do: warm-up, an L2 flush before every
///        run, the device idle at the start of every run, the median of many runs — and a
///        check that the timed interval held all the work the launch enqueued.
///
/// Each run: the hook `before` (outside the timed interval: restore inputs, poison
/// outputs), an L2 flush, a full device synchronize; then a start event, the launch and a
/// stop event on the default stream; then the host waits for the stop event and, after
/// it, for the whole device. The events give the run's time (Clock::events); the host
/// clock from just before the start event until the device is idle gives the wall time
/// (Clock::wall, for work spread over streams by design). How long the device stayed busy
/// after the stop event — near a microsecond for work on the default stream — is the
/// timing's tail: work a launcher left on a side stream shows there.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "grader/common/stats.hpp"

namespace grader {

enum class Clock {
    events,  ///< CUDA events around the launch on the default stream
    wall,    ///< host clock from before the launch until cudaDeviceSynchronize() returns
};

/// A budget (TimingOptions::budget_ms) for timed runs whose figure only informs, a teaching
/// table's cell or the slow hint's comparison: a kernel that slow needs no median of five, and
/// a starter's slowest ones took seconds of a student's run otherwise (#19).
inline constexpr double kInformingBudgetMs = 40;

struct TimingOptions {
    int warmups = 3;       ///< untimed runs first: module load, first-touch, clock ramp-up (one is
                           ///< enough when it took over 20 ms: the rest are skipped)
    int runs = 21;         ///< timed runs at most; the median is the figure
    bool flush_l2 = true;  ///< overwrite a buffer twice the L2 size before each run
    Clock clock = Clock::events;
    /// Asked after each timed run with the samples so far: true stops the timing there (a
    /// verdict the remaining runs could not change: stats.hpp, speed_decided).
    std::function<bool(const std::vector<double>&)> decided;
    /// When > 0: no further run once the timed runs add up to this many ms (one run at
    /// least). Teaching tables use it (TeachingTable::kRowBudgetMs): a slow row's figure
    /// needs no median of five.
    double budget_ms = 0;
    /// For calls of a few microseconds on data the L2 holds (lesson 02's bank-conflict
    /// grades): no flush, so the inputs the run's hooks just wrote stay in the L2, and a
    /// short kernel (kHoldUs) keeps the GPU busy while the call is enqueued, so that the
    /// events time the GPU's work and not the host's launch latency. Events only.
    bool l2_resident = false;
};

/// Called outside the timed interval with the run's index (warm-ups first, from 0).
struct RunHooks {
    std::function<void(int)> before, after;
    /// Asked after `before`: the share of the nominal work this run does, for a call whose
    /// size varies from run to run (timed_sizes.hpp). The run's time is divided by it, so that
    /// every sample is the time of the nominal work at this run's speed; the tail is not.
    std::function<double()> work_share;
};

/// What time_launch runs around every launch, since a launch can hold the student's code.
/// The lesson programs set the checks that nothing of the submission runs outside its calls
/// (exercise/outside_calls.hpp, set by exercise_process.cpp at start-up); the supervisor,
/// which times only its own calibration kernels, sets none. Plain function pointers, so that
/// the start-up constructor can set them before any C++ static initializer has run.
struct LaunchBracket {
    void (*entering)() = nullptr;                    ///< after the device is idle, just before the launch
    void (*left)(const std::string& run) = nullptr;  ///< once the device is idle after it ("timed run 3")
    /// Before the first run of every timing: blocks while another process still makes its
    /// CUDA context (exercise/gate.hpp, wait_until_contexts_are_made).
    void (*timing)() = nullptr;
};
void set_launch_bracket(const LaunchBracket& bracket);

/// Times `launch` as described above. Throws CudaError if a run faults.
Timing time_launch(const std::function<void()>& launch, const TimingOptions& options = {}, const RunHooks& hooks = {});

/// How long the GPU is held before an l2_resident run: longer than a launcher's host-side
/// work normally takes (a few launches), short next to a run's checks.
inline constexpr double kHoldUs = 50;

/// Evicts the L2 cache by writing a scratch buffer twice its size (on the default stream).
void flush_l2();

}  // namespace grader
