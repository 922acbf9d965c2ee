// SPDX-License-Identifier: MIT
/// @file
/// @brief The static policy check: before a lesson is built, `grade` reads the student's
///        files of that lesson for what the lesson does not allow (process and environment
///        control, file access, vendor routines that do the exercise's work) and fails the
///        lesson with `FAIL [policy]` and each finding's `path:line`. Pure host code, unit-tested.
///
/// The rules live with the lessons: `lessons/policy.txt` for every lesson, plus the
/// lesson's own `lessons/NN-topic/policy.txt` when it has one. A policy file is made of
/// sections; a section's title says why its rules exist and is shown with every finding:
///
///     # a comment
///     [process control: the grader starts and ends each exercise's process]
///     name exit _exit fork execv*      identifiers in code; a trailing * makes a prefix
///     include cublas* thrust/*         the header of an #include (a wildcard, * and ?)
///     string GRADER_ /proc/            text inside a string literal (adjacent ones joined)
///
/// Names are read after comments and literals are removed, so `system` in a comment or in
/// a message is not a finding, and neither is `exit_code` (a whole identifier must match)
/// nor `file.open` (a member). The check reads the text, not what the preprocessor makes
/// of it: a name pasted together by a macro escapes it (docs/trust_model.md).
#pragma once
#include <string>
#include <vector>

namespace grader {

struct PolicyRule {
    enum class Kind { name, include, string };
    Kind kind = Kind::name;
    std::string pattern;
    std::string category;  ///< the title of the rule's section
};

/// The rules of one policy file; `origin` names it in errors. Throws std::invalid_argument
/// for a line it cannot read (an unknown kind, a rule before any section).
std::vector<PolicyRule> parse_policy(const std::string& text, const std::string& origin);

/// A source file as the check reads it.
struct SourceText {
    struct Item {
        int line;
        std::string text;
        bool quoted = false;  ///< includes: "header" rather than <header>
    };
    std::string code;          ///< the text with comments, literals and `#include` lines blanked (newlines kept)
    std::vector<int> line_of;  ///< the source line of each character of `code`
    std::vector<Item> strings; ///< the contents of the string literals, adjacent ones joined, escapes decoded
    std::vector<Item> includes;
};
SourceText read_source(const std::string& text);

struct PolicyFinding {
    std::string file;
    int line = 0;
    std::string what;      ///< `exit`, `#include <cublas_v2.h>`, `"GRADER_SEED"`
    std::string category;  ///< why it is not allowed
};

/// The findings in one file's text, in the order of its lines, one per line and rule.
std::vector<PolicyFinding> check_source(const std::string& text, const std::string& file,
                                        const std::vector<PolicyRule>& rules);

/// Checks each file (`paths`, shown to the student as `shown`) and every file it includes
/// with `#include "..."` that lies beside it (the student's own headers), once each. A file
/// that cannot be read is left to the build, which names it.
std::vector<PolicyFinding> check_files(const std::vector<std::string>& paths, const std::vector<std::string>& shown,
                                       const std::vector<PolicyRule>& rules);

/// The findings as the student reads them: each reason once, then its findings as
/// `  03-tiling/1_coalesced.cu:31: exit`; at most `most` findings, then how many more.
std::vector<std::string> policy_report(const std::vector<PolicyFinding>& found, size_t most);

}  // namespace grader
