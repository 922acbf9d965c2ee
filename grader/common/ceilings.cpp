// SPDX-License-Identifier: MIT
#include "grader/common/ceilings.hpp"

#include <cstdio>
#include <sstream>
#include <stdexcept>

namespace grader {

double Ceilings::get(const std::string& key) const {
    auto it = values_.find(key);
    if (it == values_.end()) throw std::out_of_range("ceiling '" + key + "' was not measured in this run");
    return it->second;
}

std::string Ceilings::to_text() const {
    std::string s;
    char buf[64];
    for (const auto& [k, v] : values_) {
        std::snprintf(buf, sizeof buf, "%.9g", v);
        s += (s.empty() ? "" : ";") + k + "=" + buf;
    }
    return s;
}

Ceilings Ceilings::from_text(const std::string& text) {
    Ceilings c;
    std::stringstream ss(text);
    std::string item;
    while (std::getline(ss, item, ';')) {
        auto eq = item.find('=');
        if (eq == std::string::npos || eq == 0) throw std::invalid_argument("ceilings: '" + item + "' is not key=value");
        size_t used = 0;
        double value = 0;
        try {
            value = std::stod(item.substr(eq + 1), &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (used == 0 || eq + 1 + used != item.size()) throw std::invalid_argument("ceilings: '" + item + "' has no number");
        c.set(item.substr(0, eq), value);
    }
    return c;
}

}  // namespace grader
