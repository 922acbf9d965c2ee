// SPDX-License-Identifier: MIT
/// @file
/// @brief The mechanism checks' evidence: which kernels each of an exercise's timed calls
///        ran, as its process recorded them (CUPTI, activity_trace.hpp), for the supervisor
///        to judge (technique_ran.hpp). Pure host code, unit-tested.
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
/// What the exercise reports is the distinct sets of kernel names and how many calls ran
/// each; a set may hold kernels that are not the student's (a library's), and an empty set
/// means a call in which no kernel ran at all.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "grader/activity_trace.hpp"

namespace grader {

/// One set of kernels, and how many timed calls ran exactly that set.
struct KernelSet {
    std::vector<std::string> kernels;  ///< mangled names, sorted, each once
    int calls = 0;
};

/// What an exercise's process recorded of its timed calls' kernels.
struct KernelsRan {
    /// True when every timed call's kernels were recorded (at least one call).
    bool recorded = false;
    /// When not recorded: why, in words ("CUPTI not found at build time", "nothing is timed
    /// under compute-sanitizer", a CUPTI error); "" when it was, or was not asked for.
    std::string note;
    std::vector<KernelSet> sets;  ///< the distinct sets, in the order first seen; empty when not recorded
    int calls() const;
    /// Counts one call that ran `kernels` (any order, repeats allowed).
    void add_call(std::vector<std::string> kernels);
    /// Marks the record incomplete: `why` becomes the note and the sets are dropped. The first
    /// reason stays: a later trace that works does not make the record whole again.
    void fail(const std::string& why);
};

/// Each window's kernels: the names of the kernel records whose start lies inside it
/// (copies are not kernels), sorted, each once. Windows hold disjoint spans.
std::vector<std::vector<std::string>> kernels_in_windows(const std::vector<Activity>& records,
                                                         const std::vector<TraceWindow>& windows);

/// Adds one trace's calls to `ran`: each window's kernels as one call. A trace that failed
/// (`error`), lost records (`dropped`), or recorded no kernel at all — not even the grader's
/// own, which run before and after every call — makes the record incomplete instead.
void add_traced_calls(KernelsRan& ran, const std::vector<Activity>& records, const std::string& error, uint64_t dropped,
                      const std::vector<TraceWindow>& windows);

/// A set as one line of the sealed report, "21 _Z9kernel_aPf _Z9kernel_bPf" (mangled names
/// hold no space), and back; false for a line that is not one.
std::string kernel_set_text(const KernelSet& s);
bool kernel_set_from_text(const std::string& text, KernelSet& s);

/// The results file's `kernels_ran` object (docs/results_schema.md).
std::string kernels_ran_json(const KernelsRan& ran);

}  // namespace grader
