// SPDX-License-Identifier: MIT
#include "grader/common/sealed_report.hpp"

#include <cstdio>
#include <random>
#include <sstream>

#include "grader/common/siphash.hpp"

namespace grader {

namespace {

constexpr const char* kHeader = "cuda-lessons report v1\n";

std::string escape(const std::string& s) {
    std::string out;
    for (char c : s) out += c == '\\' ? "\\\\" : c == '\n' ? "\\n" : std::string(1, c);
    return out;
}

std::string unescape(const std::string& s) {
    std::string out;
    for (size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '\\' && i + 1 < s.size()) {
            ++i;
            out += s[i] == 'n' ? '\n' : s[i];
        } else {
            out += s[i];
        }
    }
    return out;
}

std::string hex(uint64_t v) {
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
    return buf;
}

}  // namespace

Report& Report::add(const std::string& key, const std::string& value) {
    fields_.emplace_back(key, value);
    return *this;
}

std::string Report::get(const std::string& key) const {
    for (const auto& [k, v] : fields_)
        if (k == key) return v;
    return "";
}

std::vector<std::string> Report::all(const std::string& key) const {
    std::vector<std::string> out;
    for (const auto& [k, v] : fields_)
        if (k == key) out.push_back(v);
    return out;
}

std::string Report::seal(const std::array<uint8_t, 16>& key) const {
    std::string body = kHeader;
    for (const auto& [k, v] : fields_) body += k + "=" + escape(v) + "\n";
    return body + "tag=" + hex(siphash24(key, body)) + "\n";
}

Report::Opened Report::open(const std::string& text, const std::array<uint8_t, 16>& key, Report& out) {
    if (text.empty()) return Opened::empty;
    const size_t tag_at = text.rfind("tag=");
    if (text.rfind(kHeader, 0) != 0 || tag_at == std::string::npos || text.size() != tag_at + 4 + 16 + 1 ||
        text.back() != '\n')
        return Opened::malformed;
    const std::string body = text.substr(0, tag_at);
    if (text.compare(tag_at + 4, 16, hex(siphash24(key, body))) != 0) return Opened::forged;
    Report r;
    std::istringstream lines(body.substr(std::string(kHeader).size()));
    std::string line;
    while (std::getline(lines, line)) {
        const size_t eq = line.find('=');
        if (eq == std::string::npos) return Opened::malformed;
        r.add(line.substr(0, eq), unescape(line.substr(eq + 1)));
    }
    out = r;
    return Opened::ok;
}

const char* describe(Report::Opened o) {
    switch (o) {
        case Report::Opened::ok: return "ok";
        case Report::Opened::empty: return "no report";
        case Report::Opened::malformed: return "a malformed report";
        case Report::Opened::forged: return "a report not sealed by the grader (something else wrote the report file)";
    }
    return "?";
}

std::array<uint8_t, 16> random_key() {
    std::random_device rd;  // /dev/urandom on Linux
    std::array<uint8_t, 16> k{};
    for (size_t i = 0; i < k.size(); i += 4) {
        const unsigned v = rd();
        for (size_t b = 0; b < 4; ++b) k[i + b] = uint8_t(v >> (8 * b));
    }
    return k;
}

}  // namespace grader
