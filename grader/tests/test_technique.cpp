// SPDX-License-Identifier: MIT
// The mechanism check (grader/supervisor/technique.hpp) on short SASS listings written for these tests,
// in the format `cuobjdump -sass` prints. tools/tests/test_technique_rules.py checks the
// rules on the real compiled starters, references and known-bad variants where a CUDA
// toolkit with cuobjdump is installed.
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "grader/supervisor/technique.hpp"
#include "grader/tests/sass_listing.hpp"

namespace {

using grader::Trait;
using sass_listing::listing;
using sass_listing::with_end;

std::vector<Trait> traits(const std::vector<std::string>& code, const std::string& arch = "sm_90") {
    const auto f = grader::parse_sass(listing("_Z1kv", code, arch));
    REQUIRE(f.size() == 1);
    return grader::function_traits(f[0]);
}

bool has(const std::vector<Trait>& t, Trait x) { return std::find(t.begin(), t.end(), x) != t.end(); }

// What a file's kernels lack under `rule_text`'s first rule ("" when it holds).
std::string check(const std::string& rule_text, const std::string& sass) {
    const auto rules = grader::parse_technique_rules(rule_text, "rules");
    REQUIRE(!rules.empty());
    return grader::check_technique_rule(rules[0], grader::parse_sass(sass));
}

}  // namespace

TEST_CASE("cuobjdump's listing: architectures, functions, guards, opcodes and operands") {
    const std::string text = R"SASS(
Fatbin elf code:
================
arch = sm_75
code version = [1,7]
host = linux
compile_size = 64bit

	code for sm_75
		Function : _ZN12_GLOBAL__N_16kernelEPKfPf
	.headerflags	@"EF_CUDA_SM75 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM75)"
        /*0000*/                   IMAD.MOV.U32 R1, RZ, RZ, c[0x0][0x28] ;   /* 0x00000a00ff017624 */
                                                                             /* 0x000fc400078e00ff */
        /*0010*/              @!P0 LDG.E.128.CONSTANT.SYS R4, [R2+0x10] ;   /* 0x0000100002048981 */
                                                                             /* 0x000ea8000c1eed00 */
        /*0020*/                   BRA 0x20 ;                                /* 0xfffffff000007947 */
                                                                             /* 0x000fc0000383ffff */

Fatbin elf code:
================
arch = sm_90
	code for sm_90
		Function : _Z5otherv
        /*0000*/                   LDG.E R2, desc[UR4][R2.64] ;              /* 0x0000000402027981 */
                                                                             /* 0x000ea8000c1e1900 */
        /*0010*/                   EXIT ;                                    /* 0x000000000000794d */
)SASS";
    const auto f = grader::parse_sass(text);
    REQUIRE(f.size() == 2);
    CHECK(f[0].name == "_ZN12_GLOBAL__N_16kernelEPKfPf");
    CHECK(f[0].arch == "sm_75");
    REQUIRE(f[0].code.size() == 3);
    CHECK(f[0].code[0].opcode == "IMAD.MOV.U32");
    CHECK(f[0].code[0].operands == std::vector<std::string>{"R1", "RZ", "RZ", "c[0x0][0x28]"});
    CHECK(f[0].code[1].address == 0x10);
    CHECK(f[0].code[1].guard == "@!P0");
    CHECK(f[0].code[1].operands == std::vector<std::string>{"R4", "[R2+0x10]"});
    CHECK(f[0].code[2].operands == std::vector<std::string>{"0x20"});
    CHECK(f[1].arch == "sm_90");
    CHECK(f[1].code[0].operands == std::vector<std::string>{"R2", "desc[UR4][R2.64]"});
    CHECK(f[1].code.size() == 2);
    CHECK(grader::parse_sass("cuobjdump info    : File 'x.o' does not contain device code\n").empty());
}

TEST_CASE("__constant__ data: an operand from bank 3, whether loaded or used directly") {
    CHECK(has(traits(with_end({"LDC R19, c[0x3][R15+0x4]"})), Trait::constant_bank));                  // a run-time index
    CHECK(has(traits(with_end({"FFMA R0, R2, c[0x3][0x10], R0"})), Trait::constant_bank));             // a constant one
    CHECK(has(traits(with_end({"LDCU UR6, c[0x3][0x8]"})), Trait::constant_bank));                      // sm_120's uniform load
    CHECK_FALSE(has(traits(with_end({"LDC R1, c[0x0][0x28]", "ULDC UR4, c[0x0][0x174]"})), Trait::constant_bank));  // parameters
}

TEST_CASE("a load through the address of a __device__ variable (bank 4) is found, wherever the address goes") {
    // sm_90: the address loaded from bank 4, then offset; sm_75: bank 4 as an operand of the offset.
    CHECK_FALSE(has(traits(with_end({"LDC.64 R14, c[0x4][RZ]", "IMAD.WIDE R16, R17, 0x4, R14", "LDG.E.CONSTANT R2, desc[UR4][R16.64]"})),
                    Trait::no_device_array_load));
    CHECK_FALSE(has(traits(with_end({"IMAD.WIDE R16, R17, R14, c[0x4][0x0]", "LDG.E.CONSTANT.SYS R2, [R16]"})),
                    Trait::no_device_array_load));
    // Through a uniform register, and along a branch.
    CHECK_FALSE(has(traits(with_end({"ULDC.64 UR6, c[0x4][0x0]", "@P0 BRA @L3", "IMAD.WIDE R4, R3, 0x4, UR6", "LDG.E R2, [R4.64]"})),
                    Trait::no_device_array_load));
    // An atomic on a __device__ counter is not a load; a kernel parameter is not a __device__ variable.
    CHECK(has(traits(with_end({"LDC.64 R2, c[0x4][RZ]", "RED.E.ADD.STRONG.GPU [R2.64], R5"})), Trait::no_device_array_load));
    CHECK(has(traits(with_end({"IMAD.WIDE R4, R3, 0x4, c[0x0][0x160]", "LDG.E.CONSTANT.SYS R2, [R4]"})), Trait::no_device_array_load));
    // A loaded value is data, not the variable's address, though the register once held it.
    CHECK(has(traits(with_end({"LDC.64 R2, c[0x4][RZ]", "LDG.E.64 R2, [R10.64]", "LDG.E R6, [R2.64]"})), Trait::no_device_array_load));
}

