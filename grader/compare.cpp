// SPDX-License-Identifier: MIT
#include "grader/compare.hpp"

#include <cstdio>

namespace grader {

std::string Comparison::describe() const {
    if (checked == 0) return "nothing was checked";
    char buf[160];
    std::snprintf(buf, sizeof buf, "%zu of %zu values wrong", wrong, checked);
    std::string s = buf;
    if (unwritten) s += " (" + std::to_string(unwritten) + " never written)";
    if (nan) s += " (" + std::to_string(nan) + " NaN)";
    if (!first.empty()) s += "; first:";
    for (const Mismatch& m : first) {
        if (m.unwritten) std::snprintf(buf, sizeof buf, " [%zu] expected %.9g, never written;", m.index, m.expected);
        else std::snprintf(buf, sizeof buf, " [%zu] expected %.9g, got %.9g;", m.index, m.expected, m.got);
        s += buf;
    }
    if (s.back() == ';') s.pop_back();
    return s;
}

}  // namespace grader
