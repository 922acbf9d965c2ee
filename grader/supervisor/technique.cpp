// SPDX-License-Identifier: MIT
#include "grader/supervisor/technique.hpp"

#include <cxxabi.h>
#include <dirent.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <future>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include "grader/common/text_file.hpp"
#include "grader/supervisor/sass_flow.hpp"

namespace grader {

// ---------------------------------------------------------------------------------------
// Reading cuobjdump's listing
// ---------------------------------------------------------------------------------------

namespace {

std::string trim(const std::string& s) {
    const size_t a = s.find_first_not_of(" \t\r");
    if (a == std::string::npos) return "";
    return s.substr(a, s.find_last_not_of(" \t\r") - a + 1);
}

bool starts_with(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

// "04.2" names "04.2 halo tiles in shared memory", not "04.21 …".
bool exercise_matches(const std::string& rule_exercise, const std::string& exercise) {
    return exercise == rule_exercise || starts_with(exercise, rule_exercise + " ");
}

// The operands of an instruction: split at the commas that lie outside brackets.
std::vector<std::string> split_operands(const std::string& text) {
    std::vector<std::string> out;
    std::string cur;
    int depth = 0;
    for (char c : text) {
        if (c == '[') ++depth;
        if (c == ']') --depth;
        if (c == ',' && depth == 0) {
            out.push_back(trim(cur));
            cur.clear();
        } else {
            cur += c;
        }
    }
    if (!trim(cur).empty()) out.push_back(trim(cur));
    return out;
}

// An instruction line: "        /*0420*/      @!P0 ATOMS.POPC.INC.32 RZ, [R20+URZ] ;   /* 0x… */".
bool parse_instruction(const std::string& line, SassInstruction& in) {
    const size_t open = line.find("/*");
    if (open == std::string::npos) return false;
    const size_t close = line.find("*/", open);
    if (close == std::string::npos || close == open + 2) return false;
    const std::string addr = line.substr(open + 2, close - open - 2);
    if (addr.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos) return false;
    if (!trim(line.substr(0, open)).empty()) return false;  // the address comes first on the line
    std::string rest = line.substr(close + 2);
    const size_t semi = rest.find(';');
    if (semi == std::string::npos) return false;  // an encoding's second line, or something else
    rest = trim(rest.substr(0, semi));
    if (rest.empty()) return false;
    in = SassInstruction();
    in.address = unsigned(std::strtoul(addr.c_str(), nullptr, 16));
    if (rest[0] == '@') {
        const size_t sp = rest.find(' ');
        in.guard = rest.substr(0, sp);
        rest = sp == std::string::npos ? "" : trim(rest.substr(sp));
    }
    const size_t sp = rest.find(' ');
    in.opcode = rest.substr(0, sp);
    if (sp != std::string::npos) in.operands = split_operands(rest.substr(sp + 1));
    return !in.opcode.empty();
}

}  // namespace

std::vector<SassFunction> parse_sass(const std::string& text) {
    std::vector<SassFunction> out;
    std::string arch;
    std::stringstream ss(text);
    std::string line;
    while (std::getline(ss, line)) {
        const std::string t = trim(line);
        if (starts_with(t, "arch = ")) {
            arch = trim(t.substr(7));
        } else if (starts_with(t, "Function : ")) {
            out.push_back(SassFunction{trim(t.substr(11)), arch, {}});
        } else if (!out.empty()) {
            SassInstruction in;
            if (parse_instruction(line, in)) out.back().code.push_back(in);
        }
    }
    return out;
}

// ---------------------------------------------------------------------------------------
// Operands
// ---------------------------------------------------------------------------------------

namespace {

// Registers are numbered 0–254 (R0–R254) and 256–319 (UR0–UR63); these two mean neither.
constexpr int kZero = -1;      // RZ, URZ: reads as 0, writes go nowhere
constexpr int kNotReg = -2;    // an immediate, a constant, a predicate, an address …
constexpr int kUniform = 256;  // UR0
constexpr int kRegisters = 320;

bool is_digits(const std::string& s) { return !s.empty() && s.find_first_not_of("0123456789") == std::string::npos; }

// "R12" → 12, "UR5" → 261, "RZ"/"URZ" → kZero, anything else → kNotReg. Modifiers the
// listing attaches ("-R4", "|R4|", "R4.reuse", "R4.64", "R4.H1", "~R4") are stripped.
int register_of(std::string s) {
    while (!s.empty() && (s[0] == '-' || s[0] == '|' || s[0] == '!' || s[0] == '~')) s.erase(0, 1);
    const size_t dot = s.find_first_of(".|");
    if (dot != std::string::npos) s = s.substr(0, dot);
    if (s == "RZ" || s == "URZ") return kZero;
    if (s.size() > 1 && s[0] == 'R' && is_digits(s.substr(1))) return std::atoi(s.c_str() + 1);
    if (s.size() > 2 && s[0] == 'U' && s[1] == 'R' && is_digits(s.substr(2))) return kUniform + std::atoi(s.c_str() + 2);
    return kNotReg;
}

bool is_predicate(const std::string& s) {
    std::string t = s;
    while (!t.empty() && t[0] == '!') t.erase(0, 1);
    return t == "PT" || t == "UPT" || (t.size() == 2 && t[0] == 'P' && t[1] >= '0' && t[1] <= '9') ||
           (t.size() == 3 && t[0] == 'U' && t[1] == 'P' && t[2] >= '0' && t[2] <= '9');
}

// An integer immediate ("0x1f", "-0x1", "12"); false for floats, constants and registers.
bool immediate_of(const std::string& s, long long& v) {
    std::string t = s;
    bool neg = false;
    if (!t.empty() && t[0] == '-') neg = true, t.erase(0, 1);
    if (starts_with(t, "0x") && t.size() > 2 && t.find_first_not_of("0123456789abcdefABCDEF", 2) == std::string::npos) {
        v = std::strtoll(t.c_str() + 2, nullptr, 16);
    } else if (is_digits(t)) {
        v = std::strtoll(t.c_str(), nullptr, 10);
    } else {
        return false;
    }
    if (neg) v = -v;
    return true;
}

// Every register named in an operand, the ones inside brackets too ("desc[UR8][R4.64+0x10]").
std::vector<int> registers_in(const std::string& operand) {
    std::vector<int> out;
    size_t i = 0;
    while (i < operand.size()) {
        if (std::isalnum(static_cast<unsigned char>(operand[i])) || operand[i] == '_') {
            size_t j = i;
            while (j < operand.size() && (std::isalnum(static_cast<unsigned char>(operand[j])) || operand[j] == '_')) ++j;
            const int r = register_of(operand.substr(i, j - i));
            if (r >= 0) out.push_back(r);
            i = j;
        } else {
            ++i;
        }
    }
    return out;
}

// The operand that holds a memory address ("[R20+URZ]", "desc[UR8][R4.64]"); constant-bank
// operands ("c[0x3][R15]") are values, not memory addresses. "" when there is none.
std::string address_operand(const SassInstruction& in) {
    for (const std::string& o : in.operands)
        if (o.find('[') != std::string::npos && !starts_with(o, "c[") && !starts_with(o, "-c[") && !starts_with(o, "|c["))
            return o;
    return "";
}

std::string base_of(const std::string& opcode) { return opcode.substr(0, opcode.find('.')); }

bool has_modifier(const std::string& opcode, const std::string& m) {
    const std::string dotted = opcode + ".";
    return dotted.find("." + m + ".") != std::string::npos;
}

// --- what an instruction does to memory and control -------------------------------------

bool is_barrier(const SassInstruction& in) {
    // BAR.SYNC (__syncthreads, cooperative groups' block sync, named barriers), BAR.RED
    // (__syncthreads_count/and/or), but not BAR.ARV, which arrives without waiting; and the
    // wait of an arrive/wait barrier (cuda::barrier on sm_90), SYNCS.PHASECHK.
    const std::string b = base_of(in.opcode);
    if (b == "BAR") return !starts_with(in.opcode, "BAR.ARV");
    return starts_with(in.opcode, "SYNCS.PHASECHK");
}

bool is_shared_store(const SassInstruction& in) {
    // STS and STSM store, ATOMS updates, LDGSTS (cp.async) and the bulk copies of sm_90
    // (UBLKCP, UTMALDG) fill shared memory from global memory. A generic ST may target shared
    // memory: where the compiler could not tell, the student gets the benefit of the doubt.
    static const std::set<std::string> kStores = {"STS", "STSM", "ATOMS", "LDGSTS", "UBLKCP", "UTMALDG", "ST"};
    return kStores.count(base_of(in.opcode)) > 0;
}

bool is_shared_load(const SassInstruction& in) {
    static const std::set<std::string> kLoads = {"LDS", "LDSM", "LD"};  // LD: generic, maybe shared
    return kLoads.count(base_of(in.opcode)) > 0;
}

// Loads that read global memory for certain (LDG, texture and surface reads); with
// `or_generic`, also the generic LD, which may.
bool is_global_load(const SassInstruction& in, bool or_generic) {
    static const std::set<std::string> kLoads = {"LDG", "TEX", "TLD", "TLD4", "TXD", "SULD"};
    const std::string b = base_of(in.opcode);
    return kLoads.count(b) > 0 || (or_generic && b == "LD");
}

bool reads_bank(const SassInstruction& in, const std::string& bank) {
    for (const std::string& o : in.operands)
        if (o.find("c[" + bank + "]") != std::string::npos) return true;
    return false;
}

// --- control flow ---------------------------------------------------------------------

// The target of a branch ("BRA 0x13a0", "@P0 BRA.U !UP0, 0x80"); false for other opcodes.
bool unconditional(const SassInstruction& in) { return in.guard.empty() || in.guard == "@PT"; }

// A loop, as the listing lays it out: a backward branch and the instructions from its
// target to it. nvcc places a loop's body between the two, so an instruction inside that
// range runs once per trip. The branch to itself that pads the end of every function is
// not a loop. tile-loop and no-barrier-in-loop keep these ranges rather than the natural
// loops of sass_flow.hpp, which the data-path traits use: on sm_80–sm_89 the natural loops
// of a templated 08.1 tile kernel (fixture 08.1_template_tile.cu) leave its barrier out,
// where the range holds it.
struct Loop {
    unsigned first, last;
};
std::vector<Loop> loops_of(const SassFunction& f) {
    std::vector<Loop> out;
    for (const SassInstruction& in : f.code) {
        unsigned t = 0;
        if (sass_branch_target(in, t) && t < in.address) out.push_back({t, in.address});
    }
    return out;
}

// ---------------------------------------------------------------------------------------
// Which values depend on the lane, and which are addresses of __device__ variables
// ---------------------------------------------------------------------------------------
//
// A forward data-flow analysis over the function's control-flow graph. For every register
// it tracks a mask of the bits of its value that may depend on the lane index (bits 0–4 of
// threadIdx, or %laneid), whether the value may be derived from the address of a
// __device__ variable (constant bank 4 holds those addresses), and whether it is a known
// constant (what `atomicAdd(&s[v], 1)` adds on sm_75, where it is an ATOMS.ADD of a
// register set to 1). It errs towards "may depend" and "not known": an operation it does
// not model taints every bit of its result. Shifts, masks and multiplications by powers of
// two are modelled bit by bit, because that is what tells a copy of the bins per lane (lane
// bits kept) from one per warp (lane bits shifted out).

struct Taint {
    unsigned lane = 0;  // bits of the value that may depend on the lane index
    bool device = false;
    enum Known : unsigned char { unreached, constant, unknown } known = unreached;
    unsigned value = 0;  // when known == constant
    // Where the last write was predicated: its guard (guard_id), and the lane bits of the
    // value it wrote. An instruction under the same guard, before the predicate changes, reads
    // that value alone: "@P2 LDC.64 R16, …" then "@P2 LDG R19, [R16.64]" never meets what R16
    // held before, though `lane` above, the value on either side of the guard, still does.
    int guard = 0;
    unsigned guarded_lane = 0;
};

// A guard as a small number: 0 for none (or @PT), -1 for one not modelled, else P0–P9 and
// UP0–UP9 with their negations.
int predicate_base(const std::string& name) {
    if (name.size() == 2 && name[0] == 'P' && name[1] >= '0' && name[1] <= '9') return 1 + (name[1] - '0') * 2;
    if (name.size() == 3 && name[0] == 'U' && name[1] == 'P' && name[2] >= '0' && name[2] <= '9') return 21 + (name[2] - '0') * 2;
    return -1;
}

int guard_id(const std::string& guard) {
    if (guard.empty() || guard == "@PT") return 0;
    const bool negated = guard.size() > 1 && guard[1] == '!';
    const int base = predicate_base(guard.substr(negated ? 2 : 1));
    return base < 0 ? -1 : base + (negated ? 1 : 0);
}
using State = std::array<Taint, kRegisters>;

// Merges what another path brings; true when `into` changed.
bool join(Taint& into, const Taint& from) {
    const Taint old = into;
    into.lane |= from.lane, into.device |= from.device;
    if (from.known != Taint::unreached) {
        if (into.known == Taint::unreached) into.known = from.known, into.value = from.value;
        else if (into.known != from.known || into.value != from.value) into.known = Taint::unknown;
    }
    if (from.known != Taint::unreached || from.lane || from.device) {
        if (old.known == Taint::unreached && !old.lane && !old.device) into.guard = from.guard, into.guarded_lane = from.guarded_lane;
        else if (into.guard != from.guard) into.guard = 0, into.guarded_lane = 0;
        else into.guarded_lane |= from.guarded_lane;
    }
    return old.lane != into.lane || old.device != into.device || old.known != into.known || old.value != into.value ||
           old.guard != into.guard || old.guarded_lane != into.guarded_lane;
}

// The state as an instruction under guard `g` reads it: each register last written under the
// same guard holds what that write gave.
State under_guard(const State& s, int g) {
    State v = s;
    if (g > 0)
        for (Taint& t : v)
            if (t.guard == g) t.lane = t.guarded_lane;
    return v;
}

unsigned smear_up(unsigned m) { return m ? ~0u << __builtin_ctz(m) : 0u; }
unsigned any_bit(unsigned m) { return m ? ~0u : 0u; }

Taint taint_of(const State& s, const std::string& operand) {
    Taint t;
    for (int r : registers_in(operand)) t.lane |= s[r].lane, t.device |= s[r].device;
    return t;
}

// Whether an operand is a known constant: an immediate, RZ, or a register holding one.
bool known_constant(const State& s, const std::string& operand) {
    long long v = 0;
    const int r = register_of(operand);
    if (r == kZero || immediate_of(operand, v)) return true;
    return r >= 0 && s[r].known == Taint::constant;
}

// The value 3-input LUT `lut` gives at input bits (a, b, c): a selects 0xF0, b 0xCC, c 0xAA.
int lut_bit(unsigned lut, int a, int b, int c) { return (lut >> ((a << 2) | (b << 1) | c)) & 1; }

// LOP3.LUT a, b, c, lut: for each bit, whether a lane-dependent input can change it, given
// the immediates' bits. Inputs that are registers or constants vary freely.
unsigned lop3_lane(const State& s, const std::vector<std::string>& src) {
    long long lut = 0;
    if (src.size() < 4 || !immediate_of(src[3], lut)) {
        unsigned m = 0;
        for (const std::string& o : src) m |= taint_of(s, o).lane;
        return any_bit(m);
    }
    struct Input {
        bool fixed;
        unsigned bits, lane;
    };
    Input in[3];
    for (int k = 0; k < 3; ++k) {
        long long v = 0;
        const int r = register_of(src[k]);
        if (r == kZero) in[k] = {true, 0u, 0u};
        else if (r >= 0) in[k] = {false, 0u, s[r].lane};
        else if (immediate_of(src[k], v)) in[k] = {true, unsigned(v), 0u};
        else in[k] = {false, 0u, 0u};  // a constant-bank operand: any value, no lane in it
    }
    unsigned out = 0;
    for (int bit = 0; bit < 32; ++bit) {
        for (int k = 0; k < 3; ++k) {
            if (!((in[k].lane >> bit) & 1)) continue;
            // Does flipping input k change the result, for some value of the other free inputs?
            bool matters = false;
            for (int x = 0; x < 8 && !matters; ++x) {
                int v[3];
                bool consistent = true;
                for (int j = 0; j < 3; ++j) {
                    v[j] = (x >> (2 - j)) & 1;
                    if (j != k && in[j].fixed && v[j] != int((in[j].bits >> bit) & 1)) consistent = false;
                }
                if (!consistent) continue;
                int lo[3] = {v[0], v[1], v[2]}, hi[3] = {v[0], v[1], v[2]};
                lo[k] = 0, hi[k] = 1;
                matters = lut_bit(unsigned(lut), lo[0], lo[1], lo[2]) != lut_bit(unsigned(lut), hi[0], hi[1], hi[2]);
            }
            if (matters) out |= 1u << bit;
        }
    }
    return out;
}

// How many registers an instruction writes from its destination on.
int destination_width(const SassInstruction& in) {
    const std::string& op = in.opcode;
    const std::string b = base_of(op);
    if (has_modifier(op, "128")) return 4;
    if (b == "LDSM") return has_modifier(op, "4") ? 4 : has_modifier(op, "2") ? 2 : 1;
    if (has_modifier(op, "64") || has_modifier(op, "WIDE") || has_modifier(op, "F64")) return 2;
    if (b == "CS2R") return has_modifier(op, "32") ? 1 : 2;
    if (b == "DADD" || b == "DMUL" || b == "DFMA" || b == "DMNMX") return 2;
    if (b == "HMMA" || b == "IMMA" || b == "DMMA" || b == "HGMMA") return 4;
    return 1;
}

// Opcodes that write no register, though their first operand may name one.
bool writes_no_register(const std::string& base) {
    static const std::set<std::string> kNone = {
        "BAR",  "BRA",   "BRX",    "JMP",   "JMX",   "CALL", "RET",   "EXIT",  "NOP",  "BSSY", "BSYNC",
        "BREAK", "BPT",    "KILL",  "YIELD", "WARPSYNC", "DEPBAR", "MEMBAR", "FENCE", "CCTL", "ERRBAR",
        "ST",   "STG",   "STS",    "STL",   "STSM",  "RED",  "REDG",  "REDS",  "SUST", "SURED", "ARRIVES", "SYNCS",
        "UBLKCP", "UTMALDG", "UTMASTG", "LDGSTS", "LDGDEPBAR", "ACQBULK", "ELECT", "NANOSLEEP"};
    return kNone.count(base) > 0;
}

// Instructions whose result is data read from somewhere (memory, another lane's vote), not
// computed from their operands: the lane index does not flow through them.
bool result_is_data(const std::string& base) {
    static const std::set<std::string> kData = {
        "LDG",  "LDS",  "LD",   "LDL",  "LDC",  "LDCU", "ULDC", "LDSM", "ATOMS", "ATOMG", "ATOM", "MATCH",
        "VOTE", "VOTEU", "TEX", "TLD",  "TLD4", "TXD",  "TXQ",  "SULD", "SUATOM", "S2UR", "REDUX", "CREDUX"};
    return kData.count(base) > 0;
}

// The lane bits of IMAD-like a * b + c: `wide` also gives the high word's.
unsigned mad_lane(const State& s, const std::vector<std::string>& src, unsigned* high) {
    auto lane = [&](size_t k) { return k < src.size() ? taint_of(s, src[k]).lane : 0u; };
    auto zero = [&](size_t k) {
        long long v = 1;
        return k < src.size() && (register_of(src[k]) == kZero || (immediate_of(src[k], v) && v == 0));
    };
    unsigned product = 0;
    long long imm = 0;
    if (zero(0) || zero(1)) {
        product = 0;
    } else if (src.size() > 1 && immediate_of(src[1], imm)) {
        // Multiplying by 2^k moves every bit up k places; by any other constant, a bit can
        // reach every place above its own, moved up by the constant's trailing zeros.
        const unsigned k = imm == 0 ? 0 : unsigned(__builtin_ctzll((unsigned long long)imm));
        const unsigned m = k < 32 ? lane(0) << k : 0u;
        product = (imm & (imm - 1)) == 0 ? m : smear_up(m);
    } else if (!src.empty() && immediate_of(src[0], imm)) {
        const unsigned k = imm == 0 ? 0 : unsigned(__builtin_ctzll((unsigned long long)imm));
        const unsigned m = k < 32 ? lane(1) << k : 0u;
        product = (imm & (imm - 1)) == 0 ? m : smear_up(m);
    } else {
        product = smear_up(lane(0) | lane(1));
    }
    unsigned result;
    if (zero(0) || zero(1)) result = lane(2);  // 0 · b + c is c, bit for bit
    else if (zero(2)) result = product;
    else result = smear_up(product | lane(2));
    if (high) *high = any_bit(result | lane(0) | lane(1) | lane(2));
    return result;
}

unsigned shift_lane(const State& s, const std::string& op, const std::vector<std::string>& src) {
    // SHF.L.U32 d, a, n, b: a << n; SHF.L.*.HI: high word of b:a << n; SHF.R.*.HI d, a, n, b:
    // b >> n; SHF.R.U64 / S64: low word of b:a >> n.
    long long n = 0;
    const unsigned a = src.size() > 0 ? taint_of(s, src[0]).lane : 0u, b = src.size() > 2 ? taint_of(s, src[2]).lane : 0u;
    if (src.size() < 3 || !immediate_of(src[1], n) || n < 0 || n > 31) return any_bit(a | b);
    const unsigned k = unsigned(n);
    const bool left = has_modifier(op, "L"), hi = has_modifier(op, "HI");
    const bool sign = has_modifier(op, "S32") || has_modifier(op, "S64");
    if (left && !hi) return a << k;
    if (left) return (b << k) | (k ? a >> (32 - k) : 0u);
    if (hi) {
        unsigned r = b >> k;
        if (sign && (b >> 31)) r |= k ? ~0u << (32 - k) : 0u;
        return r;
    }
    return (a >> k) | (k ? b << (32 - k) : 0u);
}

// The first register an instruction writes (it writes destination_width of them from there
// on), and in `d` the index of its operand; -1 when it writes none.
int destination_of(const SassInstruction& in, size_t& d) {
    const std::string b = base_of(in.opcode);
    d = 0;
    if (in.operands.empty() || writes_no_register(b)) return -1;
    int dest = register_of(in.operands[0]);
    if (dest == kNotReg && is_predicate(in.operands[0]) && in.operands.size() > 1 &&
        (b == "SHFL" || b == "LOP3" || b == "ULOP3")) {
        d = 1;  // "SHFL.IDX PT, R3, …", "LOP3.LUT P0, R2, …": the predicate first, then the register
        dest = register_of(in.operands[1]);
    }
    return dest < 0 ? -1 : dest;
}

// One instruction's effect on the state. A predicated instruction may not write: the old
// value then survives beside the new one.
void step(const SassInstruction& in, State& s) {
    const std::string b = base_of(in.opcode);
    size_t d = 0;
    const int dest = destination_of(in, d);
    // Whatever names a predicate may write it (ISETP, a carry out): guards on it end here.
    for (const std::string& o : in.operands) {
        const int p = predicate_base(!o.empty() && o[0] == '!' ? o.substr(1) : o);
        if (p > 0)
            for (Taint& t : s)
                if (t.guard == p || t.guard == p + 1) t.guard = 0, t.guarded_lane = 0;
    }
    if (dest < 0) return;
    const int g = guard_id(in.guard);
    State refined;
    if (g > 0) refined = under_guard(s, g);
    const State& from = g > 0 ? refined : s;  // what the operands hold when this instruction runs
    // The sources: the operands after the destination, less the predicates written beside it
    // ("IADD3 R9, P1, R12, R2, RZ").
    std::vector<std::string> src;
    size_t k = d + 1;
    while (k < in.operands.size() && is_predicate(in.operands[k]) && !starts_with(in.operands[k], "!")) ++k;
    for (; k < in.operands.size(); ++k) src.push_back(in.operands[k]);

    Taint all;
    for (const std::string& o : src) {
        const Taint t = taint_of(from, o);
        all.lane |= t.lane, all.device |= t.device;
    }
    Taint out, high;
    out.device = high.device = reads_bank(in, "0x4") || (!result_is_data(b) && all.device);
    out.known = high.known = Taint::unknown;
    bool has_high = false;
    const std::string& op = in.opcode;
    // Known constants: a move of an immediate, of RZ or of a register that holds one (the
    // value of IMAD.MOV d, RZ, RZ, x is x), and CS2R of SRZ (zero, both words).
    const bool move = b == "MOV" || b == "UMOV" || starts_with(op, "IMAD.MOV") || starts_with(op, "UIMAD.MOV");
    if (move && !src.empty()) {
        long long v = 0;
        const int r = register_of(src.back());
        if (r == kZero) out.known = Taint::constant, out.value = 0;
        else if (immediate_of(src.back(), v)) out.known = Taint::constant, out.value = unsigned(v);
        else if (r >= 0) out.known = from[r].known, out.value = from[r].value;
    }
    if (b == "CS2R" && !src.empty() && src[0] == "SRZ") out.known = high.known = Taint::constant, out.value = high.value = 0;
    if (b == "S2R" || b == "CS2R") {
        const std::string sr = src.empty() ? "" : src[0];
        // threadIdx.y and .z take part in the lane index when blockDim.x is not a multiple of 32.
        if (starts_with(sr, "SR_TID") || sr == "SR_LANEID") out.lane = 0x1f;
        else if (starts_with(sr, "SR_LANEMASK")) out.lane = ~0u;
    } else if (result_is_data(b)) {
        out.lane = 0;
    } else if (b == "MOV" || b == "UMOV" || b == "R2UR" || b == "SEL" || b == "USEL" || b == "FSEL" ||
               starts_with(op, "IMAD.MOV") || starts_with(op, "UIMAD.MOV")) {
        out.lane = all.lane;  // a copy, or one of two values
    } else if (b == "SHF" || b == "USHF") {
        out.lane = shift_lane(from, op, src);
    } else if (starts_with(op, "IMAD.HI") || starts_with(op, "IMAD.X") || has_modifier(op, "X")) {
        out.lane = any_bit(all.lane);  // a high word, or an add with carry
    } else if (b == "IMAD" || b == "UIMAD") {
        unsigned h = 0;
        out.lane = mad_lane(from, src, &h);
        if (has_modifier(op, "WIDE")) has_high = true, high.lane = h;
    } else if (b == "LEA" || b == "ULEA") {
        long long n = 0;
        if (has_modifier(op, "HI") || src.size() < 3 || !immediate_of(src[2], n) || n < 0 || n > 31) {
            out.lane = any_bit(all.lane);
        } else {
            const unsigned a = taint_of(from, src[0]).lane << unsigned(n), c = taint_of(from, src[1]).lane;
            out.lane = register_of(src[1]) == kZero ? a : smear_up(a | c);
        }
    } else if (b == "IADD3" || b == "UIADD3" || b == "IADD" || b == "IADD32I" || b == "VIADD" || b == "UIADD") {
        out.lane = smear_up(all.lane);  // carries move a bit's influence up, never down
    } else if (b == "LOP3" || b == "ULOP3") {
        out.lane = lop3_lane(from, src);
    } else if (b == "LOP32I" || b == "LOP") {
        long long v = 0;
        out.lane = all.lane;
        if (has_modifier(op, "AND") && src.size() > 1 && immediate_of(src[1], v)) out.lane &= unsigned(v);
    } else {
        out.lane = any_bit(all.lane);  // not modelled: every bit may depend
    }
    if (dest >= kUniform) out.lane = high.lane = 0;  // a uniform register holds one value for the warp
    const bool maybe = !unconditional(in);
    const int width = destination_width(in);
    for (int w = 0; w < width; ++w) {
        const int r = dest + w;
        if ((dest < kUniform && r >= kUniform) || r >= kRegisters || r == 255) break;
        Taint t = (w == 0 || !has_high) ? out : high;
        if (w > 0 && !has_high && !result_is_data(b)) t.lane = any_bit(out.lane);
        if (w > 0 && b != "CS2R") t.known = Taint::unknown;
        const unsigned fresh = t.lane;
        if (maybe) join(t, s[r]);
        t.guard = g > 0 ? g : 0, t.guarded_lane = g > 0 ? fresh : 0;
        s[r] = t;
    }
}

struct Flow {
    bool lane_indexed_shared_atomic = false;
    bool merged_shared_add = false;
    bool device_array_load = false;
    // Per instruction: a shared atomic at a lane-dependent address, a shared add of a
    // computed amount (what the aggregation traits ask of the loop that reads the input).
    std::vector<bool> lane_indexed_at, merged_at;
    // Per instruction: a global load at an address that may differ between a warp's lanes,
    // as an image's pixels do; a filter's weight, read by every lane at once, does not.
    std::vector<bool> lane_global_load_at;
};

Flow data_flow(const SassFunction& f, const ControlFlow& cf) {
    Flow flow;
    const std::vector<SassInstruction>& code = f.code;
    if (code.empty()) return flow;
    flow.lane_indexed_at.assign(code.size(), false);
    flow.merged_at.assign(code.size(), false);
    flow.lane_global_load_at.assign(code.size(), false);
    const size_t n = cf.blocks.size();
    // Iterate to the fixed point: every state only grows, in a finite lattice. At the entry
    // every register holds something unknown; a block no path has reached yet holds nothing.
    std::vector<State> entry(n);
    for (Taint& t : entry[0]) t.known = Taint::unknown;
    std::vector<bool> queued(n, false);
    std::vector<size_t> work = {0};
    queued[0] = true;
    while (!work.empty()) {
        const size_t k = work.back();
        work.pop_back();
        queued[k] = false;
        State s = entry[k];
        for (size_t i = cf.blocks[k].first; i < cf.blocks[k].end; ++i) {
            const SassInstruction& in = code[i];
            const std::string b = base_of(in.opcode);
            const std::string addr = address_operand(in);
            if (b == "ATOMS" && !addr.empty() && taint_of(s, addr).lane != 0)
                flow.lane_indexed_shared_atomic = true, flow.lane_indexed_at[i] = true;
            // An add of an amount not known at compile time: a count merged before the atomic
            // (a run of equal bytes, the lanes of a match). sm_80 and later compile an add of
            // a constant 1 into ATOMS.POPC.INC, sm_75 into an ATOMS.ADD of a register set to 1.
            if (starts_with(in.opcode, "ATOMS.ADD") && in.operands.size() > 2 && in.operands[1] == addr &&
                !known_constant(s, in.operands[2]))
                flow.merged_shared_add = true, flow.merged_at[i] = true;
            if ((b == "LDG" || b == "LD") && !addr.empty() && taint_of(s, addr).device) flow.device_array_load = true;
            if (is_global_load(in, false) && !addr.empty() && taint_of(under_guard(s, guard_id(in.guard)), addr).lane != 0)
                flow.lane_global_load_at[i] = true;
            step(in, s);
        }
        for (size_t j : cf.blocks[k].succ) {
            bool changed = false;
            for (int r = 0; r < kRegisters; ++r) changed |= join(entry[j][r], s[r]);
            if (changed && !queued[j]) work.push_back(j), queued[j] = true;
        }
    }
    return flow;
}

// ---------------------------------------------------------------------------------------
// Where the operands of the math come from
// ---------------------------------------------------------------------------------------
//
// Reaching definitions over the control-flow graph: for each register an instruction reads,
// the instructions whose result it may be. A predicated write adds itself beside what was
// there; an unconditional one replaces it. From those, an operand's origin: the loads it
// came from, following copies (MOV, SEL, FSEL, PRMT) a few steps back, as nvcc moves a
// loaded value into another register or picks between two (04.3's tile or halo).

using Defs = std::vector<std::vector<int>>;  // per register: the instructions that may have set it

// The registers an instruction reads: every operand's, but the destination's.
std::vector<int> source_registers(const SassInstruction& in) {
    size_t d = 0;
    const int dest = destination_of(in, d);
    std::vector<int> out;
    for (size_t k = dest < 0 ? 0 : d + 1; k < in.operands.size(); ++k)
        for (int r : registers_in(in.operands[k])) out.push_back(r);
    return out;
}

void define(const SassInstruction& in, int i, Defs& defs) {
    size_t d = 0;
    const int dest = destination_of(in, d);
    if (dest < 0) return;
    for (int w = 0; w < destination_width(in); ++w) {
        const int r = dest + w;
        if ((dest < kUniform && r >= kUniform) || r >= kRegisters) break;
        if (unconditional(in)) defs[r] = {i};
        else if (std::find(defs[r].begin(), defs[r].end(), i) == defs[r].end()) defs[r].push_back(i);
    }
}

// Per instruction: for each register it reads, the definitions that reach it.
struct Reaching {
    std::vector<std::map<int, std::vector<int>>> at;
};

Reaching reaching_definitions(const SassFunction& f, const ControlFlow& cf) {
    const std::vector<SassInstruction>& code = f.code;
    const size_t n = cf.blocks.size();
    Reaching out;
    out.at.resize(code.size());
    std::vector<Defs> entry(n, Defs(kRegisters));
    std::vector<bool> queued(n, false);
    std::vector<size_t> work;
    // Every block reachable from the entry is read at least once, whether or not what reaches
    // it changed: a block after one that defines nothing (an entry of LDGSTS copies only, which
    // write no register) would otherwise never be read, and its math would seem fed by nothing.
    std::vector<bool> visited(n, false);
    if (n) work.push_back(0), queued[0] = true;
    while (!work.empty()) {
        const size_t k = work.back();
        work.pop_back();
        queued[k] = false;
        visited[k] = true;
        Defs defs = entry[k];
        for (size_t i = cf.blocks[k].first; i < cf.blocks[k].end; ++i) {
            for (int r : source_registers(code[i])) out.at[i][r] = defs[r];
            define(code[i], int(i), defs);
        }
        for (size_t j : cf.blocks[k].succ) {
            bool changed = false;
            for (int r = 0; r < kRegisters; ++r)
                for (int d : defs[r])
                    if (std::find(entry[j][r].begin(), entry[j][r].end(), d) == entry[j][r].end())
                        entry[j][r].push_back(d), changed = true;
            if ((changed || !visited[j]) && !queued[j]) work.push_back(j), queued[j] = true;
        }
    }
    return out;
}

// Arithmetic on floating-point values (and the tensor cores' products): what a
// convolution's sums, a matrix product's dot products and the n-body interactions compute with.
bool is_float_math(const SassInstruction& in) {
    static const std::set<std::string> kMath = {"FFMA", "FADD", "FMUL", "FFMA32I", "FADD32I", "FMUL32I", "HFMA2",
                                                "HADD2", "HMUL2", "DFMA", "DADD", "DMUL", "MUFU", "HMMA",
                                                "HGMMA"};
    return kMath.count(base_of(in.opcode)) > 0;
}

// The tensor cores' products: HMMA (WMMA and mma.sync, every GPU from sm_70) and HGMMA
// (wgmma, sm_90a), whose B operand, and often A, it reads from shared memory itself.
bool is_tensor_math(const SassInstruction& in) {
    const std::string b = base_of(in.opcode);
    return b == "HMMA" || b == "HGMMA";
}

bool is_copy(const SassInstruction& in) {
    const std::string b = base_of(in.opcode);
    return b == "MOV" || b == "SEL" || b == "FSEL" || b == "PRMT" || starts_with(in.opcode, "IMAD.MOV");
}

// The loads that register `r`, as instruction `i` reads it, may come from, following copies
// `depth` steps back.
void loads_feeding(const SassFunction& f, const Reaching& rd, size_t i, int r, int depth, std::set<size_t>& loads) {
    const auto it = rd.at[i].find(r);
    if (it == rd.at[i].end()) return;
    for (int d : it->second) {
        const SassInstruction& def = f.code[size_t(d)];
        if (is_shared_load(def) || is_global_load(def, false)) loads.insert(size_t(d));
        else if (depth > 0 && is_copy(def))
            for (int s : source_registers(def)) loads_feeding(f, rd, size_t(d), s, depth - 1, loads);
    }
}

// Whether the floating-point math inside loops takes operands loaded from shared memory in
// the same loop, and whether any takes one loaded from global memory in the same loop. A
// load before the loop (08.1's own body, a value kept in a register) does not count: the
// question is what the loop reads on every trip.
struct MathOperands {
    bool shared_in_loop = false, global_in_loop = false, lane_global_in_loop = false;
    bool tensor_shared_in_loop = false;  // the same as shared_in_loop, for the tensor cores' products alone
};

MathOperands math_operands(const SassFunction& f, const ControlFlow& cf, const Reaching& rd, const Flow& flow) {
    MathOperands out;
    // Where some math lies in a loop, that is the work; math outside every loop is then a
    // prologue or an epilogue (a token read once, after the sums), which does not count.
    bool loop_math = false;
    for (size_t i = 0; i < f.code.size() && !loop_math; ++i) loop_math = is_float_math(f.code[i]) && cf.in_loop(i);
    for (size_t i = 0; i < f.code.size(); ++i) {
        if (!is_float_math(f.code[i]) || (loop_math && !cf.in_loop(i))) continue;
        // wgmma reads shared memory through descriptors, not registers: fed from shared memory
        // by construction.
        if (starts_with(f.code[i].opcode, "HGMMA") && cf.in_loop(i)) out.tensor_shared_in_loop = out.shared_in_loop = true;
        std::set<size_t> loads;
        for (int r : source_registers(f.code[i])) loads_feeding(f, rd, i, r, 4, loads);
        for (size_t j : loads) {
            // One trip's data: the load in a loop of the math's, or both outside every loop
            // (a filter of a width fixed at compile time, unrolled completely).
            if (!cf.share_loop(i, j) && (cf.in_loop(i) || cf.in_loop(j))) continue;
            if (is_shared_load(f.code[j])) out.shared_in_loop = true;  // LD, generic, may be shared
            if (is_shared_load(f.code[j]) && is_tensor_math(f.code[i])) out.tensor_shared_in_loop = true;
            if (is_global_load(f.code[j], false)) out.global_in_loop = true;
            if (is_global_load(f.code[j], false) && flow.lane_global_load_at[j]) out.lane_global_in_loop = true;
        }
    }
    return out;
}

// ---------------------------------------------------------------------------------------
// Tests of the block size
// ---------------------------------------------------------------------------------------
//
// blockDim.x, .y and .z are words 0, 1 and 2 of constant bank 0 from sm_75 to sm_90, and
// bytes 0x360–0x368 of it on sm_100 and sm_120 (read as an operand, or by LDC, ULDC or LDCU
// into a register); SR_NTID is the
// special register that holds them too. A value computed from them and immediates alone
// is the block size's: a comparison of it is a run-time test of the block size, which a
// kernel with the block size a template parameter does not need.

bool is_block_size_operand(const std::string& o, const std::string& arch) {
    if (starts_with(o, "SR_NTID")) return true;
    // sm_100 and later (sm_120 among them) keep the launch's dimensions higher in bank 0:
    // blockDim at 0x360–0x368, gridDim at 0x370–0x378.
    const int sm = starts_with(arch, "sm_") ? std::atoi(arch.c_str() + 3) : 0;
    const char* const modern[] = {"c[0x0][0x360]", "c[0x0][0x364]", "c[0x0][0x368]"};
    // Before, words 0–2; sm_90 prints word 0 as "c[0x0][RZ]" where an LDC reads it.
    const char* const older[] = {"c[0x0][0x0]", "c[0x0][RZ]", "c[0x0][URZ]", "c[0x0][0x4]", "c[0x0][0x8]"};
    if (sm >= 100) {
        for (const char* w : modern)
            if (o.find(w) != std::string::npos) return true;
        return false;
    }
    for (const char* w : older)
        if (o.find(w) != std::string::npos) return true;
    return false;
}

// Whether the value of instruction `i`'s operands (all of them, but the destination)
// depends on the block size and on nothing else but immediates. `depth` bounds the walk back.
bool block_size_alone(const SassFunction& f, const Reaching& rd, size_t i, int depth) {
    const SassInstruction& in = f.code[i];
    size_t d = 0;
    const bool writes = destination_of(in, d) >= 0;
    size_t first = writes ? d + 1 : 0;
    // A comparison writes predicates first: "ISETP.GE.U32.AND P0, PT, R3, 0x200, PT".
    if (!writes) while (first < in.operands.size() && is_predicate(in.operands[first])) ++first;
    if (base_of(in.opcode) == "S2R" || base_of(in.opcode) == "S2UR") return first < in.operands.size() && starts_with(in.operands[first], "SR_NTID");
    if (result_is_data(base_of(in.opcode)) && base_of(in.opcode) != "LDC" && base_of(in.opcode) != "ULDC" &&
        base_of(in.opcode) != "LDCU")
        return false;
    bool size = false;
    for (size_t k = first; k < in.operands.size(); ++k) {
        const std::string& o = in.operands[k];
        long long v = 0;
        if (is_predicate(o) || immediate_of(o, v) || register_of(o) == kZero) continue;
        if (is_block_size_operand(o, f.arch)) {
            size = true;
            continue;
        }
        const int r = register_of(o);
        if (r < 0 || depth == 0) return false;  // another constant (a parameter), a float, an address
        const auto it = rd.at[i].find(r);
        if (it == rd.at[i].end() || it->second.empty()) return false;
        for (int def : it->second)
            if (!block_size_alone(f, rd, size_t(def), depth - 1)) return false;
        size = true;
    }
    return size;
}

// Whether some comparison (ISETP, UISETP) tests the block size alone.
bool tests_block_size(const SassFunction& f, const Reaching& rd) {
    for (size_t i = 0; i < f.code.size(); ++i) {
        const std::string b = base_of(f.code[i].opcode);
        if ((b == "ISETP" || b == "UISETP") && block_size_alone(f, rd, i, 4)) return true;
    }
    return false;
}

// ---------------------------------------------------------------------------------------
// Aggregation in the loop that reads the input
// ---------------------------------------------------------------------------------------

// Whether, in every loop with a global load in it (the loop that reads the bytes), most
// shared atomics are aggregated ones: at a lane-dependent address, or of a computed amount;
// or the loop matches the lanes' values (MATCH.ANY). Most, not all: counting runs in
// registers unrolled over 16 bytes leaves one add of a constant 1, the first byte's run
// known to be 1 where the compiler peeled it. A loop of plain atomics (the fake's path, a
// tile kept only in a branch never taken) counts the bulk of the bytes without the technique.
bool input_loops_aggregate(const SassFunction& f, const ControlFlow& cf, const Flow& flow) {
    for (const NaturalLoop& l : cf.loops) {
        bool reads = false, match = false;
        std::vector<size_t> atomics;
        for (size_t i = 0; i < f.code.size(); ++i) {
            if (!l.body[cf.block_of[i]]) continue;
            const SassInstruction& in = f.code[i];
            reads |= is_global_load(in, false);
            match |= starts_with(in.opcode, "MATCH.ANY");
            if (base_of(in.opcode) == "ATOMS") atomics.push_back(i);
        }
        if (!reads || match) continue;
        size_t plain = 0;
        for (size_t i : atomics) plain += !flow.lane_indexed_at[i] && !flow.merged_at[i];
        if (2 * plain > atomics.size()) return false;
    }
    return true;
}

// cp.async's waits: cp.async.wait_group N compiles to DEPBAR.LE SB0, N (after LDGDEPBAR,
// cp.async.commit_group), from sm_80 to sm_120. N ≥ 1 leaves the newest N groups in flight
// while the code after the wait runs: the pipeline. cp.async.wait_all and wait_group 0 wait
// for every copy.
bool waits_leaving_copies_in_flight(const SassInstruction& in) {
    if (!starts_with(in.opcode, "DEPBAR.LE") || in.operands.size() < 2 || !starts_with(in.operands[0], "SB")) return false;
    const std::string& n = in.operands[1];
    return std::strtol(n.c_str(), nullptr, 0) >= 1;
}

struct TraitInfo {
    Trait trait;
    const char* name;
    const char* has;   // "reads __constant__ memory", as in "no kernel reads …"
    const char* lacks; // what a kernel without it lacks, as in "kernel K lacks …"
};

const TraitInfo kTraits[] = {
    {Trait::constant_bank, "constant-bank", "reads __constant__ memory",
     "reads nothing from __constant__ memory (no operand from constant bank 3)"},
    {Trait::no_device_array_load, "no-device-array-load", "reads no __device__ variable",
     "loads from a __device__ variable in global memory (its address comes from constant bank 4)"},
    {Trait::shared_store, "shared-store", "stores to shared memory", "stores nothing to shared memory"},
    {Trait::barrier, "barrier", "waits at a block-wide barrier", "has no block-wide barrier (__syncthreads)"},
    {Trait::shared_load_after_barrier, "shared-load-after-barrier", "loads from shared memory after a barrier",
     "loads nothing from shared memory after a barrier"},
    {Trait::global_load_after_barrier, "global-load-after-barrier", "loads from global memory after its barrier",
     "loads nothing from global memory after its barrier"},
    {Trait::no_global_load_after_last_barrier, "no-global-load-after-last-barrier",
     "reads only shared memory after its last barrier", "still loads from global memory after its last barrier"},
    {Trait::no_lane_global_load_after_last_barrier, "no-lane-global-load-after-last-barrier",
     "reads no value that varies across a warp from global memory after its last barrier",
     "still loads pixels from global memory after its last barrier (at addresses that differ between a warp's lanes)"},
    {Trait::tile_loop, "tile-loop", "loops over tiles, with a barrier and shared loads in the loop",
     "has no loop with a barrier and shared-memory loads in it"},
    {Trait::no_barrier_in_loop, "no-barrier-in-loop", "has no barrier inside a loop",
     "waits at a block-wide barrier inside a loop"},
    {Trait::lane_indexed_shared_atomic, "lane-indexed-shared-atomic",
     "has a shared-memory atomic at an address that depends on the lane",
     "has no shared-memory atomic at an address that depends on the lane"},
    {Trait::merged_shared_add, "merged-shared-add", "adds a computed count to a shared word in one atomic",
     "adds no computed count to a shared word (every shared atomic adds a constant)"},
    {Trait::match_any, "match-any", "calls __match_any_sync", "calls no __match_any_sync"},
    {Trait::shared_fed_math, "shared-fed-math",
     "computes in a loop with values it loads from shared memory in that loop",
     "computes with no value loaded from shared memory in the same loop (the loop's math reads no tile)"},
    {Trait::no_global_fed_math, "no-global-fed-math",
     "computes in its loops with no value loaded from global memory in the same loop",
     "still computes in a loop with values it loads from global memory in that loop"},
    {Trait::no_lane_global_fed_math, "no-lane-global-fed-math",
     "computes in its loops with no value it loads from global memory, lane by lane, in the same loop",
     "still computes in a loop with values it loads from global memory in that loop, a different address for each lane"},
    {Trait::no_block_size_test, "no-block-size-test", "tests the block size nowhere at run time",
     "tests the block size at run time (a comparison of blockDim alone)"},
    {Trait::aggregated_input_loop, "aggregated-input-loop",
     "aggregates every shared atomic of the loop that reads the input",
     "counts bytes in its input loop with plain shared atomics, not aggregated ones"},
    {Trait::tensor_math, "tensor-math", "computes on the tensor cores (HMMA or HGMMA instructions)",
     "computes nothing on the tensor cores (no HMMA: no wmma::mma_sync or mma.sync)"},
    {Trait::shared_fed_tensor_math, "shared-fed-tensor-math",
     "feeds its tensor-core products in a loop with values it loads from shared memory in that loop",
     "feeds no tensor-core product in a loop from shared memory (its fragments come from global memory or registers)"},
    {Trait::async_copy, "async-copy", "copies from global to shared memory asynchronously (cp.async)",
     "has no asynchronous copy from global to shared memory (no cp.async: LDGSTS)"},
    {Trait::async_wait_in_flight, "async-wait-in-flight",
     "waits for its asynchronous copies leaving a group in flight (cp.async.wait_group N, N ≥ 1)",
     "never waits for its copies with a group left in flight (no cp.async.wait_group N with N ≥ 1)"},
    {Trait::warp_exchange, "warp-exchange", "passes values between the lanes of a warp in registers",
     "passes no value between lanes in registers (no __shfl_*_sync, __reduce_*_sync or cooperative-groups reduce)"},
};

const TraitInfo& info(Trait t) {
    for (const TraitInfo& i : kTraits)
        if (i.trait == t) return i;
    return kTraits[0];
}

}  // namespace

const char* trait_name(Trait t) { return info(t).name; }
const char* trait_has(Trait t) { return info(t).has; }
const char* trait_lacks(Trait t) { return info(t).lacks; }

bool trait_from_name(const std::string& name, Trait& t) {
    for (const TraitInfo& i : kTraits)
        if (name == i.name) {
            t = i.trait;
            return true;
        }
    return false;
}

std::vector<Trait> function_traits(const SassFunction& f) {
    const std::vector<Loop> loops = loops_of(f);
    auto in_loop = [&](unsigned a) {
        for (const Loop& l : loops)
            if (a >= l.first && a <= l.last) return true;
        return false;
    };
    bool constant = false, store = false, barrier = false, match = false, barrier_in_loop = false, tile_loop = false;
    bool exchange = false, tensor = false, async_copy = false, async_wait = false;
    long first_barrier = -1, last_barrier = -1;
    for (const SassInstruction& in : f.code) {
        tensor |= is_tensor_math(in);
        async_copy |= base_of(in.opcode) == "LDGSTS";
        async_wait |= waits_leaving_copies_in_flight(in);
        constant |= reads_bank(in, "0x3");
        store |= is_shared_store(in);
        match |= starts_with(in.opcode, "MATCH.ANY");
        // __shfl_*_sync is a SHFL; __reduce_*_sync (and cooperative groups' reduce on
        // integers, from sm_80) a REDUX; both keep the warp's values in registers.
        exchange |= starts_with(in.opcode, "SHFL.") || starts_with(in.opcode, "REDUX");
        if (is_barrier(in)) {
            barrier = true;
            if (first_barrier < 0) first_barrier = long(in.address);
            last_barrier = long(in.address);
            barrier_in_loop |= in_loop(in.address);
        }
    }
    for (const Loop& l : loops) {
        bool bar = false, load = false;
        for (const SassInstruction& in : f.code)
            if (in.address >= l.first && in.address <= l.last) bar |= is_barrier(in), load |= is_shared_load(in);
        tile_loop |= bar && load;
    }
    const ControlFlow cf = control_flow(f);
    const Flow flow = data_flow(f, cf);
    bool shared_after = false, global_after = false, global_after_last = false, lane_global_after_last = false;
    for (size_t i = 0; i < f.code.size(); ++i) {
        const SassInstruction& in = f.code[i];
        if (first_barrier >= 0 && long(in.address) > first_barrier) {
            shared_after |= is_shared_load(in);
            global_after |= is_global_load(in, true);  // a generic load may be the halo's
        }
        // A generic load may be the tile's, in shared memory: it does not count against.
        if (last_barrier >= 0 && long(in.address) > last_barrier && is_global_load(in, false)) {
            global_after_last = true;
            lane_global_after_last |= flow.lane_global_load_at[i];
        }
    }
    const Reaching rd = reaching_definitions(f, cf);
    const MathOperands math = math_operands(f, cf, rd, flow);
    std::vector<Trait> out;
    if (constant) out.push_back(Trait::constant_bank);
    if (!flow.device_array_load) out.push_back(Trait::no_device_array_load);
    if (store) out.push_back(Trait::shared_store);
    if (barrier) out.push_back(Trait::barrier);
    if (shared_after) out.push_back(Trait::shared_load_after_barrier);
    if (global_after) out.push_back(Trait::global_load_after_barrier);
    if (barrier && !global_after_last) out.push_back(Trait::no_global_load_after_last_barrier);
    if (barrier && !lane_global_after_last) out.push_back(Trait::no_lane_global_load_after_last_barrier);
    if (tile_loop) out.push_back(Trait::tile_loop);
    if (!barrier_in_loop) out.push_back(Trait::no_barrier_in_loop);
    if (flow.lane_indexed_shared_atomic) out.push_back(Trait::lane_indexed_shared_atomic);
    if (flow.merged_shared_add) out.push_back(Trait::merged_shared_add);
    if (match) out.push_back(Trait::match_any);
    if (exchange) out.push_back(Trait::warp_exchange);
    if (math.shared_in_loop) out.push_back(Trait::shared_fed_math);
    if (!math.global_in_loop) out.push_back(Trait::no_global_fed_math);
    if (!math.lane_global_in_loop) out.push_back(Trait::no_lane_global_fed_math);
    if (!tests_block_size(f, rd)) out.push_back(Trait::no_block_size_test);
    if (input_loops_aggregate(f, cf, flow)) out.push_back(Trait::aggregated_input_loop);
    if (tensor) out.push_back(Trait::tensor_math);
    if (math.tensor_shared_in_loop) out.push_back(Trait::shared_fed_tensor_math);
    if (async_copy) out.push_back(Trait::async_copy);
    if (async_wait) out.push_back(Trait::async_wait_in_flight);
    return out;
}

// ---------------------------------------------------------------------------------------
// Rules
// ---------------------------------------------------------------------------------------

std::vector<TechniqueRule> parse_technique_rules(const std::string& text, const std::string& origin) {
    std::vector<TechniqueRule> rules;
    std::stringstream ss(text);
    std::string line;
    int number = 0;
    auto fail = [&](const std::string& why) {
        throw std::invalid_argument(origin + ":" + std::to_string(number) + ": " + why);
    };
    auto finish = [&]() {
        if (rules.empty()) return;
        const TechniqueRule& r = rules.back();
        if (r.kernel.empty() && r.every_kernel.empty())
            throw std::invalid_argument(origin + ": the rule of " + r.exercise + " asks for no trait");
    };
    while (std::getline(ss, line)) {
        ++number;
        const std::string t = trim(line);
        if (t.empty() || t[0] == '#') continue;
        if (t[0] == '[') {
            if (t.back() != ']') fail("a section is [EXERCISE FILE], e.g. [04.2 2_halo_tile.cu]");
            std::stringstream head(t.substr(1, t.size() - 2));
            TechniqueRule r;
            std::string extra;
            head >> r.exercise >> r.file >> extra;
            if (r.exercise.empty() || r.file.empty() || !extra.empty())
                fail("a section is [EXERCISE FILE], e.g. [04.2 2_halo_tile.cu]");
            finish();
            rules.push_back(r);
            continue;
        }
        const size_t sp = t.find_first_of(" \t");
        const std::string key = t.substr(0, sp), value = sp == std::string::npos ? "" : trim(t.substr(sp));
        if (rules.empty()) fail("'" + key + "' before any [EXERCISE FILE] section");
        TechniqueRule& r = rules.back();
        if (key == "theory") {
            r.section = value;
        } else if (key == "hint") {
            r.hint += (r.hint.empty() ? "" : " ") + value;
        } else if (key == "kernel" || key == "every-kernel") {
            std::stringstream words(value);
            std::string w;
            std::vector<Trait> traits;
            while (words >> w) {
                Trait tr;
                if (!trait_from_name(w, tr)) fail("unknown trait '" + w + "'");
                traits.push_back(tr);
            }
            if (traits.empty()) fail("'" + key + "' names no trait");
            if (key == "kernel") r.kernel.push_back(traits);
            else r.every_kernel.insert(r.every_kernel.end(), traits.begin(), traits.end());
        } else if (key == "from") {
            char* end = nullptr;
            const long sm = starts_with(value, "sm_") ? std::strtol(value.c_str() + 3, &end, 10) : 0;
            if (sm <= 0 || !end || *end) fail("'from' names an architecture: from sm_80");
            r.from_sm = int(sm);
        } else {
            fail("unknown keyword '" + key + "' (theory, hint, kernel, every-kernel, from)");
        }
    }
    finish();
    return rules;
}

std::string kernel_display_name(const std::string& mangled) {
    int status = 0;
    char* d = abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status);
    std::string s = status == 0 && d ? d : mangled;
    std::free(d);
    for (size_t p; (p = s.find("(anonymous namespace)::")) != std::string::npos;) s.erase(p, 23);
    // The parameters: from the first '(' outside template arguments.
    int depth = 0;
    for (size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '<') ++depth;
        if (s[i] == '>') --depth;
        if (s[i] == '(' && depth == 0 && i > 0) {
            s.erase(i);
            break;
        }
    }
    // A function template's name carries its return type: "void f<256u, float>".
    if (starts_with(s, "void ")) s.erase(0, 5);
    return s;
}