TEST_CASE("a shared tile: a store, a barrier, loads after it; what comes after the first and the last barrier") {
    const auto tile = traits(with_end({"LDG.E R2, [R2.64]", "STS [R4], R2", "BAR.SYNC.DEFER_BLOCKING 0x0", "LDS R6, [R4+0x4]",
                                       "LDC R7, c[0x3][R8]", "FFMA R0, R6, R7, R0", "STG.E [R10.64], R0"}));
    CHECK(has(tile, Trait::shared_store));
    CHECK(has(tile, Trait::barrier));
    CHECK(has(tile, Trait::shared_load_after_barrier));
    CHECK(has(tile, Trait::no_global_load_after_last_barrier));
    CHECK_FALSE(has(tile, Trait::global_load_after_barrier));

    // 04.3's shape: the halo from global memory after the barrier.
    const auto halo = traits(with_end({"STS [R4], R2", "BAR.SYNC 0x0", "@P0 LDS.U R6, [R4+0x4]", "@!P0 LDG.E.CONSTANT.SYS R6, [R8]"}));
    CHECK(has(halo, Trait::global_load_after_barrier));
    CHECK_FALSE(has(halo, Trait::no_global_load_after_last_barrier));

    // A shared load before the barrier is not one after it; without a barrier nothing is "after".
    const auto before = traits(with_end({"STS [R4], R2", "LDS R6, [R4]", "BAR.SYNC 0x0", "LDG.E R6, [R8.64]"}));
    CHECK_FALSE(has(before, Trait::shared_load_after_barrier));
    const auto none = traits(with_end({"LDG.E R6, [R8.64]", "STG.E [R8.64], R6"}));
    CHECK_FALSE(has(none, Trait::barrier));
    CHECK_FALSE(has(none, Trait::no_global_load_after_last_barrier));
    CHECK_FALSE(has(none, Trait::shared_store));

    // Other ways in: cp.async (LDGSTS), a generic store or load the compiler could not place,
    // a cooperative-groups or __syncthreads_count barrier; BAR.ARV does not wait.
    CHECK(has(traits(with_end({"LDGSTS.E [R3], [R4.64]"})), Trait::shared_store));
    CHECK(has(traits(with_end({"ST.E [R4.64], R2"})), Trait::shared_store));
    CHECK(has(traits(with_end({"BAR.RED.POPC.DEFER_BLOCKING 0x0, P0"})), Trait::barrier));
    CHECK_FALSE(has(traits(with_end({"BAR.ARV 0x1, 0x40"})), Trait::barrier));
    CHECK(has(traits(with_end({"BAR.SYNC 0x0", "LD.E R6, [R8.64]"})), Trait::no_global_load_after_last_barrier));  // maybe shared
    CHECK(has(traits(with_end({"BAR.SYNC 0x0", "LD.E R6, [R8.64]"})), Trait::global_load_after_barrier));          // maybe global
}

TEST_CASE("loops: a backward branch and what lies between; a tile loop; a barrier in a loop") {
    // The tree of step 5: one level per trip, a barrier in each.
    const auto tree = traits(with_end({"STS [R4], R2", "BAR.SYNC 0x0", "@!P0 LDS R6, [R4+R5]", "@!P0 STS [R4], R6",
                                       "BAR.SYNC 0x0", "ISETP.GT.U32.AND P1, PT, R5, 0x20, PT", "@P1 BRA @L2"}));
    CHECK_FALSE(has(tree, Trait::no_barrier_in_loop));
    CHECK(has(tree, Trait::tile_loop));
    // Written out: no loop. A loop that only loads (grid-stride) is no barrier in a loop.
    const auto flat = traits(with_end({"LDG.E R2, [R8.64]", "FADD R0, R0, R2", "@P0 BRA @L0", "STS [R4], R0", "BAR.SYNC 0x0",
                                       "LDS R6, [R4+0x200]", "STS [R4], R6", "BAR.SYNC 0x0"}));
    CHECK(has(flat, Trait::no_barrier_in_loop));
    CHECK_FALSE(has(flat, Trait::tile_loop));
    // The branch to itself that pads a function is not a loop around the barrier before it.
    CHECK(has(traits({"BAR.SYNC 0x0", "EXIT", "BRA @L2", "NOP"}), Trait::no_barrier_in_loop));
    // 08.1: a tile loop needs the shared load inside the loop with the barrier.
    const auto naive = traits(with_end({"LDG.E.128 R4, [R2.64]", "FFMA R0, R4, R4, R0", "@P0 BRA @L0", "STS [R8], R0",
                                        "BAR.SYNC 0x0", "LDS R9, [R8]"}));
    CHECK_FALSE(has(naive, Trait::tile_loop));
}

