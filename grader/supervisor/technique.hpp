// SPDX-License-Identifier: MIT
/// @file
/// @brief The mechanism check: where speed alone cannot tell whether an exercise's
///        technique was used (the step gains too little on some GPUs for any threshold),
///        `grade` reads the machine code (SASS) of the student's own compiled kernels for
///        the technique's traces — an operand from the constant bank, shared-memory stores,
///        a barrier and shared loads after it, no barrier inside a loop, a shared atomic at
///        an address that depends on the lane — and, along the data path (#32), where the
///        loop's math takes its operands from, whether the input loop aggregates, whether the
///        block size is tested at run time (sass_flow.hpp's control flow); and turns a PASS
///        without them into `FAIL [technique]`. Pure host code, unit-tested, except the few functions at the
///        end that run `cuobjdump` on the build's objects.
///
/// The rules live with the lessons, in `lessons/NN-topic/technique.txt`:
///
///     # a comment
///     [04.2 2_halo_tile.cu]                 the exercise, and the student's file it reads
///     theory Halo tiles in shared memory    the theory page's section, named under a failure
///     kernel shared-store barrier shared-load-after-barrier
///     every-kernel no-barrier-in-loop       (another exercise's kind of rule)
///     hint Load the input tile, halo included, into a __shared__ array, …
///
/// A `kernel` line lists traits that one kernel (one function of the file's SASS) must show
/// together; several `kernel` lines are alternatives, any one of which is enough. An
/// `every-kernel` line lists traits that every kernel of the file must show. `hint` lines
/// join into one hint. The traits are the ones of `Trait` below; docs/thresholds.md,
/// "Mechanism checks", says why each holds on every architecture from sm_75 on.
///
/// The check reads compiled code, so it sees what the compiler made of the source: a
/// template instantiated for six block sizes is six kernels, a loop the compiler unrolled
/// completely is no loop. Which kernels it judges: those that ran in the exercise's timed
/// calls, where its process recorded them (kernels_ran.hpp; the judgement is
/// technique_ran.hpp's), else every function of the file (check_technique_rule below): a
/// build without CUPTI, a CUPTI failure, a run under compute-sanitizer. It is a teaching aid
/// against honest mistakes (an unchanged starter, a technique half applied) and the fakes it
/// was shown, not a proof (docs/trust_model.md).
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "grader/common/verdict.hpp"

