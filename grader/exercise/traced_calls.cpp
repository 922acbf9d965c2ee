// SPDX-License-Identifier: MIT
#include "grader/exercise/traced_calls.hpp"

#include <algorithm>

namespace grader {

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

}  // namespace grader
