// SPDX-License-Identifier: MIT
/// @file
/// @brief The little JSON the results files need: flat objects, written and read back.
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace grader {

std::string json_escape(const std::string& s);

/// An object whose keys keep the order they were added in.
class JsonObject {
public:
    JsonObject& add(const std::string& key, const std::string& value);
    JsonObject& add(const std::string& key, const char* value) { return add(key, std::string(value)); }
    JsonObject& add(const std::string& key, double value);
    JsonObject& add(const std::string& key, long long value);
    JsonObject& add(const std::string& key, int value) { return add(key, static_cast<long long>(value)); }
    JsonObject& add(const std::string& key, bool value);
    /// `raw` is already JSON (an object or an array).
    JsonObject& add_raw(const std::string& key, const std::string& raw);
    std::string str() const;

private:
    std::vector<std::pair<std::string, std::string>> items_;
};

/// The string value of "key" in a flat JSON object written by JsonObject, or "" when
/// absent.
std::string json_string_field(const std::string& json, const std::string& key);

}  // namespace grader
