// SPDX-License-Identifier: MIT
#include "grader/wildcard.hpp"

#include <cctype>
#include <sstream>

namespace grader {

bool wildcard_match(const std::string& pattern, const std::string& text) {
    // Iterative matching with one backtrack point: the most recent '*'.
    size_t p = 0, t = 0, star = std::string::npos, resume = 0;
    auto same = [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b)); };
    while (t < text.size()) {
        if (p < pattern.size() && (pattern[p] == '?' || same(pattern[p], text[t]))) {
            ++p, ++t;
        } else if (p < pattern.size() && pattern[p] == '*') {
            star = p++, resume = t;
        } else if (star != std::string::npos) {
            p = star + 1, t = ++resume;
        } else {
            return false;
        }
    }
    while (p < pattern.size() && pattern[p] == '*') ++p;
    return p == pattern.size();
}

namespace {
bool any_match(const std::vector<std::string>& filters, const std::string& name) {
    for (const std::string& f : filters) {
        std::stringstream ss(f);
        std::string pattern;
        while (std::getline(ss, pattern, ','))
            if (wildcard_match(pattern, name)) return true;
    }
    return false;
}
}  // namespace

std::vector<std::string> filter_names(const std::vector<std::string>& names, const std::vector<std::string>& include,
                                      const std::vector<std::string>& exclude) {
    std::vector<std::string> kept;
    for (const std::string& n : names)
        if ((include.empty() || any_match(include, n)) && !any_match(exclude, n)) kept.push_back(n);
    return kept;
}

}  // namespace grader