TEST_CASE("a shared atomic at a lane-indexed address: copies per lane, not per warp") {
    // The reference of 05.3 (sm_90): lane = tid & 31 merged into bin * 32, times 4, plus the base.
    const std::vector<std::string> per_lane = {
        "S2R R0, SR_TID.X", "S2R R5, SR_CgaCtaId", "MOV R15, 0x400", "LEA R15, R5, R15, 0x18",
        "LOP3.LUT R14, R0, 0x1f, RZ, 0xc0, !PT", "LDG.E.128.CONSTANT R4, desc[UR8][R2.64]", "IMAD.SHL.U32 R19, R4, 0x20, RZ",
        "LOP3.LUT R20, R14, 0x1fe0, R19, 0xf8, !PT", "IMAD R20, R20, 0x4, R15", "ATOMS.POPC.INC.32 RZ, [R20+URZ]"};
    CHECK(has(traits(with_end(per_lane)), Trait::lane_indexed_shared_atomic));
    // The lane from %laneid, the copies laid out one after another (copy * 257 + bin).
    CHECK(has(traits(with_end({"S2R R0, SR_LANEID", "IMAD R1, R0, 0x404, RZ", "LDG.E.U8 R2, [R6.64]", "LEA R3, R2, R1, 0x2",
                               "ATOMS.ADD RZ, [R3], R7"})),
              Trait::lane_indexed_shared_atomic));
    // One copy per warp: tid >> 5 keeps no lane bit.
    CHECK_FALSE(has(traits(with_end({"S2R R0, SR_TID.X", "SHF.R.U32.HI R1, RZ, 0x5, R0", "IMAD.SHL.U32 R1, R1, 0x400, RZ",
                                     "LDG.E.U8 R2, [R6.64]", "LEA R3, R2, R1, 0x2", "ATOMS.POPC.INC.32 RZ, [R3]"})),
                    Trait::lane_indexed_shared_atomic));
    // One copy per block: the address is the byte read, whatever register held the thread index before.
    CHECK_FALSE(has(traits(with_end({"S2R R0, SR_TID.X", "IMAD.WIDE.U32 R2, R0, 0x10, R8", "LDG.E.128 R4, [R2.64]",
                                     "LOP3.LUT R0, R4, 0xff, RZ, 0xc0, !PT", "ATOMS.POPC.INC.32 RZ, [R0.X4+UR4]"})),
                    Trait::lane_indexed_shared_atomic));
    // Masked to the warp's bits: (tid & 0x3e0) keeps none of the lane's.
    CHECK_FALSE(has(traits(with_end({"S2R R0, SR_TID.X", "LOP3.LUT R1, R0, 0x3e0, RZ, 0xc0, !PT", "ATOMS.ADD RZ, [R1], R2"})),
                    Trait::lane_indexed_shared_atomic));
    // A global atomic at a lane-dependent address is not a copy of the bins in shared memory.
    CHECK_FALSE(has(traits(with_end({"S2R R0, SR_TID.X", "IMAD.WIDE R2, R0, 0x4, R8", "RED.E.ADD.STRONG.GPU [R2.64], R5"})),
                    Trait::lane_indexed_shared_atomic));
}

TEST_CASE("the lane analysis follows control flow: joins, loops, predicated writes") {
    // Tainted on one path only: after the join it may be, so it counts.
    CHECK(has(traits(with_end({"S2R R0, SR_TID.X", "MOV R1, RZ", "@P0 BRA @L4", "LOP3.LUT R1, R0, 0x1f, RZ, 0xc0, !PT",
                               "ATOMS.ADD RZ, [R1], R2"})),
              Trait::lane_indexed_shared_atomic));
    // A predicated overwrite may not happen: the lane index survives it.
    CHECK(has(traits(with_end({"S2R R1, SR_TID.X", "@P0 MOV R1, RZ", "ATOMS.ADD RZ, [R1], R2"})), Trait::lane_indexed_shared_atomic));
    // An unconditional overwrite removes it.
    CHECK_FALSE(has(traits(with_end({"S2R R1, SR_TID.X", "MOV R1, RZ", "ATOMS.ADD RZ, [R1], R2"})), Trait::lane_indexed_shared_atomic));
    // Set later in the loop's body, used at its top on the next trip.
    CHECK(has(traits(with_end({"S2R R0, SR_TID.X", "MOV R1, RZ", "ATOMS.ADD RZ, [R1], R2", "IADD3 R1, R0, 0x100, RZ", "@P0 BRA @L2"})),
              Trait::lane_indexed_shared_atomic));
    // After the function's last instruction nothing flows back.
    CHECK_FALSE(has(traits({"MOV R1, RZ", "ATOMS.ADD RZ, [R1], R2", "EXIT", "S2R R1, SR_TID.X", "BRA @L4"}),
                    Trait::lane_indexed_shared_atomic));
}

TEST_CASE("a merged count: a shared add of an amount not known at compile time") {
    // sm_75's atomicAdd(&s[v], 1u): an ATOMS.ADD of a register set to 1 once, before the loop.
    CHECK_FALSE(has(traits(with_end({"IMAD.MOV.U32 R16, RZ, RZ, 0x1", "LDG.E R2, [R4.64]", "LOP3.LUT R3, R2, 0xff, RZ, 0xc0, !PT",
                                     "ATOMS.ADD RZ, [R3.X4], R16", "@P0 BRA @L1"})),
                    Trait::merged_shared_add));
    // sm_80 on: the increment is its own instruction, with no amount at all.
    CHECK_FALSE(has(traits(with_end({"ATOMS.POPC.INC.32 RZ, [R20+URZ]"})), Trait::merged_shared_add));
    // A run's length, chosen by a comparison of loaded bytes; a match's __popc.
    CHECK(has(traits(with_end({"MOV R5, 0x1", "LDG.E R2, [R4.64]", "ISETP.NE.AND P0, PT, R2, R3, PT", "SEL R5, R5, 0x2, P0",
                               "ATOMS.ADD RZ, [R3.X4], R5"})),
              Trait::merged_shared_add));
    CHECK(has(traits(with_end({"MATCH.ANY R7, R6", "POPC R7, R7", "ATOMS.ADD RZ, [R6.X4], R7"})), Trait::merged_shared_add));
    // Two constants meeting at a join are no longer one known constant.
    CHECK(has(traits(with_end({"MOV R5, 0x1", "@P0 BRA @L3", "MOV R5, 0x2", "ATOMS.ADD RZ, [R3], R5"})), Trait::merged_shared_add));
    // A predicated move may not happen: 1 or 2.
    CHECK(has(traits(with_end({"MOV R5, 0x1", "@P0 MOV R5, 0x2", "ATOMS.ADD RZ, [R3], R5"})), Trait::merged_shared_add));
    CHECK_FALSE(has(traits(with_end({"MOV R5, 0x1", "@P0 MOV R5, 0x1", "ATOMS.ADD RZ, [R3], R5"})), Trait::merged_shared_add));
    // A global atomic with a count is 05.1's merge of the bins, not a merged update.
    CHECK_FALSE(has(traits(with_end({"LDS R5, [R3]", "RED.E.ADD.STRONG.GPU [R8.64], R5"})), Trait::merged_shared_add));
}

TEST_CASE("a block reached before anything is known in it is still read") {
    // The thread index first appears behind a branch: the block must be analysed though the
    // state that reaches it holds no lane bit yet.
    CHECK(has(traits(with_end({"@P0 BRA @L1", "S2R R0, SR_TID.X", "ATOMS.ADD RZ, [R0], R2"})), Trait::lane_indexed_shared_atomic));
    CHECK(has(traits(with_end({"BRA @L1", "LDC.64 R2, c[0x4][RZ]", "LDG.E R4, [R2.64]"})), Trait::no_device_array_load) == false);
}

