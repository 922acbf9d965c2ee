// SPDX-License-Identifier: MIT
/// @file
/// @brief Makes a kernel's reads of shared memory it never wrote visible to lesson 04's
///        checks: shared memory is filled with NaN right before each checked call.
///
/// Shared memory has no defined contents when a block starts: a cell the block never
/// writes holds whatever was there before, perhaps another tile's pixels (wrong by luck),
/// perhaps zeros (right by luck: exactly the zero padding the cell should hold). To leave
/// less to luck, before every checked call the grader runs one kernel that writes NaN (all
/// bytes 0xFF) into as much shared memory as one block may have on this GPU, on every SM;
/// a student kernel that then lets an unwritten cell into a sum produces NaN, which the
/// check rejects (theory.md, "Halo through the caches"). Not before timed calls (it would
/// be timed with them), nor under compute-sanitizer (it would cost more than the checks).
#pragma once

/// Writes NaN into the shared memory of every SM (one launch on the default stream).
void fill_shared_memory_with_nan();
