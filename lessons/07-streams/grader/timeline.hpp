// SPDX-License-Identifier: MIT
/// @file
/// @brief Lesson 07's timeline: the copies and kernels of one call, as the GPU ran them,
///        recorded by the grader library's CUPTI tracing (grader/exercise/activity_trace.hpp).
///
/// 07.1 traces one extra, untimed call of the student's pipeline and of two of the grader's
/// (serial, and 4 streams × 32 chunks), prints them as lanes when the pipeline is too slow,
/// and records them in the results file for tools/report.py. Nothing here decides a verdict:
/// any CUPTI failure gives an empty timeline and a reason in words. Built without CUPTI
/// (grader/meson.build), every trace is empty.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "grader/exercise/activity_trace.hpp"

namespace timeline {

/// The lane an operation belongs to: a host-to-device copy, a kernel, a device-to-host copy,
/// or anything else recorded (a device-to-device copy, say), drawn in no lane.
enum class What { copy_in, work, copy_out, other };
const char* words(What w);  ///< "copy in", "work", "copy out", "other"

struct Record {
    What what = What::other;
    uint32_t stream = 0;                 ///< CUPTI's stream id
    uint64_t start_ns = 0, end_ns = 0;   ///< from the start of the first record kept
    uint64_t bytes = 0;                  ///< of a copy; 0 for a kernel
    std::string name;                    ///< the kernel's (mangled) name; "" for a copy
};

struct Timeline {
    std::vector<Record> records;  ///< by start time
    std::string why_empty;        ///< why there is no record, in words; "" when there are
    uint64_t dropped = 0;         ///< records CUPTI reports it dropped (its buffers were full)
    uint64_t end_ns() const;      ///< the latest end: the length of the call on the GPU
};

/// The part of a traced function to keep: only records that start between open() and close()
/// are kept (open() takes the time on CUPTI's clock; close() waits for the device first, so
/// all that was issued in between has ended). A trace without a window keeps everything.
using Window = grader::TraceWindow;

/// Runs `run` once with copies and concurrent kernels traced, waits for the device, and
/// returns what ran (within `window` when given). Never throws for a CUPTI failure; an
/// exception from `run` itself passes through, with the tracing switched off.
Timeline trace(const std::function<void()>& run, const Window* window = nullptr);

/// The lanes "copy in", "work" and "copy out" of `t` as text, one string per lane:
/// `width` characters, each a slice of [0, scale_ns): '#' where any record of that lane
/// (any stream) covers part of the slice, '.' where none does, ' ' past the call's end.
/// scale_ns 0: the call's own length.
std::vector<std::string> lanes(const Timeline& t, int width, uint64_t scale_ns = 0);

/// The timeline as one entry of an exercise's "tables" (docs/results_schema.md, "Timelines"):
/// `pipeline` names it for tools ("yours", "serial", "best"), `caption` for people.
std::string table_json(const Timeline& t, const std::string& pipeline, const std::string& caption, bool student);

}  // namespace timeline
