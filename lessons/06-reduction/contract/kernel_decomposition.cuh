// SPDX-License-Identifier: MIT
/// @file
/// @brief Kernel decomposition for lesson 06: one kernel launch per level of the
///        reduction tree, because the end of a kernel is the only barrier every block of a
///        grid waits at.
#pragma once
#include <cstddef>

/// Reduces `n` values to one by repeated passes and leaves the sum in `*out`.
///
/// Each pass turns `count` values into ⌈count / per_block⌉ partial sums, one per block:
/// `pass(src, count, dst, blocks)` must launch `blocks` blocks that read `src[0 … count-1]`
/// and write `dst[0 … blocks-1]`. The pass that is left with a single block writes `out`.
/// The partial sums of consecutive passes alternate between two regions of `scratch`, so
/// no pass reads a buffer it is writing: with per_block ≥ 32 both fit in
/// reduction_scratch_elements(n) values.
//! [decomposition]
template <class T, class Pass>
void reduce_in_passes(const T* in, size_t n, T* out, T* scratch, size_t per_block, Pass pass) {
    T* level[2] = {scratch, scratch + (n + per_block - 1) / per_block};
    const T* src = in;
    for (int k = 0;; k ^= 1) {
        const size_t blocks = (n + per_block - 1) / per_block;
        T* dst = blocks == 1 ? out : level[k];
        pass(src, n, dst, blocks);  // the next launch starts only after this one has ended
        if (blocks == 1) return;
        src = dst;
        n = blocks;
    }
}
//! [decomposition]
