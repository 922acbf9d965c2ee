// SPDX-License-Identifier: MIT
/// @file
/// @brief The control flow of one SASS function: its basic blocks, which block dominates
///        which, and its natural loops. The mechanism checks (technique.hpp) use it to ask
///        where an instruction lies with respect to the code that does the work: whether a
///        shared load and the math it feeds lie in one loop, whether a barrier lies under a
///        branch. Pure host code.
///
/// What it models, and why that is enough for nvcc's output:
/// - A block starts at the entry, at every branch target and after every instruction that
///   may not fall through (BRA, BRX, JMX, JMP, EXIT, RET, KILL, BPT).
/// - A conditional branch (a guard other than `@PT`, or `BRA.U !UP0, 0x80` and
///   `BRA.DIV UR4, 0x…`, which test a register without a guard) goes to its target or falls through. An
///   indirect jump (BRX, JMX) may go to any block. CALL returns: it falls through.
/// - A natural loop is the set of blocks of a back edge u → h (h dominates u): h, and every
///   block that reaches u without passing through h. Back edges to one header form one loop.
///   Unlike the listing's address ranges (a backward branch and what lies between), this
///   does not count code that the compiler placed inside the range but that is not on the
///   loop's path.
#pragma once
#include <cstddef>
#include <vector>

#include "grader/supervisor/technique.hpp"

namespace grader {

struct BasicBlock {
    size_t first = 0, end = 0;  ///< instructions [first, end) of the function's code
    std::vector<size_t> succ, pred;
};

struct NaturalLoop {
    size_t header = 0;
    std::vector<bool> body;  ///< per block: inside the loop
};

struct ControlFlow {
    std::vector<BasicBlock> blocks;   ///< block 0 is the entry; none when the function is empty
    std::vector<size_t> block_of;     ///< per instruction: its block
    std::vector<bool> reachable;      ///< per block: some path from the entry reaches it
    std::vector<std::vector<bool>> dom;      ///< dom[b][d]: every path from the entry to b passes d
    std::vector<std::vector<bool>> postdom;  ///< postdom[b][d]: every path from b to an exit passes d
    std::vector<NaturalLoop> loops;

    /// Whether block `d` dominates block `b` (every block dominates itself).
    bool dominates(size_t d, size_t b) const { return dom[b][d]; }
    /// Whether block `d` post-dominates block `b`.
    bool post_dominates(size_t d, size_t b) const { return postdom[b][d]; }
    /// Whether instruction `i` lies in some natural loop; whether `i` and `j` share one.
    bool in_loop(size_t i) const;
    bool share_loop(size_t i, size_t j) const;
};

/// The branch target of instruction `in` (`BRA 0x13a0`, `@P0 BRA.U !UP0, 0x80`), false for
/// other opcodes or a target that is not an immediate.
bool sass_branch_target(const SassInstruction& in, unsigned& target);

/// The function's blocks, dominators, post-dominators and natural loops.
ControlFlow control_flow(const SassFunction& f);

}  // namespace grader