TEST_CASE("a warp exchange is a SHFL or a REDUX") {
    CHECK(has(traits(with_end({"SHFL.DOWN PT, R3, R2, 0x10, 0x1f"})), Trait::warp_exchange));
    CHECK(has(traits(with_end({"SHFL.BFLY PT, R3, R2, 0x1, 0x1f"})), Trait::warp_exchange));
    CHECK(has(traits(with_end({"REDUX.SUM.S32 UR4, R2"})), Trait::warp_exchange));
    CHECK_FALSE(has(traits(with_end({"VOTE.ANY R3, PT, P0", "LDS R2, [R3]"})), Trait::warp_exchange));
}

TEST_CASE("__match_any_sync is a MATCH.ANY") {
    CHECK(has(traits(with_end({"MATCH.ANY R3, R2"})), Trait::match_any));
    CHECK_FALSE(has(traits(with_end({"VOTE.ANY R3, PT, P0"})), Trait::match_any));
}

TEST_CASE("the data path: the math of a loop fed by shared loads of that loop, or by global ones") {
    // 04.2's sums: a shared load and the FFMA it feeds, in one loop.
    const auto tiled = traits(with_end({"LDG.E R2, [R8.64]", "STS [R4], R2", "BAR.SYNC 0x0", "LDS R6, [R5]",
                                        "LDC R7, c[0x3][R9]", "FFMA R0, R6, R7, R0", "@P0 BRA @L3"}));
    CHECK(has(tiled, Trait::shared_fed_math));
    CHECK(has(tiled, Trait::no_global_fed_math));
    // A decoy tile: the sums' loop takes its pixels from global loads; the tile is read once,
    // after the loop.
    const auto decoy = traits(with_end({"LDG.E R6, [R8.64]", "FFMA R0, R6, R7, R0", "@P0 BRA @L0", "STS [R4], R2",
                                        "BAR.SYNC 0x0", "LDS R3, [R4]", "FFMA R0, R3, RZ, R0"}));
    CHECK_FALSE(has(decoy, Trait::no_global_fed_math));
    CHECK_FALSE(has(decoy, Trait::shared_fed_math));  // math lies in a loop: the token after it is no work
    // With no math in any loop (a filter width fixed at compile time, unrolled completely),
    // the math outside loops is the work, and a load outside loops feeds it.
    const auto unrolled = traits(with_end({"LDG.E R2, [R8.64]", "STS [R4], R2", "@P0 BRA @L0", "BAR.SYNC 0x0",
                                           "LDS R6, [R5]", "FFMA R0, R6, c[0x3][0x0], RZ", "LDS R7, [R5+0x4]",
                                           "FFMA R0, R7, c[0x3][0x4], R0"}));
    CHECK(has(unrolled, Trait::shared_fed_math));
    CHECK(has(unrolled, Trait::no_global_fed_math));
    // A value loaded before the loop (08.1's own body) is no global operand of the loop.
    const auto own = traits(with_end({"LDG.E.128 R8, [R2.64]", "LDS.128 R4, [R12]", "FADD R0, R4, -R8", "@P0 BRA @L1"}));
    CHECK(has(own, Trait::no_global_fed_math));
    CHECK(has(own, Trait::shared_fed_math));
    // Copies are followed: a MOV, a SEL between a shared and a global value (04.3's halo).
    const auto picked = traits(with_end({"LDS R2, [R4]", "@P1 LDG.E R3, [R8.64]", "SEL R5, R2, R3, P1", "MOV R6, R5",
                                         "FFMA R0, R6, R7, R0", "@P0 BRA @L0"}));
    CHECK(has(picked, Trait::shared_fed_math));
    CHECK_FALSE(has(picked, Trait::no_global_fed_math));
    // A shared load that only gives an address (a tile of row offsets) feeds no math.
    const auto offsets = traits(with_end({"LDS R2, [R4]", "LDG.E R6, [R2.64]", "FFMA R0, R6, R7, R0", "@P0 BRA @L0"}));
    CHECK_FALSE(has(offsets, Trait::shared_fed_math));
    CHECK_FALSE(has(offsets, Trait::no_global_fed_math));
}

TEST_CASE("a test of the block size alone, from bank 0 or SR_NTID, on every architecture's layout") {
    // sm_75–sm_90: blockDim.x is c[0x0][0x0] (sm_90's LDC prints it "c[0x0][RZ]").
    CHECK_FALSE(has(traits(with_end({"ISETP.GE.U32.AND P0, PT, c[0x0][0x0], 0x200, PT", "@!P0 BRA @L2", "BAR.SYNC 0x0"}),
                           "sm_80"), Trait::no_block_size_test));
    CHECK_FALSE(has(traits(with_end({"LDC R0, c[0x0][RZ]", "ISETP.GE.U32.AND P0, PT, R0, 0x400, PT", "@P0 BAR.SYNC 0x0"})),
                    Trait::no_block_size_test));
    // Through arithmetic on it and immediates alone: still the block size's.
    CHECK_FALSE(has(traits(with_end({"S2R R0, SR_NTID.X", "SHF.R.U32.HI R1, RZ, 0x1, R0", "ISETP.GT.U32.AND P0, PT, R1, 0x20, PT"})),
                    Trait::no_block_size_test));
    // sm_120 keeps blockDim at 0x360; 0x0 there is something else.
    CHECK_FALSE(has(traits(with_end({"LDC R2, c[0x0][0x360]", "ISETP.GE.U32.AND P0, PT, R2, 0x80, PT"}), "sm_120"),
                    Trait::no_block_size_test));
    CHECK(has(traits(with_end({"LDC R2, c[0x0][0x0]", "ISETP.GE.U32.AND P0, PT, R2, 0x80, PT"}), "sm_120"),
              Trait::no_block_size_test));
    // The thread's rank (threadIdx with blockDim) or a bound against a parameter is no test of it.
    CHECK(has(traits(with_end({"S2R R3, SR_TID.Y", "S2R R4, SR_TID.X", "IMAD R5, R3, c[0x0][0x0], R4",
                               "ISETP.GE.U32.AND P0, PT, R5, 0x40, PT"}), "sm_80"), Trait::no_block_size_test));
    CHECK(has(traits(with_end({"ISETP.GE.U32.AND P0, PT, c[0x0][0x0], c[0x0][0x380], PT"}), "sm_80"),
              Trait::no_block_size_test));
}