bool rule_applies(const TechniqueRule& rule, const std::string& exercise) { return exercise_matches(rule.exercise, exercise); }

std::string join_words(const std::vector<std::string>& items, const std::string& last) {
    std::string s;
    for (size_t i = 0; i < items.size(); ++i)
        s += (i == 0 ? "" : i + 1 == items.size() ? " " + last + " " : ", ") + items[i];
    return s;
}

std::string some_names(const std::vector<std::string>& names) {
    std::vector<std::string> shown(names.begin(), names.begin() + std::min<size_t>(names.size(), 3));
    if (names.size() > 3) shown.push_back(std::to_string(names.size() - 3) + " more");
    return join_words(shown, "and");
}

std::vector<Trait> traits_worth_naming(const std::vector<Trait>& missing) {
    const bool no_barrier = std::find(missing.begin(), missing.end(), Trait::barrier) != missing.end();
    std::vector<Trait> out;
    for (Trait t : missing)
        if (!no_barrier || (t != Trait::shared_load_after_barrier && t != Trait::global_load_after_barrier &&
                            t != Trait::no_global_load_after_last_barrier &&
                            t != Trait::no_lane_global_load_after_last_barrier))
            out.push_back(t);
    return out;
}

std::vector<SassFunction> functions_for_rule(const TechniqueRule& rule, const std::vector<SassFunction>& functions) {
    std::vector<SassFunction> out;
    for (const SassFunction& f : functions) {
        const int sm = starts_with(f.arch, "sm_") ? std::atoi(f.arch.c_str() + 3) : 0;
        if (sm >= rule.from_sm) out.push_back(f);
    }
    return out;
}

