// SPDX-License-Identifier: MIT
/// @file
/// @brief Aligned text tables for the teaching output.
#pragma once
#include <string>
#include <vector>

namespace grader {

class Table {
public:
    explicit Table(std::vector<std::string> header) : header_(std::move(header)) {}
    void row(std::vector<std::string> cells) { rows_.push_back(std::move(cells)); }
    /// First column left-aligned, the others right-aligned (they hold numbers).
    std::string str() const;

private:
    std::vector<std::string> header_;
    std::vector<std::vector<std::string>> rows_;
};

/// `value` with `decimals` digits after the point ("—" for NaN: not measured).
std::string fixed(double value, int decimals = 0);

}  // namespace grader