TEST_CASE("the input loop's shared atomics: most of them aggregated, or a match in the loop") {
    // A copy per lane: the address keeps the lane bits.
    const auto lanes = traits(with_end({"S2R R0, SR_LANEID", "LDG.E.U8 R2, [R8.64]", "LEA R3, R2, R0, 0x5",
                                        "ATOMS.POPC.INC.32 RZ, [R3.X4]", "@P0 BRA @L1"}));
    CHECK(has(lanes, Trait::aggregated_input_loop));
    // The same copies in a branch the loop that runs does not take: its plain atomics fail.
    const auto dead = traits(with_end({"S2R R0, SR_LANEID", "@P1 BRA @L7", "LDG.E.U8 R2, [R8.64]", "SHF.L.U32 R3, R2, 0x5, RZ",
                                       "ATOMS.POPC.INC.32 RZ, [R3]", "@P0 BRA @L2", "EXIT", "LDG.E.U8 R2, [R8.64]",
                                       "LEA R3, R2, R0, 0x5", "ATOMS.POPC.INC.32 RZ, [R3.X4]", "@P0 BRA @L7"}));
    CHECK(has(dead, Trait::lane_indexed_shared_atomic));
    CHECK_FALSE(has(dead, Trait::aggregated_input_loop));
    // __match_any_sync in the loop: its leader's add is the aggregation.
    CHECK(has(traits(with_end({"LDG.E.U8 R2, [R8.64]", "MATCH.ANY R4, R2", "ATOMS.POPC.INC.32 RZ, [R2]", "@P0 BRA @L0"})),
              Trait::aggregated_input_loop));
    // A loop of plain atomics that reads no global memory (adding copies up) is no input loop.
    CHECK(has(traits(with_end({"LDS R2, [R4]", "ATOMS.POPC.INC.32 RZ, [R2]", "@P0 BRA @L0"})), Trait::aggregated_input_loop));
}

TEST_CASE("a technique file: sections name the exercise and file; kernel lines are alternatives") {
    const auto rules = grader::parse_technique_rules(R"(# comment
[05.3 3_skew_resistant.cu]
theory Skewed inputs
kernel lane-indexed-shared-atomic
kernel match-any
hint one
hint two

[06.6 step6.cu]
every-kernel no-barrier-in-loop
)",
                                                     "t.txt");
    REQUIRE(rules.size() == 2);
    CHECK(rules[0].exercise == "05.3");
    CHECK(rules[0].file == "3_skew_resistant.cu");
    CHECK(rules[0].section == "Skewed inputs");
    CHECK(rules[0].hint == "one two");
    REQUIRE(rules[0].kernel.size() == 2);
    CHECK(rules[0].kernel[1] == std::vector<Trait>{Trait::match_any});
    CHECK(rules[1].every_kernel == std::vector<Trait>{Trait::no_barrier_in_loop});
    CHECK(rules[1].kernel.empty());
    CHECK_THROWS_AS(grader::parse_technique_rules("kernel barrier\n", "t"), std::invalid_argument);                 // no section
    CHECK_THROWS_AS(grader::parse_technique_rules("[04.1 a.cu]\nkernel tiles\n", "t"), std::invalid_argument);      // no such trait
    CHECK_THROWS_AS(grader::parse_technique_rules("[04.1 a.cu]\nneeds barrier\n", "t"), std::invalid_argument);     // no such keyword
    CHECK_THROWS_AS(grader::parse_technique_rules("[04.1 a.cu]\ntheory X\n", "t"), std::invalid_argument);          // asks nothing
    CHECK_THROWS_AS(grader::parse_technique_rules("[04.1]\nkernel barrier\n", "t"), std::invalid_argument);         // no file
    CHECK_THROWS_AS(grader::parse_technique_rules("[04.1 a.cu\nkernel barrier\n", "t"), std::invalid_argument);     // unclosed
    CHECK(grader::parse_technique_rules("", "t").empty());
    grader::Trait t;
    for (const char* name : {"constant-bank", "no-device-array-load", "shared-store", "barrier", "shared-load-after-barrier",
                             "global-load-after-barrier", "no-global-load-after-last-barrier", "tile-loop", "no-barrier-in-loop",
                             "lane-indexed-shared-atomic", "merged-shared-add", "match-any"}) {
        REQUIRE(grader::trait_from_name(name, t));
        CHECK(std::string(grader::trait_name(t)) == name);
    }
}

TEST_CASE("a rule's verdict in words: the closest kernel's gaps, the alternatives, every kernel's") {
    const std::string tile = "[04.2 2_halo_tile.cu]\nkernel shared-store barrier shared-load-after-barrier no-global-load-after-last-barrier\n";
    const std::string untiled = listing("_ZN12_GLOBAL__N_119conv_untiled_kernelEPKfPfiii", with_end({"LDG.E R2, [R4.64]", "STG.E [R6.64], R2"}));
    // Without a barrier, "nothing after the barrier" is left unsaid.
    CHECK(check(tile, untiled) == "in 2_halo_tile.cu, kernel conv_untiled_kernel stores nothing to shared memory and has no "
                                  "block-wide barrier (__syncthreads)");
    const std::string tiled = listing("_Z5tiledv", with_end({"STS [R4], R2", "BAR.SYNC 0x0", "LDS R6, [R4]"}));
    CHECK(check(tile, tiled).empty());
    CHECK(check(tile, untiled + tiled).empty());  // one kernel with it all is enough
    const std::string token = listing("_Z5tokenv", with_end({"STS [R4], R2", "BAR.SYNC 0x0", "LDS R6, [R4]", "LDG.E R2, [R4.64]"}));
    CHECK(check(tile, untiled + token) ==
          "in 2_halo_tile.cu, no kernel has it all: kernel token, the closest, still loads from global memory after its last barrier");
    CHECK(check(tile, "") == "2_halo_tile.cu holds no kernel");

    const std::string skew = "[05.3 s.cu]\nkernel lane-indexed-shared-atomic\nkernel match-any\nkernel merged-shared-add\n";
    CHECK(check(skew, untiled) ==
          "in s.cu, no kernel has a shared-memory atomic at an address that depends on the lane, calls __match_any_sync or "
          "adds a computed count to a shared word in one atomic");
    CHECK(check(skew, listing("_Z1mv", with_end({"MATCH.ANY R3, R2"}))).empty());

    const std::string step6 = "[06.6 step6.cu]\nevery-kernel no-barrier-in-loop\n";
    const std::vector<std::string> loop = with_end({"BAR.SYNC 0x0", "@P0 BRA @L0"});
    // The same kernel in two architectures is named once; two kernels are named together.
    const std::string one = listing("_Z1fILj256EEvv", loop, "sm_75") + listing("_Z1fILj256EEvv", loop, "sm_90");
    CHECK(check(step6, one) == "in step6.cu, kernel f<256u> waits at a block-wide barrier inside a loop");
    CHECK(check(step6, one + listing("_Z1fILj512EEvv", loop)) ==
          "in step6.cu, kernels f<256u> and f<512u>: each waits at a block-wide barrier inside a loop");
    CHECK(check(step6, listing("_Z1gv", with_end({"BAR.SYNC 0x0"}))).empty());
}

