// SPDX-License-Identifier: MIT
#include "grader/supervisor/policy.hpp"


#include <algorithm>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "grader/common/text_file.hpp"
#include "grader/common/wildcard.hpp"

namespace grader {

namespace {

bool ident_start(char c) {
    const unsigned char u = static_cast<unsigned char>(c);
    return (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || u == '_' || u == '$' || u >= 0x80;  // UTF-8 names too
}
bool ident_char(char c) { return ident_start(c) || (c >= '0' && c <= '9'); }
bool space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }
int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

void append_utf8(std::string& out, unsigned long cp) {
    if (cp < 0x80) {
        out += char(cp);
    } else if (cp < 0x800) {
        out += char(0xC0 | (cp >> 6)), out += char(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += char(0xE0 | (cp >> 12)), out += char(0x80 | ((cp >> 6) & 0x3F)), out += char(0x80 | (cp & 0x3F));
    } else {
        out += char(0xF0 | (cp >> 18)), out += char(0x80 | ((cp >> 12) & 0x3F)), out += char(0x80 | ((cp >> 6) & 0x3F));
        out += char(0x80 | (cp & 0x3F));
    }
}

// Decodes the escape sequence at s[k] == '\\' into `out`; returns the index after it. Decoded,
// "GRADER\x5fSEED" reads as what the program sees.
size_t decode_escape(const std::string& s, size_t k, std::string& out) {
    const size_t n = s.size();
    if (k + 1 >= n) return n;
    const char x = s[k + 1];
    k += 2;
    switch (x) {
        case 'n': out += '\n'; return k;
        case 't': out += '\t'; return k;
        case 'r': out += '\r'; return k;
        case 'a': out += '\a'; return k;
        case 'b': out += '\b'; return k;
        case 'f': out += '\f'; return k;
        case 'v': out += '\v'; return k;
        case 'x': {
            unsigned long v = 0;
            while (k < n && hex_value(s[k]) >= 0) v = v * 16 + hex_value(s[k++]);
            out += char(v & 0xFF);
            return k;
        }
        case 'u':
        case 'U': {
            unsigned long v = 0;
            for (int d = 0; d < (x == 'u' ? 4 : 8) && k < n && hex_value(s[k]) >= 0; ++d) v = v * 16 + hex_value(s[k++]);
            append_utf8(out, v);
            return k;
        }
        default:
            if (x >= '0' && x <= '7') {
                unsigned v = x - '0';
                for (int d = 0; d < 2 && k < n && s[k] >= '0' && s[k] <= '7'; ++d) v = v * 8 + (s[k++] - '0');
                out += char(v & 0xFF);
                return k;
            }
            out += x;  // \\ \" \' \? and anything else stand for themselves
            return k;
    }
}

bool name_matches(const std::string& pattern, const std::string& word) {
    if (!pattern.empty() && pattern.back() == '*')
        return word.compare(0, pattern.size() - 1, pattern, 0, pattern.size() - 1) == 0;
    return word == pattern;  // case matters in C++: `System` is not `system`
}

std::vector<PolicyFinding> check(const SourceText& st, const std::string& file, const std::vector<PolicyRule>& rules) {
    std::vector<PolicyFinding> found;
    std::map<std::pair<int, std::string>, size_t> at;  // one finding per line and reason, naming all it saw
    std::set<std::string> seen;
    auto add = [&](int line, const std::string& what, const std::string& category) {
        if (!seen.insert(std::to_string(line) + "\n" + category + "\n" + what).second) return;
        const auto [it, first] = at.insert({{line, category}, found.size()});
        if (first) found.push_back({file, line, what, category});
        else found[it->second].what += ", " + what;
    };
    const std::string& c = st.code;
    for (size_t i = 0; i < c.size();) {
        if (!ident_start(c[i])) {
            ++i;
            continue;
        }
        size_t e = i;
        while (e < c.size() && ident_char(c[e])) ++e;
        const std::string word = c.substr(i, e - i);
        size_t j = i;
        while (j > 0 && (space(c[j - 1]) || c[j - 1] == '\n')) --j;
        // A member (`file.open`, `p->kill`) is not the function of the same name.
        const bool member = j > 0 && (c[j - 1] == '.' || (c[j - 1] == '>' && j > 1 && c[j - 2] == '-'));
        if (!member)
            for (const PolicyRule& r : rules)
                if (r.kind == PolicyRule::Kind::name && name_matches(r.pattern, word)) add(st.line_of[i], word, r.category);
        i = e;
    }
    for (const SourceText::Item& inc : st.includes)
        for (const PolicyRule& r : rules)
            if (r.kind == PolicyRule::Kind::include && wildcard_match(r.pattern, inc.text))
                add(inc.line, "#include " + (inc.quoted ? "\"" + inc.text + "\"" : "<" + inc.text + ">"), r.category);
    for (const SourceText::Item& str : st.strings)
        for (const PolicyRule& r : rules)
            if (r.kind == PolicyRule::Kind::string && str.text.find(r.pattern) != std::string::npos)
                add(str.line, "\"" + r.pattern + "\" in a string", r.category);
    std::stable_sort(found.begin(), found.end(), [](const PolicyFinding& a, const PolicyFinding& b) { return a.line < b.line; });
    return found;
}


std::string folder_of(const std::string& path) {
    const size_t slash = path.find_last_of('/');
    return slash == std::string::npos ? "" : path.substr(0, slash + 1);
}

}  // namespace

std::vector<PolicyRule> parse_policy(const std::string& text, const std::string& origin) {
    std::vector<PolicyRule> rules;
    std::stringstream lines(text);
    std::string line, category;
    for (int number = 1; std::getline(lines, line); ++number) {
        const size_t b = line.find_first_not_of(" \t\r");
        if (b == std::string::npos || line[b] == '#') continue;
        const size_t e = line.find_last_not_of(" \t\r");
        const std::string where = origin + ":" + std::to_string(number) + ": ";
        if (line[b] == '[') {
            if (line[e] != ']' || e - b < 2) throw std::invalid_argument(where + "a section is [its reason], on one line");
            category = line.substr(b + 1, e - b - 1);
            continue;
        }
        std::stringstream words(line.substr(b, e - b + 1));
        std::string kind, pattern;
        words >> kind;
        PolicyRule r;
        if (kind == "name") r.kind = PolicyRule::Kind::name;
        else if (kind == "include") r.kind = PolicyRule::Kind::include;
        else if (kind == "string") r.kind = PolicyRule::Kind::string;
        else throw std::invalid_argument(where + "unknown kind of rule '" + kind + "' (name, include or string)");
        if (category.empty()) throw std::invalid_argument(where + "a rule before any [section] (its reason)");
        r.category = category;
        bool any = false;
        while (words >> pattern) r.pattern = pattern, rules.push_back(r), any = true;
        if (!any) throw std::invalid_argument(where + "'" + kind + "' with nothing to look for");
    }
    return rules;
}

SourceText read_source(const std::string& text) {
    SourceText st;
    // Translation phase 2 first: a backslash at the end of a line joins it to the next, so
    // `se\` + newline + `tenv` is read as the compiler reads it. Each character keeps its line.
    std::string s;
    int line = 1;
    for (size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '\\') {
            size_t j = i + 1;
            if (j < text.size() && text[j] == '\r') ++j;
            if (j < text.size() && text[j] == '\n') {
                i = j, ++line;
                continue;
            }
        }
        s += text[i];
        st.line_of.push_back(line);
        if (text[i] == '\n') ++line;
    }
    const size_t n = s.size();
    st.code = s;
    auto blank = [&](size_t from, size_t to) {
        for (size_t k = from; k < to && k < n; ++k)
            if (st.code[k] != '\n') st.code[k] = ' ';
    };
    auto end_of_line = [&](size_t from) {
        const size_t e = s.find('\n', from);
        return e == std::string::npos ? n : e;
    };
    // A string literal: its contents are kept apart, joined to the previous literal when only
    // white space and comments lie between them (as translation phase 6 joins them).
    auto add_string = [&](size_t at, const std::string& content, bool joinable) {
        if (joinable && !st.strings.empty()) st.strings.back().text += content;
        else st.strings.push_back({st.line_of[at], content, false});
    };
    bool line_start = true;  // nothing but white space and comments since the line began
    bool joinable = false;   // the last token was a string literal
    size_t i = 0;
    while (i < n) {
        const char c = s[i];
        if (c == '\n') {
            line_start = true, ++i;
            continue;
        }
        if (space(c)) {
            ++i;
            continue;
        }
        if (c == '/' && i + 1 < n && s[i + 1] == '/') {
            const size_t e = end_of_line(i);
            blank(i, e), i = e;
            continue;
        }
        if (c == '/' && i + 1 < n && s[i + 1] == '*') {
            size_t e = s.find("*/", i + 2);
            e = e == std::string::npos ? n : e + 2;
            blank(i, e), i = e;
            continue;
        }
        if (c == '#' && line_start) {
            size_t k = i + 1;
            while (k < n && space(s[k])) ++k;
            size_t w = k;
            while (w < n && ident_char(s[w])) ++w;
            const std::string directive = s.substr(k, w - k);
            line_start = false, joinable = false;
            if (directive != "include" && directive != "include_next" && directive != "import") {
                ++i;  // #define, #if, #pragma: what follows is read as code
                continue;
            }
            while (w < n && space(s[w])) ++w;
            const size_t e = end_of_line(w);
            SourceText::Item inc{st.line_of[i], "", false};
            const char open = w < n ? s[w] : '\n';
            if (open == '<' || open == '"') {
                const size_t close = s.find(open == '<' ? '>' : '"', w + 1);
                inc.text = s.substr(w + 1, (close == std::string::npos || close > e ? e : close) - w - 1);
                inc.quoted = open == '"';
            } else {
                inc.text = s.substr(w, e - w);  // #include MACRO: a computed header name
                while (!inc.text.empty() && space(inc.text.back())) inc.text.pop_back();
            }
            st.includes.push_back(inc);
            blank(i, e), i = e;
            continue;
        }
        line_start = false;
        size_t q = i;  // where a literal's quote is, after any prefix
        if (ident_start(c)) {
            size_t e = i;
            while (e < n && ident_char(s[e])) ++e;
            const std::string word = s.substr(i, e - i);
            const char next = e < n ? s[e] : '\0';
            if (next == '"' && (word == "R" || word == "u8R" || word == "uR" || word == "UR" || word == "LR")) {
                const size_t paren = s.find('(', e + 1);
                const std::string delimiter = paren == std::string::npos ? "" : s.substr(e + 1, paren - e - 1);
                size_t close = paren == std::string::npos ? std::string::npos : s.find(")" + delimiter + "\"", paren + 1);
                const size_t end = close == std::string::npos ? n : close + delimiter.size() + 2;
                if (paren != std::string::npos) add_string(i, s.substr(paren + 1, (close == std::string::npos ? n : close) - paren - 1), joinable);
                blank(i, end), i = end, joinable = true;
                continue;
            }
            if ((next == '"' || next == '\'') && (word == "u8" || word == "u" || word == "U" || word == "L")) {
                q = e;  // a prefixed literal: read on below
            } else {
                i = e, joinable = false;
                continue;
            }
        }
        const char quote = s[q];
        if (quote == '"' || quote == '\'') {
            size_t k = q + 1;
            std::string content;
            while (k < n && s[k] != quote && s[k] != '\n') {
                if (s[k] == '\\') k = decode_escape(s, k, content);
                else content += s[k++];
            }
            const size_t end = k < n && s[k] == quote ? k + 1 : k;
            if (quote == '"') add_string(i, content, joinable);
            blank(i, end), i = end, joinable = quote == '"';
            continue;
        }
        if ((c >= '0' && c <= '9') || (c == '.' && i + 1 < n && s[i + 1] >= '0' && s[i + 1] <= '9')) {
            // A number, blanked whole: its letters (0x1e, 1.5f) are no names, and a digit
            // separator (1'000) opens no character literal.
            size_t e = i + 1;
            while (e < n) {
                if (ident_char(s[e]) || s[e] == '.') ++e;
                else if (s[e] == '\'' && e + 1 < n && ident_char(s[e + 1])) e += 2;
                else if ((s[e] == '+' || s[e] == '-') && std::string("eEpP").find(s[e - 1]) != std::string::npos) ++e;
                else break;
            }
            blank(i, e), i = e, joinable = false;
            continue;
        }
        ++i, joinable = false;
    }
    return st;
}

std::vector<PolicyFinding> check_source(const std::string& text, const std::string& file, const std::vector<PolicyRule>& rules) {
    return check(read_source(text), file, rules);
}

std::vector<PolicyFinding> check_files(const std::vector<std::string>& paths, const std::vector<std::string>& shown,
                                       const std::vector<PolicyRule>& rules) {
    std::vector<std::pair<std::string, std::string>> queue;
    for (size_t i = 0; i < paths.size(); ++i) queue.emplace_back(paths[i], i < shown.size() ? shown[i] : paths[i]);
    std::set<std::string> done;
    std::vector<PolicyFinding> found;
    for (size_t q = 0; q < queue.size(); ++q) {
        const auto [path, name] = queue[q];
        std::string text;
        if (!done.insert(path).second || !read_text_file(path, text)) continue;
        const SourceText st = read_source(text);
        const std::vector<PolicyFinding> here = check(st, name, rules);
        found.insert(found.end(), here.begin(), here.end());
        // The student's own headers: quoted includes found beside the file (the compiler looks
        // there first). Headers of the lesson and of the system are not the student's.
        for (const SourceText::Item& inc : st.includes)
            if (inc.quoted && !inc.text.empty() && inc.text[0] != '/' && inc.text.find("..") == std::string::npos)
                queue.emplace_back(folder_of(path) + inc.text, folder_of(name) + inc.text);  // read if it is there
    }
    return found;
}

std::vector<std::string> policy_report(const std::vector<PolicyFinding>& found, size_t most) {
    std::vector<std::string> categories, lines;
    for (const PolicyFinding& f : found)
        if (std::find(categories.begin(), categories.end(), f.category) == categories.end()) categories.push_back(f.category);
    size_t shown = 0;
    for (const std::string& c : categories) {
        if (shown == most) break;
        lines.push_back(c + ":");
        for (const PolicyFinding& f : found)
            if (f.category == c && shown < most) lines.push_back("  " + f.file + ":" + std::to_string(f.line) + ": " + f.what), ++shown;
    }
    if (found.size() > shown) lines.push_back("and " + std::to_string(found.size() - shown) + " more");
    return lines;
}

}  // namespace grader
