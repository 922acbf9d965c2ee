// SPDX-License-Identifier: MIT
/// @file
/// @brief The one channel from an exercise's process to the supervisor: a list of fields,
///        sealed with a SipHash tag under a key only the grader's start-up code has read.
///
/// The supervisor writes a fresh random key to a file for each process it starts; the
/// process reads and deletes it before any student code runs (settings.hpp). A report
/// that is missing, malformed or sealed with another key is a crash, never a verdict:
/// student code that writes "PASS" to the report file and exits gains nothing.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace grader {

class Report {
public:
    Report& add(const std::string& key, const std::string& value);
    /// The first value of `key`, or "" when absent.
    std::string get(const std::string& key) const;
    /// Every value of `key`, in order (a key may repeat, e.g. one "exercise" per exercise).
    std::vector<std::string> all(const std::string& key) const;
    const std::vector<std::pair<std::string, std::string>>& fields() const { return fields_; }

    /// The text to write: a header line, one "key=value" line per field (backslashes and
    /// newlines escaped), and the tag over everything before it.
    std::string seal(const std::array<uint8_t, 16>& key) const;

    enum class Opened { ok, empty, malformed, forged };
    /// Parses sealed text and checks its tag; `out` is filled only when the result is ok.
    static Opened open(const std::string& text, const std::array<uint8_t, 16>& key, Report& out);

private:
    std::vector<std::pair<std::string, std::string>> fields_;
};

/// Why a report could not be opened, in words for the verdict line.
const char* describe(Report::Opened o);

/// 16 bytes from the operating system's random source.
std::array<uint8_t, 16> random_key();

}  // namespace grader