TEST_CASE("kernel names as their author wrote them") {
    CHECK(grader::kernel_display_name("_ZN53_GLOBAL__N__49d2fe43_20_1_constant_filter_cu_ecaf206618conv_global_kernelEPKfPfiii") ==
          "conv_global_kernel");
    CHECK(grader::kernel_display_name(
              "_ZN60_GLOBAL__N__f4302f20_27_step6_complete_unrolling_cu_d819cc4c19reduce_step6_kernelILj256EfEEvPKT0_mPS1_") ==
          "reduce_step6_kernel<256u, float>");
    CHECK(grader::kernel_display_name("my_c_kernel") == "my_c_kernel");
}

TEST_CASE("a finding turns a PASS into FAIL [technique]; other verdicts and exercises stay") {
    CHECK(grader::to_string(grader::Reason::technique) == std::string("technique"));
    CHECK(grader::reason_from_string("technique") == grader::Reason::technique);
    grader::TechniqueReport report;
    report.exercises = {"04.1", "04.2"};
    report.findings.push_back({"04.1", "in 1_constant_filter.cu, kernel k reads nothing from __constant__ memory", "declare it",
                               "read lessons/04-convolution/theory.md, section \"Constant memory\""});
    grader::Verdict v;
    v.exercise = "04.1 filter in constant memory", v.verdict = "PASS", v.message = "812 GFLOP/s", v.note = "overlaps";
    CHECK(grader::apply_technique(report, v));
    CHECK(v.verdict == "FAIL");
    CHECK(v.reason == grader::Reason::technique);
    CHECK(v.message.find("reads nothing from __constant__ memory") != std::string::npos);
    CHECK(v.message.find("812 GFLOP/s") != std::string::npos);
    CHECK(v.hint == "declare it");
    CHECK(v.theory == "read lessons/04-convolution/theory.md, section \"Constant memory\"");
    CHECK(v.note.empty());
    const std::string lines = grader::verdict_lines(v);
    CHECK(lines.find("[technique]") != std::string::npos);
    CHECK(lines.find("section \"Constant memory\"") != std::string::npos);

    grader::Verdict slow;
    slow.exercise = "04.1 filter in constant memory", slow.verdict = "FAIL", slow.reason = grader::Reason::slow;
    CHECK_FALSE(grader::apply_technique(report, slow));
    CHECK(slow.reason == grader::Reason::slow);
    grader::Verdict other;
    other.exercise = "04.2 halo tiles in shared memory", other.verdict = "PASS";
    CHECK_FALSE(grader::apply_technique(report, other));
    grader::Verdict longer;  // "04.1" names 04.1, not 04.10
    longer.exercise = "04.10 something", longer.verdict = "PASS";
    CHECK_FALSE(grader::apply_technique(report, longer));
    report.unchecked = {"04.2"};
    CHECK(report.is_unchecked("04.2 halo tiles in shared memory"));
    CHECK_FALSE(report.is_unchecked("04.1 filter in constant memory"));
}

namespace {

struct TempDir {
    std::string path;
    TempDir() {
        char t[] = "/tmp/technique-test-XXXXXX";
        path = mkdtemp(t);
    }
    ~TempDir() { std::system(("rm -rf '" + path + "'").c_str()); }
    std::string put(const std::string& name, const std::string& text, bool exec = false) const {
        const std::string p = path + "/" + name;
        std::ofstream(p) << text;
        if (exec) chmod(p.c_str(), 0755);
        return p;
    }
};

}  // namespace

TEST_CASE("the student's object: Meson names it after the source's path") {
    TempDir d;
    mkdir((d.path + "/o").c_str(), 0755);
    d.put("o/_work_main_solutions_04-convolution_1_constant_filter.cu.o", "");
    d.put("o/_work_main_solutions_04-convolution_2_halo_tile.cu.o", "");
    d.put("o/lessons_04-convolution_bad_constant_ldg.cu.o", "");
    d.put("o/notes.txt", "");
    const std::string o = d.path + "/o";
    CHECK(grader::find_student_object(o, "/work/main/solutions/04-convolution/1_constant_filter.cu") ==
          o + "/_work_main_solutions_04-convolution_1_constant_filter.cu.o");
    CHECK(grader::find_student_object(o, "/work/main/lessons/04-convolution/bad/constant_ldg.cu") ==
          o + "/lessons_04-convolution_bad_constant_ldg.cu.o");
    // Another path to the same file name: the one object of that name.
    CHECK(grader::find_student_object(o, "/elsewhere/2_halo_tile.cu") == o + "/_work_main_solutions_04-convolution_2_halo_tile.cu.o");
    CHECK(grader::find_student_object(o, "/work/main/solutions/04-convolution/3_cache_halo.cu").empty());
    CHECK(grader::find_student_object(d.path + "/none", "/a/b.cu").empty());
    // "x_1_constant_filter.cu" is not "1_constant_filter.cu".
    d.put("o/_work_main_solutions_04-convolution_x_1_constant_filter.cu.o", "");
    CHECK(grader::find_student_object(o, "/work/main/solutions/04-convolution/1_constant_filter.cu") ==
          o + "/_work_main_solutions_04-convolution_1_constant_filter.cu.o");
}

