// SPDX-License-Identifier: MIT
#include "grader/supervisor/expectation.hpp"

#include <stdexcept>

#include "grader/common/wildcard.hpp"

namespace grader {

Expectation Expectation::parse(const std::string& list) {
    Expectation e;
    for (const std::string& word : split_commas(list)) {
        const Reason r = reason_from_string(word);
        if (word == "policy") e.policy = true;  // the run's status, not an exercise's reason
        else if (word == "compile") e.compile = true;  // likewise: the build must fail
        else if (r == Reason::none || r == Reason::skipped)
            throw std::invalid_argument("--expect-reject: unknown reason '" + word + "'");
        else e.reasons.insert(r);
        e.words.push_back(word);
    }
    return e;
}

Decision rejected_before_running(const Expectation& e, const std::string& stage, const std::string& name,
                                 const std::string& student, const std::string& detail) {
    if (!e.known_bad()) return {1, {"FAIL  " + name + ": [" + stage + "] " + student + detail}};
    if ((stage == "policy" && e.policy) || (stage == "compile" && e.compile))
        return {0, {"OK    " + name + ": the known-bad variant was rejected [" + stage + "], as it must be:" + detail}};
    return {1, {"BAD   " + name + ": the known-bad variant was rejected [" + stage + "], not for an expected reason:" + detail}};
}

Decision passed_stage(const Expectation& e, const std::string& stage, const std::string& name) {
    if (!e.reasons.empty()) return {};
    if (stage == "policy" && e.policy)
        return {1, {"BAD   " + name + ": the known-bad variant passed the policy check, which must reject it"}};
    if (stage == "compile" && e.compile)
        return {1, {"BAD   " + name + ": the known-bad variant built, which the sealed grader must prevent"}};
    return {};
}

Decision judge_exercises(const Expectation& e, const std::vector<ExerciseResult>& results) {
    Decision d;
    int graded = 0, bad = 0, info = 0;
    const bool speed_only = e.reasons.count(Reason::slow) || e.reasons.count(Reason::impossible) ||
                            e.reasons.count(Reason::untimed);
    for (const ExerciseResult& x : results) {
        const Verdict& v = x.verdict;
        if (v.verdict == "INFO" || x.teaching) {  // a teaching table: shown, never graded
            ++info;
            continue;
        }
        if (v.verdict == "SKIP") continue;
        if (!e.known_bad()) {
            ++graded;
            bad += v.verdict != "PASS";
            continue;
        }
        // A known-bad variant: it must be rejected, for one of the expected reasons.
        if (v.verdict == "PASS" && !x.perf_graded && speed_only) {
            d.lines.push_back("SKIP  " + v.exercise + ": a variant rejected for its speed cannot be judged when speed is not graded");
            continue;
        }
        ++graded;
        if (v.verdict == "FAIL" && e.reasons.count(v.reason)) {
            d.lines.push_back("OK    " + v.exercise + ": the known-bad variant was rejected [" + to_string(v.reason) +
                              "], as it must be");
        } else {
            ++bad;
            d.lines.push_back("BAD   " + v.exercise + ": the known-bad variant was " +
                              (v.verdict == "PASS" ? "ACCEPTED" : "rejected") + " [" + to_string(v.reason) +
                              "], not rejected for an expected reason");
        }
    }
    d.rc = graded == 0 ? (info > 0 && !e.known_bad() ? 0 : kSkipExit) : (bad ? 1 : 0);
    return d;
}

}  // namespace grader
