// SPDX-License-Identifier: MIT
#include "grader/common/json.hpp"

#include <cmath>
#include <cstdio>

namespace grader {

std::string json_escape(const std::string& s) {
    std::string out;
    for (unsigned char c : s) {
        switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\t': out += "\\t"; break;
            default:
                if (c < 0x20) {
                    char buf[8];
                    std::snprintf(buf, sizeof buf, "\\u%04x", c);
                    out += buf;
                } else {
                    out += static_cast<char>(c);
                }
        }
    }
    return out;
}

JsonObject& JsonObject::add(const std::string& key, const std::string& value) {
    items_.emplace_back(key, "\"" + json_escape(value) + "\"");
    return *this;
}

JsonObject& JsonObject::add(const std::string& key, double value) {
    char buf[32];
    if (std::isfinite(value)) std::snprintf(buf, sizeof buf, "%.6g", value);
    else std::snprintf(buf, sizeof buf, "null");  // JSON has no NaN or infinity
    items_.emplace_back(key, buf);
    return *this;
}

JsonObject& JsonObject::add(const std::string& key, long long value) {
    items_.emplace_back(key, std::to_string(value));
    return *this;
}

JsonObject& JsonObject::add(const std::string& key, bool value) {
    items_.emplace_back(key, value ? "true" : "false");
    return *this;
}

JsonObject& JsonObject::add_raw(const std::string& key, const std::string& raw) {
    items_.emplace_back(key, raw);
    return *this;
}

std::string JsonObject::str() const {
    std::string s = "{";
    for (size_t i = 0; i < items_.size(); ++i) {
        if (i) s += ", ";
        s += "\"" + json_escape(items_[i].first) + "\": " + items_[i].second;
    }
    return s + "}";
}

std::string json_string_field(const std::string& json, const std::string& key) {
    std::string needle = "\"" + json_escape(key) + "\": \"";
    size_t at = json.find(needle);
    if (at == std::string::npos) return "";
    std::string out;
    for (size_t i = at + needle.size(); i < json.size(); ++i) {
        if (json[i] == '"') return out;
        if (json[i] == '\\' && i + 1 < json.size()) {
            char n = json[++i];
            out += n == 'n' ? '\n' : n == 't' ? '\t' : n;
        } else {
            out += json[i];
        }
    }
    return out;
}

}  // namespace grader
