// SPDX-License-Identifier: MIT
#include "grader/common/kernels_ran.hpp"

#include <algorithm>
#include <cstdlib>
#include <sstream>

#include "grader/common/json.hpp"

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
