// SPDX-License-Identifier: MIT
/// @file
/// @brief The kernels each timed call ran, from CUPTI's records (activity_trace.hpp): the
///        record the mechanism checks judge (common/kernels_ran.hpp). Pure host code,
///        unit-tested.
///
/// Where the supervisor asks (GRADER_TRACE, for the exercises a technique.txt names),
/// Exercise::grade records, for every timed call, warm-ups included, the names of the kernels
/// that started on the GPU between the end of the call's preparation and the end of the call:
/// one window per call on CUPTI's clock. The timing makes the device idle at both edges of
/// that window (a device synchronize before the start event, another after the stop event),
/// and inside it the grader issues only the L2 flush (a memset, which CUPTI does not record
/// as a kernel) and, for calls timed with TimingOptions::l2_resident (lesson 02, which has no
/// mechanism check), its short hold kernel. So a kernel whose start lies inside is the
/// call's — whichever stream, thread, library or graph launched it — and the grader's own
/// kernels (the fresh inputs, the poison, the verification) lie outside. The
/// alternatives were weaker: NVTX ranges can be pushed and popped by student code too, and
/// the callback API (the correlation ids of launches made during the call) would run a
/// callback on the launching thread inside the timed interval at every launch. The windows
/// cost two reads of a clock per call, both outside the timed interval, and the records are
/// read once, after the last timed call. What tracing adds inside it is CUPTI's own work at
/// each kernel launch: the start and end timestamps, which the GPU writes around the kernel
/// at CUPTI's request. Only the exercises with a mechanism check are traced; what it costs
/// their figures is to be measured on a GPU against a build with `-Dcupti=disabled` (the
/// course's figures were measured without it).
///
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "grader/common/kernels_ran.hpp"
#include "grader/exercise/activity_trace.hpp"

namespace grader {

/// Each window's kernels: the names of the kernel records whose start lies inside it
/// (copies are not kernels), sorted, each once. Windows hold disjoint spans.
std::vector<std::vector<std::string>> kernels_in_windows(const std::vector<Activity>& records,
                                                         const std::vector<TraceWindow>& windows);

/// Adds one trace's calls to `ran`: each window's kernels as one call. A trace that failed
/// (`error`), lost records (`dropped`), or recorded no kernel at all — not even the grader's
/// own, which run before and after every call — makes the record incomplete instead.
void add_traced_calls(KernelsRan& ran, const std::vector<Activity>& records, const std::string& error, uint64_t dropped,
                      const std::vector<TraceWindow>& windows);

}  // namespace grader
