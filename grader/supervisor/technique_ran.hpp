// SPDX-License-Identifier: MIT
/// @file
/// @brief The mechanism check on what ran: an exercise's technique rule (technique.hpp)
///        applied to the kernels each of its timed calls ran (kernels_ran.hpp), as the
///        supervisor judges them. Pure host code, unit-tested.
///
/// Every timed call's set of kernels must hold a kernel of the rule's file that shows every
/// trait of one of the rule's `kernel` alternatives, and every kernel of the file that ran in
/// a timed call must show the `every-kernel` traits. So a technique kernel that runs only on
/// the process's first call, only below some size the timing never reaches, or never, no
/// longer passes for the kernel that did the timed work.
///
/// The names come from the exercise's process, which holds student code; the traits come
/// from the SASS the supervisor disassembled itself. A name that is not among the file's
/// functions (a library's kernel, one of the grader's, one of the student's other files) is
/// evidence of nothing: it is passed over, and a call that ran no kernel of the file at all
/// is a finding of its own ("no kernel of FILE ran"). A kernel compiled for several
/// architectures has a trait for a `kernel` alternative when any of its versions has it, and
/// for `every-kernel` only when each has it, as on compiled code.
///
/// Where the exercise recorded nothing (a build without CUPTI, a CUPTI failure, a run under
/// compute-sanitizer), the judgement falls back to every function compiled from the file
/// (apply_technique) and says so.
#pragma once
#include <string>
#include <vector>

#include "grader/common/kernels_ran.hpp"
#include "grader/common/verdict.hpp"
#include "grader/supervisor/technique.hpp"

namespace grader {

/// The rule on the kernels that ran: "" when every timed call's set satisfies it, else what
/// the calls ran and lacked, e.g. "in 21 of 24 timed calls only conv_untiled_kernel of
/// 2_halo_tile.cu ran, which stores nothing to shared memory". `sass`: the functions of the
/// rule's file, every architecture.
std::string check_ran_kernels(const TechniqueRule& rule, const std::vector<SassFunction>& sass, const KernelsRan& ran);

/// How an exercise's verdict was judged.
struct TechniqueJudgement {
    std::string read;      ///< "ran", "compiled" or "" (no rule was applied): ExerciseResult::technique_read
    std::string fallback;  ///< for "compiled": why the kernels that ran were not read
    bool changed = false;  ///< the PASS became FAIL [technique]
};

/// `v` with its exercise's checked rule applied, a PASS only: to the kernels that ran where
/// `ran` holds them, else to every compiled function (the report's findings).
TechniqueJudgement judge_technique(const TechniqueReport& report, const KernelsRan& ran, Verdict& v);

}  // namespace grader
