// SPDX-License-Identifier: MIT
#include "grader/exercise/table.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace grader {

namespace {
// Display width: count UTF-8 lead bytes only, so "—" and "×" take one column.
size_t width(const std::string& s) {
    return std::count_if(s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; });
}
}  // namespace

std::string Table::str() const {
    std::vector<size_t> w(header_.size(), 0);
    auto widen = [&](const std::vector<std::string>& r) {
        for (size_t i = 0; i < r.size() && i < w.size(); ++i) w[i] = std::max(w[i], width(r[i]));
    };
    widen(header_);
    for (const auto& r : rows_) widen(r);
    auto line = [&](const std::vector<std::string>& r) {
        std::string s = "  ";
        for (size_t i = 0; i < w.size(); ++i) {
            std::string cell = i < r.size() ? r[i] : "";
            std::string pad(w[i] - width(cell), ' ');
            s += i == 0 ? cell + pad : pad + cell;
            if (i + 1 < w.size()) s += "  ";
        }
        return s + "\n";
    };
    std::string out = line(header_);
    size_t total = 0;
    for (size_t x : w) total += x + 2;
    out += "  " + std::string(total - 2, '-') + "\n";
    for (const auto& r : rows_) out += line(r);
    return out;
}

std::string fixed(double value, int decimals) {
    if (std::isnan(value)) return "—";
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
    return buf;
}

}  // namespace grader
