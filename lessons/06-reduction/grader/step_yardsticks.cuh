// SPDX-License-Identifier: MIT
/// @file
/// @brief The grader's own steps 1–4 of lesson 06: what steps 2–5 are graded against.
///
/// A step's starter is the step before it, so the one question the speed verdict of steps
/// 2–5 has to answer is: did this step's change make the sum faster than the step it
/// started from? The grader therefore times its own copy of that earlier step on the same
/// input in the same run, and requires a fixed factor above it (thresholds.txt). A
/// fraction of the block-sum ceiling would ask the same question less precisely: that
/// kernel has another shape, and its ratio to steps 2 and 3 moved by a few per cent
/// between runs and GPUs, as much as the margin between those two steps (theory.md, "What
/// limits steps 1–6"). These kernels are written as the students' references are —
/// block size read at run time, one value (two from step 4) per thread — so that an
/// unchanged starter and its yardstick run the same code. Grader code: students never
/// edit or link it.
#pragma once
#include <cstddef>

/// The float sum as step `step` (1 to 4) computes it, with the launcher signature of the steps.
void grader_step_sum(int step, const float* in, size_t n, float* out, float* scratch, int block_size);
