// SPDX-License-Identifier: MIT
#include "grader/common/wildcard.hpp"

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

std::vector<std::string> split_commas(const std::string& list) {
    std::vector<std::string> items;
    std::stringstream ss(list);
    std::string item;
    while (std::getline(ss, item, ',')) items.push_back(item);
    return items;
}

namespace {
bool any_match(const std::vector<std::string>& filters, const std::string& name) {
    for (const std::string& f : filters)
        for (const std::string& pattern : split_commas(f))
            if (wildcard_match(pattern, name)) return true;
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