std::string check_technique_rule(const TechniqueRule& rule, const std::vector<SassFunction>& all) {
    if (all.empty()) return rule.file + " holds no kernel";
    // Code for an architecture older than the rule's: the exercise does not run there.
    const std::vector<SassFunction> functions = functions_for_rule(rule, all);
    if (functions.empty()) return "";
    std::vector<std::vector<Trait>> traits;
    for (const SassFunction& f : functions) traits.push_back(function_traits(f));
    auto has = [&](size_t k, Trait t) { return std::find(traits[k].begin(), traits[k].end(), t) != traits[k].end(); };
    std::vector<std::string> problems;

    if (!rule.kernel.empty()) {
        bool met = false;
        size_t best_kernel = 0;
        std::vector<Trait> best_missing;
        for (const std::vector<Trait>& alt : rule.kernel)
            for (size_t k = 0; k < functions.size() && !met; ++k) {
                std::vector<Trait> missing;
                for (Trait t : alt)
                    if (!has(k, t)) missing.push_back(t);
                met = missing.empty();
                if (&alt == &rule.kernel.front() && (k == 0 || missing.size() < best_missing.size()))
                    best_kernel = k, best_missing = missing;
            }
        if (!met) {
            if (rule.kernel.size() > 1) {
                // Alternatives: say what each would have needed.
                std::vector<std::string> wants;
                for (const std::vector<Trait>& alt : rule.kernel) {
                    std::vector<std::string> w;
                    for (Trait t : alt) w.push_back(info(t).has);
                    wants.push_back(join_words(w, "and"));
                }
                problems.push_back("no kernel " + join_words(wants, "or"));
            } else {
                std::vector<std::string> w;
                for (Trait t : traits_worth_naming(best_missing)) w.push_back(info(t).lacks);
                const std::string who = "kernel " + kernel_display_name(functions[best_kernel].name);
                problems.push_back(functions.size() > 1 ? "no kernel has it all: " + who + ", the closest, " + join_words(w, "and")
                                                        : who + " " + join_words(w, "and"));
            }
        }
    }
    for (Trait t : rule.every_kernel) {
        std::vector<std::string> names;
        for (size_t k = 0; k < functions.size(); ++k) {
            const std::string name = kernel_display_name(functions[k].name);  // once, whatever the architectures
            if (!has(k, t) && std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
        }
        if (names.size() == 1) problems.push_back("kernel " + names[0] + " " + info(t).lacks);
        else if (!names.empty()) problems.push_back("kernels " + some_names(names) + ": each " + info(t).lacks);
    }
    if (problems.empty()) return "";
    return "in " + rule.file + ", " + join_words(problems, "and");
}

// ---------------------------------------------------------------------------------------
// The supervisor's side
// ---------------------------------------------------------------------------------------

namespace {

bool executable(const std::string& path) {
    struct stat st {};
    return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(path.c_str(), X_OK) == 0;
}

std::string on_path(const std::string& tool) {
    const char* p = std::getenv("PATH");
    std::stringstream ss(p ? p : "");
    std::string dir;
    while (std::getline(ss, dir, ':'))
        if (!dir.empty() && executable(dir + "/" + tool)) return dir + "/" + tool;
    return "";
}

std::string quoted(const std::string& s) {
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

// Runs a command; its stdout into `out`, its exit status returned (-1 when it did not run).
int run(const std::string& command, std::string& out) {
    FILE* p = popen(command.c_str(), "r");
    if (!p) return -1;
    char buf[8192];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
    const int status = pclose(p);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string mangled_path(const std::string& path) {
    std::string s = path;
    std::replace(s.begin(), s.end(), '/', '_');
    return s;
}


}  // namespace

std::string find_cuobjdump() {
    std::string found = on_path("cuobjdump");
    if (!found.empty()) return found;
    // nvcc's folder: a toolkit whose bin/ is not on PATH but whose nvcc was found another way.
    const std::string nvcc = on_path("nvcc");
    if (!nvcc.empty()) {
        char* real = realpath(nvcc.c_str(), nullptr);
        std::string dir = real ? real : nvcc;
        std::free(real);
        dir = dir.substr(0, dir.find_last_of('/'));
        if (executable(dir + "/cuobjdump")) return dir + "/cuobjdump";
    }
    for (const char* var : {"CUDA_HOME", "CUDA_PATH"}) {
        const char* v = std::getenv(var);
        if (v && *v && executable(std::string(v) + "/bin/cuobjdump")) return std::string(v) + "/bin/cuobjdump";
    }
    if (executable("/usr/local/cuda/bin/cuobjdump")) return "/usr/local/cuda/bin/cuobjdump";
    return "";
}

std::string find_student_object(const std::string& objects_dir, const std::string& source) {
    DIR* d = opendir(objects_dir.c_str());
    if (!d) return "";
    std::vector<std::string> names;
    for (dirent* e; (e = readdir(d));) {
        const std::string name = e->d_name;
        if (name.size() > 2 && name.compare(name.size() - 2, 2, ".o") == 0) names.push_back(name);
    }
    closedir(d);
    // Meson names the object after the source's path as it was given, '/' turned into '_':
    // "_work_main_solutions_04-convolution_1_constant_filter.cu.o" for an absolute path,
    // "lessons_04-convolution_bad_x.cu.o" for one inside the project. Either is a suffix of
    // the absolute path so turned, starting after a '_'; the longest such suffix wins.
    const std::string want = mangled_path(source);
    std::string best;
    for (const std::string& name : names) {
        const std::string stem = name.substr(0, name.size() - 2);
        if (stem.size() > want.size() || want.compare(want.size() - stem.size(), stem.size(), stem) != 0) continue;
        if (stem.size() < want.size() && want[want.size() - stem.size() - 1] != '_') continue;
        if (stem.size() + 2 > best.size()) best = name;
    }
    if (best.empty()) {
        // A source named by a path the build did not use (a link, say): the one object of
        // the same file name, if only one has it.
        const std::string base = "_" + source.substr(source.find_last_of('/') + 1) + ".o";
        for (const std::string& name : names)
            if (name == base.substr(1) || (name.size() > base.size() && name.compare(name.size() - base.size(), base.size(), base) == 0)) {
                if (!best.empty()) return "";
                best = name;
            }
    }
    return best.empty() ? "" : objects_dir + "/" + best;
}

bool TechniqueReport::is_unchecked(const std::string& exercise) const {
    for (const std::string& e : unchecked)
        if (exercise_matches(e, exercise)) return true;
    return false;
}

TechniqueReport check_techniques(const TechniqueRequest& request) {
    TechniqueReport report;
    std::string text, why;
    if (!read_text_file(request.rules, text, &why))
        throw std::runtime_error("cannot read the technique rules " + request.rules + ": " + why);
    const std::vector<TechniqueRule> rules = parse_technique_rules(text, request.rules);
    for (const TechniqueRule& r : rules) report.exercises.push_back(r.exercise);
    if (rules.empty()) return report;
    const std::string& tool = request.cuobjdump;
    if (tool.empty()) {
        report.unchecked = report.exercises;
        report.not_checked = "cuobjdump, of the CUDA toolkit, not found on PATH, beside nvcc, in $CUDA_HOME/bin, "
                             "$CUDA_PATH/bin or /usr/local/cuda/bin";
        return report;
    }
    // Each source the rules name, disassembled once; all of them at once, as cuobjdump takes a
    // few tenths of a second an object (the check took up to 1.3 s a lesson one after another, #19).
    std::map<std::string, std::string> source_of;  // rule file -> its path
    for (const TechniqueRule& r : rules)
        for (const auto& [file, path] : request.files)
            if (file == r.file) source_of[r.file] = path;
    struct Disassembly {
        std::string trouble;
        std::vector<SassFunction> sass;
    };
    std::map<std::string, std::future<Disassembly>> pending;  // per source
    for (const auto& [file, source] : source_of) {
        if (pending.count(source)) continue;
        pending[source] = std::async(std::launch::async, [&, file = file, source = source] {
            Disassembly d;
            const std::string object = find_student_object(request.objects_dir, source);
            std::string out;
            if (object.empty()) d.trouble = "no compiled object of " + file + " in " + request.objects_dir;
            else if (run(quoted(tool) + " -sass " + quoted(object) + " 2>/dev/null", out) != 0)
                d.trouble = "cuobjdump could not read " + object;
            else d.sass = parse_sass(out);
            return d;
        });
    }
    std::map<std::string, Disassembly> done;
    for (auto& [source, f] : pending) done[source] = f.get();
    std::vector<std::string> troubles;
    for (const TechniqueRule& r : rules) {
        const auto it = source_of.find(r.file);
        const std::string trouble = it == source_of.end() ? r.file + " is not among the lesson's files" : done[it->second].trouble;
        if (!trouble.empty()) {
            report.unchecked.push_back(r.exercise);
            troubles.push_back(r.exercise + ": " + trouble);
            continue;
        }
        const std::vector<SassFunction>& sass = done[it->second].sass;
        const std::string theory =
            request.theory.empty() ? "" : "read " + request.theory + (r.section.empty() ? "" : ", section \"" + r.section + "\"");
        report.checked.push_back({r, sass, theory});  // for the judgement on what ran (technique_ran.hpp)
        const std::string missing = check_technique_rule(r, sass);
        if (!missing.empty()) {
            TechniqueReport::Finding f;
            f.exercise = r.exercise;
            f.message = missing;
            f.hint = r.hint;
            f.theory = theory;
            report.findings.push_back(f);
        }
    }
    for (const std::string& t : troubles) report.not_checked += (report.not_checked.empty() ? "" : "; ") + t;
    return report;
}

void fail_for_technique(Verdict& v, const std::string& missing, const std::string& hint, const std::string& theory) {
    const std::string measured = v.message.empty() ? "" : " (it passed as run: " + v.message + ")";
    v.verdict = "FAIL";
    v.reason = Reason::technique;
    v.message = "correct, but not with this exercise's technique: " + missing + measured;
    v.hint = hint;
    v.theory = theory;
    v.note.clear();
}

bool apply_technique(const TechniqueReport& report, Verdict& v) {
    if (v.verdict != "PASS") return false;
    for (const TechniqueReport::Finding& f : report.findings) {
        if (!exercise_matches(f.exercise, v.exercise)) continue;
        fail_for_technique(v, f.message, f.hint, f.theory);
        return true;
    }
    return false;
}

}  // namespace grader