TEST_CASE("the whole check, with a stand-in for cuobjdump: findings, a missing object, no tool") {
    TempDir d;
    mkdir((d.path + "/objs").c_str(), 0755);
    d.put("objs/_src_1_a.cu.o", listing("_Z7starterv", with_end({"LDG.E R2, [R4.64]"})));
    d.put("objs/_src_2_b.cu.o", listing("_Z9referencev", with_end({"LDC R2, c[0x3][R4]"})));
    // The stand-in prints the object itself: the objects above hold listings.
    const std::string tool = d.put("cuobjdump", "#!/bin/sh\n[ \"$1\" = -sass ] && exec cat \"$2\"\nexit 1\n", true);
    const std::string rules = d.put("technique.txt", "[01.1 1_a.cu]\ntheory Sec\nkernel constant-bank\nhint h\n"
                                                     "[01.2 2_b.cu]\nkernel constant-bank\n[01.3 3_c.cu]\nkernel barrier\n");
    grader::TechniqueRequest q;
    q.rules = rules, q.theory = "lessons/01/theory.md", q.objects_dir = d.path + "/objs", q.cuobjdump = tool;
    q.files = {{"1_a.cu", "/src/1_a.cu"}, {"2_b.cu", "/src/2_b.cu"}, {"3_c.cu", "/src/3_c.cu"}};
    const grader::TechniqueReport r = grader::check_techniques(q);
    CHECK(r.exercises == std::vector<std::string>{"01.1", "01.2", "01.3"});
    REQUIRE(r.findings.size() == 1);
    CHECK(r.findings[0].exercise == "01.1");
    CHECK(r.findings[0].message == "in 1_a.cu, kernel starter reads nothing from __constant__ memory (no operand from constant bank 3)");
    CHECK(r.findings[0].hint == "h");
    CHECK(r.findings[0].theory == "read lessons/01/theory.md, section \"Sec\"");
    CHECK(r.unchecked == std::vector<std::string>{"01.3"});  // no object of 3_c.cu
    CHECK(r.not_checked.find("01.3: no compiled object of 3_c.cu") == 0);

    // A known-bad variant standing for 2_b.cu (grade's --replaces: its pair comes last) is
    // what is read for 2_b.cu; the objects are read at once, each on a thread of its own.
    d.put("objs/_bad_b.cu.o", listing("_Z3badv", with_end({"LDG.E R2, [R4.64]"})));
    q.files.emplace_back("2_b.cu", "/bad/b.cu");
    const grader::TechniqueReport replaced = grader::check_techniques(q);
    REQUIRE(replaced.findings.size() == 2);
    CHECK(replaced.findings[1].exercise == "01.2");
    CHECK(replaced.findings[1].message.find("kernel bad reads nothing from __constant__") != std::string::npos);
    CHECK(replaced.unchecked == std::vector<std::string>{"01.3"});
    q.files.pop_back();

    q.cuobjdump = "";
    const grader::TechniqueReport none = grader::check_techniques(q);
    CHECK(none.unchecked == none.exercises);
    CHECK(none.findings.empty());
    CHECK(none.not_checked.find("cuobjdump") != std::string::npos);

    q.cuobjdump = d.put("broken", "#!/bin/sh\nexit 3\n", true);
    CHECK(grader::check_techniques(q).unchecked.size() == 3);
    q.rules = d.path + "/absent.txt";
    CHECK_THROWS_AS(grader::check_techniques(q), std::runtime_error);
}

TEST_CASE("global loads by lane: a pixel's address differs between lanes, a weight's does not") {
    // 04.2's sums with the weights in global memory: the weight's address is the parameter
    // plus the loop's index, the same for every lane.
    const auto weights = traits(with_end({"S2R R1, SR_TID.X", "LDG.E R2, [R8.64]", "STS [R4], R2", "BAR.SYNC 0x0",
                                          "LDC.64 R10, c[0x0][0x388]", "IMAD.WIDE.U32 R10, R9, 0x4, R10",
                                          "LDG.E.CONSTANT R7, [R10.64]", "LDS R6, [R5]", "FFMA R0, R6, R7, R0",
                                          "@P0 BRA @L4"}));
    CHECK(has(weights, Trait::no_lane_global_fed_math));
    CHECK(has(weights, Trait::no_lane_global_load_after_last_barrier));
    CHECK_FALSE(has(weights, Trait::no_global_fed_math));  // 08.1's stricter question
    // The pixels read again from global memory after the barrier: their address holds the
    // thread index.
    const auto pixels = traits(with_end({"S2R R1, SR_TID.X", "STS [R4], R2", "BAR.SYNC 0x0", "IMAD.WIDE R10, R1, 0x4, R12",
                                         "LDG.E R7, [R10.64]", "LDS R6, [R5]", "FFMA R0, R6, R7, R0", "@P0 BRA @L3"}));
    CHECK_FALSE(has(pixels, Trait::no_lane_global_fed_math));
    CHECK_FALSE(has(pixels, Trait::no_lane_global_load_after_last_barrier));
}

TEST_CASE("a register written under a guard is read under the same guard as that write alone") {
    // R10 held a lane-dependent value; "@P2 LDC.64" replaces it only where P2 holds, and the
    // load under @P2 reads the new value alone: a weight, the same for every lane.
    const std::vector<std::string> code = {"S2R R10, SR_TID.X", "BAR.SYNC 0x0", "@P2 LDC.64 R10, c[0x0][0x388]",
                                           "@P2 LDG.E.CONSTANT R7, [R10.64]", "LDS R6, [R5]", "FFMA R0, R6, R7, R0"};
    CHECK(has(traits(with_end(code)), Trait::no_lane_global_load_after_last_barrier));
    // Under the other polarity, or once P2 is written again, the old value may be there.
    std::vector<std::string> other = code;
    other[3] = "@!P2 LDG.E.CONSTANT R7, [R10.64]";
    CHECK_FALSE(has(traits(with_end(other)), Trait::no_lane_global_load_after_last_barrier));
    std::vector<std::string> rewritten = code;
    rewritten.insert(rewritten.begin() + 3, "ISETP.NE.AND P2, PT, R3, RZ, PT");
    CHECK_FALSE(has(traits(with_end(rewritten)), Trait::no_lane_global_load_after_last_barrier));
}

