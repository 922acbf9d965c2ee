// SPDX-License-Identifier: MIT
#include "grader/supervisor/sass_flow.hpp"

#include <cstdlib>
#include <map>
#include <set>
#include <string>

namespace grader {

namespace {

std::string base_of(const std::string& opcode) { return opcode.substr(0, opcode.find('.')); }

bool unconditional(const SassInstruction& in) { return in.guard.empty() || in.guard == "@PT"; }

// Instructions after which control may not go on to the next one.
bool may_not_fall_through(const std::string& base) {
    static const std::set<std::string> kJumps = {"BRA", "BRX", "JMX", "JMP", "EXIT", "RET", "KILL", "BPT"};
    return kJumps.count(base) > 0;
}

// The iterative dominator computation over `n` nodes: dom[b] = {b} ∪ ⋂ dom[p] over the
// nodes p that `from(b)` names (predecessors for dominators, successors for
// post-dominators). Nodes in `roots` start as {themselves}; the rest as every node, and
// those no root reaches keep that, which says nothing false about the others.
std::vector<std::vector<bool>> dominators(size_t n, const std::vector<bool>& is_root,
                                          const std::vector<std::vector<size_t>>& from) {
    std::vector<std::vector<bool>> dom(n, std::vector<bool>(n, true));
    for (size_t b = 0; b < n; ++b)
        if (is_root[b]) dom[b].assign(n, false), dom[b][b] = true;
    for (bool changed = true; changed;) {
        changed = false;
        for (size_t b = 0; b < n; ++b) {
            if (is_root[b]) continue;
            std::vector<bool> d(n, true);
            for (size_t p : from[b])
                for (size_t k = 0; k < n; ++k) d[k] = d[k] && dom[p][k];
            d[b] = true;
            if (d != dom[b]) dom[b] = d, changed = true;
        }
    }
    return dom;
}

}  // namespace

bool sass_branch_target(const SassInstruction& in, unsigned& target) {
    if (base_of(in.opcode) != "BRA" || in.operands.empty()) return false;
    std::string t = in.operands.back();
    if (t.rfind("0x", 0) != 0 || t.size() < 3 || t.find_first_not_of("0123456789abcdefABCDEF", 2) != std::string::npos)
        return false;
    target = unsigned(std::strtoul(t.c_str() + 2, nullptr, 16));
    return true;
}

bool ControlFlow::in_loop(size_t i) const {
    for (const NaturalLoop& l : loops)
        if (l.body[block_of[i]]) return true;
    return false;
}

bool ControlFlow::share_loop(size_t i, size_t j) const {
    for (const NaturalLoop& l : loops)
        if (l.body[block_of[i]] && l.body[block_of[j]]) return true;
    return false;
}

ControlFlow control_flow(const SassFunction& f) {
    ControlFlow cf;
    const std::vector<SassInstruction>& code = f.code;
    if (code.empty()) return cf;
    std::map<unsigned, size_t> at;  // address → index
    for (size_t i = 0; i < code.size(); ++i) at[code[i].address] = i;

    // Blocks.
    std::set<size_t> leaders = {0};
    for (size_t i = 0; i < code.size(); ++i) {
        unsigned t = 0;
        if (sass_branch_target(code[i], t) && at.count(t)) leaders.insert(at[t]);
        if (may_not_fall_through(base_of(code[i].opcode)) && i + 1 < code.size()) leaders.insert(i + 1);
    }
    const std::vector<size_t> starts(leaders.begin(), leaders.end());
    const size_t n = starts.size();
    cf.blocks.resize(n);
    cf.block_of.resize(code.size());
    std::map<size_t, size_t> block_at;  // first instruction → block
    for (size_t k = 0; k < n; ++k) {
        cf.blocks[k].first = starts[k];
        cf.blocks[k].end = k + 1 < n ? starts[k + 1] : code.size();
        block_at[starts[k]] = k;
        for (size_t i = cf.blocks[k].first; i < cf.blocks[k].end; ++i) cf.block_of[i] = k;
    }

    // Edges.
    for (size_t k = 0; k < n; ++k) {
        const SassInstruction& in = code[cf.blocks[k].end - 1];
        const std::string b = base_of(in.opcode);
        std::vector<size_t>& succ = cf.blocks[k].succ;
        bool falls = true;
        unsigned t = 0;
        if (sass_branch_target(in, t)) {
            if (at.count(t)) succ.push_back(block_at[at[t]]);
            // "BRA.U !UP0, 0x80" and "BRA.DIV UR4, 0x…" are conditional without a guard.
            falls = !(unconditional(in) && in.operands.size() == 1);
        } else if (b == "BRX" || b == "JMX") {
            for (size_t j = 0; j < n; ++j) succ.push_back(j);  // an indirect jump: anywhere
            falls = false;
        } else if (b == "EXIT" || b == "RET" || b == "KILL" || b == "BPT" || b == "JMP") {
            falls = !unconditional(in);
        }
        if (falls && k + 1 < n && (succ.empty() || succ.back() != k + 1)) succ.push_back(k + 1);
        for (size_t s : succ) cf.blocks[s].pred.push_back(k);
    }

    // Reachability from the entry.
    cf.reachable.assign(n, false);
    std::vector<size_t> work = {0};
    cf.reachable[0] = true;
    while (!work.empty()) {
        const size_t k = work.back();
        work.pop_back();
        for (size_t s : cf.blocks[k].succ)
            if (!cf.reachable[s]) cf.reachable[s] = true, work.push_back(s);
    }

    // Dominators over the reachable blocks (an unreachable block is a root of its own, so
    // that it dominates nothing it does not reach); post-dominators towards the blocks
    // that end the function (no successor).
    std::vector<std::vector<size_t>> preds(n), succs(n);
    std::vector<bool> entry_roots(n, false), exit_roots(n, false);
    for (size_t k = 0; k < n; ++k) {
        entry_roots[k] = k == 0 || !cf.reachable[k];
        for (size_t p : cf.blocks[k].pred)
            if (cf.reachable[p]) preds[k].push_back(p);
        succs[k] = cf.blocks[k].succ;
        exit_roots[k] = succs[k].empty();
    }
    cf.dom = dominators(n, entry_roots, preds);
    cf.postdom = dominators(n, exit_roots, succs);

    // Natural loops: one per header, the union of its back edges' loops.
    std::map<size_t, size_t> loop_of_header;
    for (size_t u = 0; u < n; ++u) {
        if (!cf.reachable[u]) continue;
        for (size_t h : cf.blocks[u].succ) {
            if (!cf.dominates(h, u)) continue;
            if (!loop_of_header.count(h)) {
                loop_of_header[h] = cf.loops.size();
                cf.loops.push_back({h, std::vector<bool>(n, false)});
                cf.loops.back().body[h] = true;
            }
            std::vector<bool>& body = cf.loops[loop_of_header[h]].body;
            // Walk backwards from u; h, already in the body, stops the walk.
            std::vector<size_t> stack;
            if (!body[u]) body[u] = true, stack.push_back(u);
            while (!stack.empty()) {
                const size_t b = stack.back();
                stack.pop_back();
                for (size_t p : preds[b])
                    if (!body[p]) body[p] = true, stack.push_back(p);
            }
        }
    }
    return cf;
}

}  // namespace grader
