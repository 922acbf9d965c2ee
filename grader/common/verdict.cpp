// SPDX-License-Identifier: MIT
#include "grader/common/verdict.hpp"

#include <cstdio>

namespace grader {

namespace {
constexpr Reason kAll[] = {Reason::none,       Reason::wrong,   Reason::bounds, Reason::fault, Reason::slow,
                           Reason::impossible, Reason::untimed, Reason::hang,   Reason::crash, Reason::technique,
                           Reason::outside,    Reason::skipped};
}

const char* to_string(Reason r) {
    switch (r) {
        case Reason::none: return "none";
        case Reason::wrong: return "wrong";
        case Reason::bounds: return "bounds";
        case Reason::fault: return "fault";
        case Reason::slow: return "slow";
        case Reason::impossible: return "impossible";
        case Reason::untimed: return "untimed";
        case Reason::hang: return "hang";
        case Reason::crash: return "crash";
        case Reason::technique: return "technique";
        case Reason::outside: return "outside";
        case Reason::skipped: return "skipped";
    }
    return "none";
}

Reason reason_from_string(const std::string& s) {
    for (Reason r : kAll)
        if (s == to_string(r)) return r;
    return Reason::none;
}

std::string verdict_lines(const Verdict& v) {
    char head[96];
    std::snprintf(head, sizeof head, "%-5s %-28s", v.verdict.c_str(), v.exercise.c_str());
    std::string s = head;
    if (v.verdict == "SKIP") return s + " " + v.message + "\n";
    if (v.verdict == "INFO") return s + " teaching output, not graded\n";
    if (v.verdict == "PASS") {
        s += " " + (v.message.empty() ? std::string("correct") : v.message) + "\n";
        if (!v.note.empty()) s += "      note: " + v.note + "\n";
        return s;
    }
    s += std::string(" [") + to_string(v.reason) + "] " + v.message + "\n";
    if (!v.hint.empty()) s += "      hint: " + v.hint + "\n";
    if (!v.theory.empty()) s += "      " + v.theory + "\n";
    return s;
}

}  // namespace grader
