// SPDX-License-Identifier: MIT
#include "grader/exercise/compare.hpp"

#include <cstdio>

namespace grader {

std::string Comparison::describe(const std::function<std::string(size_t)>& where) const {
    if (checked == 0) return "nothing was checked";
    char buf[160];
    std::snprintf(buf, sizeof buf, "%zu of %zu values wrong", wrong, checked);
    std::string s = buf;
    if (unwritten) s += " (" + std::to_string(unwritten) + " never written)";
    if (nan) s += " (" + std::to_string(nan) + " NaN)";
    if (!first.empty()) s += "; first:";
    for (const Mismatch& m : first) {
        s += " " + (where ? where(m.index) : "[" + std::to_string(m.index) + "]");
        std::snprintf(buf, sizeof buf, " expected %.9g", m.expected);
        s += buf;
        if (m.bound >= 0) std::snprintf(buf, sizeof buf, " ± %.3g", m.bound), s += buf;
        if (m.unwritten) s += ", never written;";
        else std::snprintf(buf, sizeof buf, ", got %.9g;", m.got), s += buf;
    }
    if (s.back() == ';') s.pop_back();
    return s;
}

}  // namespace grader
