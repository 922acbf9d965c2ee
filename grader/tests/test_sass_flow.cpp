// SPDX-License-Identifier: MIT
// The control flow of a SASS function (grader/supervisor/sass_flow.hpp) on short listings written for
// these tests: blocks, dominators, post-dominators, natural loops.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "grader/supervisor/sass_flow.hpp"
#include "grader/tests/sass_listing.hpp"

namespace {

grader::SassFunction function_of(const std::vector<std::string>& code) {
    const auto f = grader::parse_sass(sass_listing::listing("_Z1kv", code));
    REQUIRE(f.size() == 1);
    return f[0];
}

}  // namespace

TEST_CASE("blocks start at the entry, at branch targets and after jumps; edges follow the branches") {
    // 0: if (P0) skip the store; 2: store; 3: exit; 4: the padding branch to itself.
    const auto cf = grader::control_flow(function_of({"@P0 BRA @L2", "STS [R4], R2", "EXIT", "BRA @L3"}));
    REQUIRE(cf.blocks.size() == 4);
    CHECK(cf.block_of == std::vector<size_t>{0, 1, 2, 3});
    CHECK(cf.blocks[0].succ == std::vector<size_t>{2, 1});  // taken, then the fall-through
    CHECK(cf.blocks[1].succ == std::vector<size_t>{2});
    CHECK(cf.blocks[2].succ.empty());  // EXIT
    CHECK_FALSE(cf.reachable[3]);      // nothing jumps to the padding
    // "BRA.U !UP0, …" is conditional without a guard; an unguarded plain BRA is not.
    const auto u = grader::control_flow(function_of({"BRA.U !UP0, @L2", "NOP", "EXIT"}));
    CHECK(u.blocks[0].succ.size() == 2);
    const auto j = grader::control_flow(function_of({"BRA @L2", "NOP", "EXIT"}));
    CHECK(j.blocks[0].succ == std::vector<size_t>{2});
    CHECK_FALSE(j.reachable[1]);
}

TEST_CASE("dominators and post-dominators of a diamond") {
    // 0: branch; 1: else (falls to 3 via BRA); 2: then; 3: join, exit.
    const auto cf = grader::control_flow(function_of({"@P0 BRA @L3", "MOV R1, 0x1", "BRA @L4", "MOV R1, 0x2", "EXIT"}));
    REQUIRE(cf.blocks.size() == 4);
    const size_t entry = 0, left = 1, right = 2, join = 3;
    CHECK(cf.dominates(entry, join));
    CHECK_FALSE(cf.dominates(left, join));
    CHECK_FALSE(cf.dominates(right, join));
    CHECK(cf.post_dominates(join, entry));
    CHECK_FALSE(cf.post_dominates(left, entry));
    CHECK(cf.loops.empty());
}

TEST_CASE("natural loops: the back edge's blocks, not what lies between in the listing") {
    // 0: header; 1: body, back to 0 while P0; 2: after. The loop holds 0 and 1.
    const auto cf = grader::control_flow(function_of({"LDS R2, [R4]", "FFMA R0, R2, R2, R0", "@P0 BRA @L0", "EXIT"}));
    REQUIRE(cf.loops.size() == 1);
    CHECK(cf.in_loop(0));
    CHECK(cf.in_loop(1));
    CHECK_FALSE(cf.in_loop(3));
    CHECK(cf.share_loop(0, 1));
    // A block placed inside the listing's range but jumped over by the loop's every trip and
    // entered only from outside, a dead branch laid out in the middle, is no part of it.
    const auto odd = grader::control_flow(function_of({
        "@P1 BRA @L5",         // 0: into the odd block, from outside the loop
        "LDS R2, [R4]",        // 1: the loop's header
        "@P0 BRA @L4",         // 2
        "FADD R0, R0, R2",     // 3
        "@P2 BRA @L1",         // 4: back edge (while P2)
        "EXIT",                // 5: not in the loop... (the odd block begins here)
        "BRA @L6"}));
    REQUIRE(odd.loops.size() >= 1);
    CHECK(odd.in_loop(1));
    CHECK(odd.in_loop(3));
    CHECK_FALSE(odd.in_loop(5));
    // Two back edges to one header make one loop.
    const auto two = grader::control_flow(function_of({"NOP", "@P0 BRA @L0", "@P1 BRA @L0", "EXIT"}));
    CHECK(two.loops.size() == 1);
}
