// SPDX-License-Identifier: MIT
#include <cstdio>
#include <sstream>
#include <stdexcept>

#include "grader/ceilings.hpp"

namespace grader {

std::string Ceilings::to_env() const {
    char buf[160];
    std::snprintf(buf, sizeof buf, "copy_gbs=%.6g;dram_gbs=%.6g;fma_gflops=%.6g", copy_gbs, dram_gbs, fma_gflops);
    return buf;
}

Ceilings Ceilings::from_env(const std::string& text) {
    Ceilings c;
    int got = 0;
    std::stringstream ss(text);
    std::string item;
    while (std::getline(ss, item, ';')) {
        auto eq = item.find('=');
        if (eq == std::string::npos) throw std::invalid_argument("ceilings: '" + item + "' has no '='");
        std::string key = item.substr(0, eq);
        double value = std::stod(item.substr(eq + 1));
        if (key == "copy_gbs") c.copy_gbs = value, got |= 1;
        else if (key == "dram_gbs") c.dram_gbs = value, got |= 2;
        else if (key == "fma_gflops") c.fma_gflops = value, got |= 4;
        else throw std::invalid_argument("ceilings: unknown key '" + key + "'");
    }
    if (got != 7) throw std::invalid_argument("ceilings: incomplete text '" + text + "'");
    return c;
}

}  // namespace grader
