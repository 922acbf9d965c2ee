// SPDX-License-Identifier: MIT
#include "grader/kernels_ran.hpp"

#include <algorithm>
#include <cstdlib>
#include <sstream>

#include "grader/json.hpp"

namespace grader {

int KernelsRan::calls() const {
    int n = 0;
    for (const KernelSet& s : sets) n += s.calls;
    return n;
}

void KernelsRan::add_call(std::vector<std::string> kernels) {
    std::sort(kernels.begin(), kernels.end());
    kernels.erase(std::unique(kernels.begin(), kernels.end()), kernels.end());
    for (KernelSet& s : sets)
        if (s.kernels == kernels) {
            ++s.calls;
            return;
        }
    sets.push_back({std::move(kernels), 1});
}

void KernelsRan::fail(const std::string& why) {
    if (!note.empty()) return;
    recorded = false;
    note = why;
    sets.clear();
}

std::vector<std::vector<std::string>> kernels_in_windows(const std::vector<Activity>& records,
                                                         const std::vector<TraceWindow>& windows) {
    std::vector<std::vector<std::string>> out(windows.size());
    for (const Activity& a : records) {
        if (a.kind != Activity::Kind::kernel) continue;
        for (size_t w = 0; w < windows.size(); ++w)
            if (windows[w].holds(a.start_ns)) {
                out[w].push_back(a.name);
                break;
            }
    }
    for (std::vector<std::string>& names : out) {
        std::sort(names.begin(), names.end());
        names.erase(std::unique(names.begin(), names.end()), names.end());
    }
    return out;
}

void add_traced_calls(KernelsRan& ran, const std::vector<Activity>& records, const std::string& error, uint64_t dropped,
                      const std::vector<TraceWindow>& windows) {
    if (!ran.note.empty()) return;  // incomplete already
    if (!error.empty()) return ran.fail(error);
    if (dropped > 0) return ran.fail("CUPTI dropped " + std::to_string(dropped) + " records (its buffers were full)");
    if (windows.empty()) return;
    const bool any_kernel = std::any_of(records.begin(), records.end(), [](const Activity& a) { return a.kind == Activity::Kind::kernel; });
    // The grader's own kernels make every call's inputs and check its outputs: a trace without
    // a single kernel recorded nothing at all, whatever the calls did.
    if (!any_kernel) return ran.fail("CUPTI recorded no kernel, not even the grader's own");
    for (std::vector<std::string>& names : kernels_in_windows(records, windows)) ran.add_call(std::move(names));
    ran.recorded = true;
}

std::string kernel_set_text(const KernelSet& s) {
    std::string t = std::to_string(s.calls);
    for (const std::string& k : s.kernels) t += " " + k;
    return t;
}

bool kernel_set_from_text(const std::string& text, KernelSet& s) {
    std::stringstream in(text);
    std::string count;
    if (!(in >> count) || count.find_first_not_of("0123456789") != std::string::npos || count.size() > 9) return false;
    s = KernelSet();
    s.calls = std::atoi(count.c_str());
    for (std::string name; in >> name;) s.kernels.push_back(name);
    return s.calls > 0 && std::is_sorted(s.kernels.begin(), s.kernels.end()) &&
           std::adjacent_find(s.kernels.begin(), s.kernels.end()) == s.kernels.end();
}

std::string kernels_ran_json(const KernelsRan& ran) {
    std::string sets;
    for (const KernelSet& s : ran.sets) {
        std::string names;
        for (const std::string& k : s.kernels) names += (names.empty() ? "\"" : ", \"") + json_escape(k) + "\"";
        JsonObject o;
        o.add("calls", s.calls).add_raw("kernels", "[" + names + "]");
        sets += (sets.empty() ? "" : ", ") + o.str();
    }
    JsonObject o;
    o.add("recorded", ran.recorded).add("note", ran.note).add_raw("sets", "[" + sets + "]");
    return o.str();
}

}  // namespace grader
