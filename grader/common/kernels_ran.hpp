// SPDX-License-Identifier: MIT
/// @file
/// @brief The mechanism checks' evidence: which kernels each of an exercise's timed calls
///        ran, as its process recorded them (exercise/traced_calls.hpp says how), for the
///        supervisor to judge (supervisor/technique_ran.hpp). Pure host code, unit-tested.
///
/// What the exercise reports is the distinct sets of kernel names and how many calls ran
/// each; a set may hold kernels that are not the student's (a library's), and an empty set
/// means a call in which no kernel ran at all.
#pragma once
#include <cstdint>
#include <string>
#include <vector>


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

/// A set as one line of the sealed report, "21 _Z9kernel_aPf _Z9kernel_bPf" (mangled names
/// hold no space), and back; false for a line that is not one.
std::string kernel_set_text(const KernelSet& s);
bool kernel_set_from_text(const std::string& text, KernelSet& s);

/// The results file's `kernels_ran` object (docs/results_schema.md).
std::string kernels_ran_json(const KernelsRan& ran);

}  // namespace grader