namespace grader {

/// One instruction as `cuobjdump -sass` prints it.
struct SassInstruction {
    unsigned address = 0;
    std::string guard;                  ///< "@P0", "@!UP1"; empty when unconditional
    std::string opcode;                 ///< with its modifiers: "LDG.E.128.CONSTANT"
    std::vector<std::string> operands;  ///< as printed, split at the commas outside brackets
};

/// One function (a kernel, or a device function the compiler did not inline).
struct SassFunction {
    std::string name;  ///< as printed: mangled
    std::string arch;  ///< "sm_90"
    std::vector<SassInstruction> code;
};

/// The functions of a `cuobjdump -sass` listing, of every architecture in it.
std::vector<SassFunction> parse_sass(const std::string& text);

/// What a rule can ask of a kernel.
enum class Trait {
    constant_bank,                      ///< an operand from constant bank 3, where __constant__ data lives
    no_device_array_load,               ///< no load through the address of a __device__ variable (bank 4)
    shared_store,                       ///< a store to shared memory (STS, a shared atomic, an async copy into it)
    barrier,                            ///< a block-wide barrier (BAR.SYNC and kin: __syncthreads, cg sync)
    shared_load_after_barrier,          ///< a shared load placed after the first barrier
    global_load_after_barrier,          ///< a global (or generic) load placed after the first barrier
    no_global_load_after_last_barrier,  ///< no global load placed after the last barrier
    no_lane_global_load_after_last_barrier,  ///< none after it at an address that varies across a warp's lanes
    tile_loop,                          ///< a loop that holds a barrier and a shared load
    no_barrier_in_loop,                 ///< no barrier inside any loop
    lane_indexed_shared_atomic,         ///< a shared atomic whose address depends on the lane index
    merged_shared_add,                  ///< a shared atomic add of an amount not known at compile time
    match_any,                          ///< a MATCH.ANY instruction: __match_any_sync
    warp_exchange,                      ///< SHFL or REDUX: values passed between a warp's lanes in registers
    shared_fed_math,                    ///< floating-point math reads a value a shared load of its own trip gave
    no_global_fed_math,                 ///< no floating-point math reads a value a global load of its own trip gave
    no_lane_global_fed_math,            ///< none reads one a global load at a lane-dependent address gave
    no_block_size_test,                 ///< no comparison of a value computed from blockDim (and immediates) alone
    aggregated_input_loop,              ///< every shared atomic in a loop that loads from global memory is aggregated
    tensor_math,                        ///< a tensor-core product: HMMA (WMMA, mma.sync) or HGMMA (wgmma)
    shared_fed_tensor_math,             ///< a tensor-core product in a loop reads a value a shared load of its trip gave
    async_copy,                         ///< a copy from global to shared memory past the registers (LDGSTS: cp.async)
    async_wait_in_flight,               ///< a wait for asynchronous copies that leaves at least one group pending
};
/// The trait's name in rule files ("shared-store"); Trait from a name, false when unknown.
const char* trait_name(Trait t);
bool trait_from_name(const std::string& name, Trait& t);
/// A trait in words: what a kernel that has it does ("stores to shared memory", as in "no
/// kernel stores …") and what one without it lacks ("stores nothing to shared memory").
const char* trait_has(Trait t);
const char* trait_lacks(Trait t);
/// The traits of `missing` worth naming to a student: without a barrier, what does or does
/// not come after it says nothing more.
std::vector<Trait> traits_worth_naming(const std::vector<Trait>& missing);

/// The traits one function shows (those of Trait that hold for it).
std::vector<Trait> function_traits(const SassFunction& f);

/// One exercise's rule, from a technique file.
struct TechniqueRule {
    std::string exercise;  ///< "04.2": the exercises whose names start with it
    std::string file;      ///< the lesson's file name: "2_halo_tile.cu"
    std::string section;   ///< the theory page's section that teaches the technique
    std::string hint;
    std::vector<std::vector<Trait>> kernel;  ///< alternatives: one kernel shows every trait of one of them
    std::vector<Trait> every_kernel;         ///< every kernel shows each of these
    /// `from sm_NN`: the rule reads only the code for sm_NN and newer (0: every architecture).
    /// For an exercise that needs an instruction older GPUs lack, and skips there (09.3: cp.async
    /// from sm_80 on); code for an older architecture then holds the rule whatever it shows.
    int from_sm = 0;
};

/// The functions of `functions` the rule reads: those whose architecture is rule.from_sm or newer.
std::vector<SassFunction> functions_for_rule(const TechniqueRule& rule, const std::vector<SassFunction>& functions);

/// The rules of one technique file; `origin` names it in errors. Throws std::invalid_argument
/// for a line it cannot read (an unknown trait or keyword, a rule without a file or traits).
std::vector<TechniqueRule> parse_technique_rules(const std::string& text, const std::string& origin);

/// What the student's kernels lack, in words ("kernel conv_untiled_kernel stores nothing to
/// shared memory, …"); empty when the rule holds. `functions` are the SASS of the rule's file.
std::string check_technique_rule(const TechniqueRule& rule, const std::vector<SassFunction>& functions);

/// A kernel's name as its author wrote it: demangled, without namespaces that say nothing
/// (the anonymous one), return type or parameters: "reduce_step6_kernel<256u, float>".
std::string kernel_display_name(const std::string& mangled);

/// True when the exercise's name ("04.2 halo tiles in shared memory") is the rule's ("04.2").
bool rule_applies(const TechniqueRule& rule, const std::string& exercise);

/// Words in a list: "a", "a and b", "a, b and c" (`last` joins the last two).
std::string join_words(const std::vector<std::string>& items, const std::string& last);
/// Names in a list, three at most: "a, b, c and 9 more".
std::string some_names(const std::vector<std::string>& names);

// --- the supervisor's side ---------------------------------------------------------------

/// cuobjdump: on PATH, else beside the nvcc on PATH, else in $CUDA_HOME/bin, $CUDA_PATH/bin,
/// /usr/local/cuda/bin. "" when there is none.
std::string find_cuobjdump();

/// The object the build compiled `source` into, among the `.o` files of `objects_dir`
/// (Meson names each after its source's path, '/' turned into '_'). "" when none matches.
std::string find_student_object(const std::string& objects_dir, const std::string& source);

/// What `grade` asks for: the rules file, the theory page, the build's folder of the
/// student's objects (BUILD/libTARGET-student.a.p), the cuobjdump to run (find_cuobjdump();
/// "" when there is none) and, per lesson file, the source the student's build compiled for
/// it (a known-bad variant's file stands for the one it replaces).
struct TechniqueRequest {
    std::string rules, theory, objects_dir, cuobjdump;
    std::vector<std::pair<std::string, std::string>> files;  ///< (lesson file name, path of its source)
};

/// The outcome for one run: which exercises have a rule, which could not be checked and
/// why, and each finding.
struct TechniqueReport {
    std::vector<std::string> exercises;  ///< the exercises that have a rule ("04.1", …)
    std::vector<std::string> unchecked;  ///< those whose code could not be read (no cuobjdump, no object)
    std::string not_checked;             ///< why, one line; "" when every rule was checked
    struct Finding {
        std::string exercise, message, hint, theory;
    };
    std::vector<Finding> findings;  ///< one per exercise whose rule does not hold in the file's compiled code
    /// Each rule that could be checked, with the SASS of its file (every architecture in it)
    /// and the theory line of its findings: what the judgement on the kernels that ran reads.
    struct Checked {
        TechniqueRule rule;
        std::vector<SassFunction> sass;
        std::string theory;
    };
    std::vector<Checked> checked;
    /// True when `exercise` ("04.2 halo tiles …") has a rule that could not be checked.
    bool is_unchecked(const std::string& exercise) const;
};

/// Reads the rules, finds each rule's object, disassembles it and checks it. An error of
/// the grader's own (an unreadable rules file) throws; a missing tool or object does not:
/// the report then says what could not be checked.
TechniqueReport check_techniques(const TechniqueRequest& request);

/// The verdict with the report's findings on compiled code applied: a PASS of an exercise
/// with a finding becomes FAIL [technique], saying what was missing, with the hint and the
/// theory section. Returns true when it changed the verdict. (Where the exercise recorded
/// the kernels its timed calls ran, technique_ran.hpp judges those instead.)
bool apply_technique(const TechniqueReport& report, Verdict& v);
/// `v`, a PASS, as FAIL [technique]: what the code lacks (`missing`), the measurement it
/// passed with, the rule's hint and theory line.
void fail_for_technique(Verdict& v, const std::string& missing, const std::string& hint, const std::string& theory);

}  // namespace grader
