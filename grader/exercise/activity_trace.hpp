// SPDX-License-Identifier: MIT
/// @file
/// @brief The copies and kernels the GPU ran, recorded with the CUPTI Activity API (part of
///        the CUDA toolkit; tracing reads hardware timestamps, no performance counter, so it
///        needs no profiling permission).
///
/// Two users: the mechanism check's evidence, the kernels each of an exercise's timed calls
/// ran (Exercise::grade, kernels_ran.hpp), and lesson 07's timeline of a pipeline
/// (lessons/07-streams/grader/timeline.hpp). Nothing here decides a verdict: a CUPTI failure
/// is a reason in words, and the caller says what it does without the records.
///
/// The build finds CUPTI once, for the grader library (grader/meson.build: the toolkit's
/// lib64, or extras/CUPTI beside it; `-Dcupti=disabled` leaves it out). Built without it
/// (GRADER_HAVE_CUPTI unset), every trace is empty and tracing_unavailable() says why.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace grader {

/// One operation as the GPU ran it. Times are on CUPTI's clock (trace_clock_ns()).
struct Activity {
    enum class Kind { kernel, copy_in, copy_out, copy_other };  ///< copy_in: host to device
    Kind kind = Kind::kernel;
    uint32_t stream = 0;                ///< CUPTI's stream id
    uint64_t start_ns = 0, end_ns = 0;
    uint64_t bytes = 0;                 ///< of a copy; 0 for a kernel
    std::string name;                   ///< a kernel's name, mangled as in its object; "" for a copy
};

/// "" when this build can trace; otherwise why not ("CUPTI not found at build time").
std::string tracing_unavailable();

/// Now, on the clock of Activity's times (cuptiGetTimestamp); 0 when this build cannot trace.
uint64_t trace_clock_ns();

/// A span of CUPTI's clock: open() takes the time, close() waits for the device and takes it
/// again, so that everything issued in between has ended inside it. A window never opened
/// holds every time. Pure host data besides those two calls (traced_calls.hpp reads it).
class TraceWindow {
public:
    TraceWindow() = default;
    TraceWindow(uint64_t begin_ns, uint64_t end_ns) : begin_(begin_ns), end_(end_ns) {}
    void open();
    void close();
    bool holds(uint64_t t) const { return t >= begin_ && t <= end_; }
    uint64_t begin_ns() const { return begin_; }
    uint64_t end_ns() const { return end_; }

private:
    uint64_t begin_ = 0, end_ = UINT64_MAX;
};

/// Records what the GPU runs from construction until stop(): kernels, and copies when asked.
/// One trace at a time per process (CUPTI's buffers are the process's). Construction waits
/// for the device first, so that work issued before does not show. Records reach the
/// grader on CUPTI's own thread, when one of its buffers (4 MiB: tens of thousands of
/// records) is full, and in stop(), which flushes them: the thread being traced does none
/// of that work. Never throws for a CUPTI failure: error() says what failed, and the trace
/// then holds nothing.
class ActivityTrace {
public:
    explicit ActivityTrace(bool copies);
    ~ActivityTrace();  ///< stops the trace if stop() was not called (an exception on the way)
    ActivityTrace(const ActivityTrace&) = delete;
    ActivityTrace& operator=(const ActivityTrace&) = delete;

    /// Waits for the device, flushes CUPTI's buffers and stops recording: every record since
    /// the start, by start time. Empty when error() is not.
    std::vector<Activity> stop();
    /// Why the trace holds nothing (the build, a CUPTI call that failed); "" otherwise.
    const std::string& error() const { return error_; }
    /// Records CUPTI reports it dropped because its buffers were full.
    uint64_t dropped() const { return dropped_; }

private:
    void disable();
    bool copies_ = false, running_ = false;
    std::string error_;
    uint64_t dropped_ = 0;
};

}  // namespace grader