TEST_CASE("tensor cores: HMMA is tensor math; fed from shared memory when its fragments come from LDSM or LDS") {
    // 09.2's loop: fragments loaded from the tiles (LDSM), multiplied by HMMA.
    const auto tiled = traits(with_end({"LDGSTS.E.BYPASS.128 [R3], [R4.64]", "BAR.SYNC 0x0", "LDSM.16.M88.4 R8, [R5]",
                                        "LDSM.16.MT88.4 R12, [R6]", "HMMA.16816.F32 R16, R8, R12, R16", "@P0 BRA @L1"}));
    CHECK(has(tiled, Trait::tensor_math));
    CHECK(has(tiled, Trait::shared_fed_tensor_math));
    CHECK(has(tiled, Trait::shared_fed_math));  // the older trait counts HMMA too
    // 09.1's loop: fragments straight from global memory.
    const auto global = traits(with_end({"LDG.E.128 R8, [R2.64]", "LDG.E.128 R12, [R4.64]",
                                         "HMMA.16816.F32 R16, R8, R12, R16", "@P0 BRA @L0"}));
    CHECK(has(global, Trait::tensor_math));
    CHECK_FALSE(has(global, Trait::shared_fed_tensor_math));
    // Shared tiles feeding FFMA beside an HMMA fed from global memory (09.2's starter's two
    // kernels in one): the tiles feed no tensor-core product.
    const auto mixed = traits(with_end({"LDS R6, [R5]", "FFMA R0, R6, R7, R0", "LDG.E.128 R8, [R2.64]",
                                        "HMMA.16816.F32 R16, R8, R12, R16", "@P0 BRA @L0"}));
    CHECK(has(mixed, Trait::shared_fed_math));
    CHECK_FALSE(has(mixed, Trait::shared_fed_tensor_math));
    // No tensor-core instruction at all: CUDA-core FFMA only.
    const auto fp32 = traits(with_end({"LDS R6, [R5]", "FFMA R0, R6, R7, R0", "@P0 BRA @L0"}));
    CHECK_FALSE(has(fp32, Trait::tensor_math));
    CHECK_FALSE(has(fp32, Trait::shared_fed_tensor_math));
    // wgmma reads shared memory through descriptors: fed from there by construction.
    const auto wgmma = traits(with_end({"HGMMA.64x128x16.F32 R24, gdesc[UR4], R24", "@P0 BRA @L0"}));
    CHECK(has(wgmma, Trait::tensor_math));
    CHECK(has(wgmma, Trait::shared_fed_tensor_math));
}

TEST_CASE("cp.async: LDGSTS is an async copy; a wait leaves a group in flight only with a count of 1 or more") {
    const std::vector<std::string> start = {"LDGSTS.E.BYPASS.128 [R3], [R4.64]", "LDGDEPBAR"};
    auto with_wait = [&](const std::string& wait) {
        auto code = start;
        code.push_back(wait);
        code.push_back("BAR.SYNC 0x0");
        code.push_back("@P0 BRA @L0");
        return traits(with_end(code));
    };
    const auto pipelined = with_wait("DEPBAR.LE SB0, 0x1");  // cp.async.wait_group 1
    CHECK(has(pipelined, Trait::async_copy));
    CHECK(has(pipelined, Trait::async_wait_in_flight));
    CHECK(has(with_wait("DEPBAR.LE SB0, 0x2"), Trait::async_wait_in_flight));
    const auto all = with_wait("DEPBAR.LE SB0, 0x0");  // cp.async.wait_group 0 / wait_all
    CHECK(has(all, Trait::async_copy));
    CHECK_FALSE(has(all, Trait::async_wait_in_flight));
    // Plain loads and stores through registers: no async copy, no wait.
    const auto sync = traits(with_end({"LDG.E.128 R4, [R2.64]", "STS.128 [R3], R4", "BAR.SYNC 0x0", "@P0 BRA @L0"}));
    CHECK_FALSE(has(sync, Trait::async_copy));
    CHECK_FALSE(has(sync, Trait::async_wait_in_flight));
    grader::Trait t;
    for (const char* name : {"tensor-math", "shared-fed-tensor-math", "async-copy", "async-wait-in-flight"}) {
        REQUIRE(grader::trait_from_name(name, t));
        CHECK(std::string(grader::trait_name(t)) == name);
    }
}

TEST_CASE("a rule 'from sm_80' reads only the code for sm_80 and newer") {
    const auto rules = grader::parse_technique_rules("[09.3 3_pipeline.cu]\nfrom sm_80\nkernel async-copy\n", "t.txt");
    REQUIRE(rules.size() == 1);
    CHECK(rules[0].from_sm == 80);
    CHECK(grader::parse_technique_rules("[09.3 a.cu]\nkernel async-copy\n", "t")[0].from_sm == 0);
    CHECK_THROWS_AS(grader::parse_technique_rules("[09.3 a.cu]\nfrom 80\nkernel async-copy\n", "t"), std::invalid_argument);
    CHECK_THROWS_AS(grader::parse_technique_rules("[09.3 a.cu]\nfrom sm_8x\nkernel async-copy\n", "t"), std::invalid_argument);
    const std::vector<std::string> sync = with_end({"LDG.E.128 R4, [R2.64]", "STS.128 [R3], R4"});
    const std::vector<std::string> async = with_end({"LDGSTS.E.BYPASS.128 [R3], [R4.64]"});
    const std::string rule = "[09.3 3_pipeline.cu]\nfrom sm_80\nkernel async-copy\n";
    // sm_75 has no cp.async: its code holds the rule whatever it shows; sm_80's must show it.
    CHECK(check(rule, sass_listing::listing("_Z1kv", sync, "sm_75")).empty());
    CHECK_FALSE(check(rule, sass_listing::listing("_Z1kv", sync, "sm_80")).empty());
    CHECK(check(rule, sass_listing::listing("_Z1kv", async, "sm_90")).empty());
    CHECK_FALSE(check(rule, sass_listing::listing("_Z1kv", sync, "sm_120")).empty());
    // Without 'from', sm_75's code is read like any other.
    CHECK_FALSE(check("[09.3 3_pipeline.cu]\nkernel async-copy\n", sass_listing::listing("_Z1kv", sync, "sm_75")).empty());
}
