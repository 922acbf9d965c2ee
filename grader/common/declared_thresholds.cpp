// SPDX-License-Identifier: MIT
#include "grader/common/declared_thresholds.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

#include "grader/common/performance.hpp"

namespace grader {

namespace {

std::string trim(const std::string& s) {
    const size_t a = s.find_first_not_of(" \t\r"), b = s.find_last_not_of(" \t\r");
    return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

std::vector<std::string> split_bars(const std::string& line) {
    std::vector<std::string> out;
    std::stringstream ss(line);
    std::string part;
    while (std::getline(ss, part, '|')) out.push_back(trim(part));
    return out;
}

// A relative difference no rounding of the same arithmetic reaches.
bool same(double a, double b) { return std::fabs(a - b) <= 1e-9 * std::max({1.0, std::fabs(a), std::fabs(b)}); }

std::string ms(double x) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.6g ms", x);
    return buf;
}

}  // namespace

const char* to_string(Basis b) {
    switch (b) {
        case Basis::copy: return "copy";
        case Basis::roofline: return "roofline";
        case Basis::baseline: return "baseline";
    }
    return "?";
}

std::vector<Declared> parse_declared(const std::string& text, const std::string& file) {
    std::vector<Declared> all;
    std::stringstream ss(text);
    std::string line;
    for (int no = 1; std::getline(ss, line); ++no) {
        const std::string t = trim(line);
        if (t.empty() || t[0] == '#') continue;
        const auto where = file + ":" + std::to_string(no) + ": ";
        const std::vector<std::string> parts = split_bars(t);
        if (parts.size() != 3 && parts.size() != 5)
            throw std::invalid_argument(where + "expected 'exercise | against | fraction', optionally '| against | fraction'");
        Declared d;
        d.exercise = parts[0];
        if (d.exercise.empty()) throw std::invalid_argument(where + "no exercise name");
        for (size_t k = 1; k + 1 < parts.size(); k += 2) {
            DeclaredTarget target;
            if (parts[k] == "copy") target.basis = Basis::copy;
            else if (parts[k] == "roofline") target.basis = Basis::roofline;
            else if (parts[k] == "baseline") target.basis = Basis::baseline;
            else throw std::invalid_argument(where + "'" + parts[k] + "' is not copy, roofline or baseline");
            char* end = nullptr;
            target.fraction = std::strtod(parts[k + 1].c_str(), &end);
            if (parts[k + 1].empty() || *end != '\0' || !(target.fraction > 0) || !std::isfinite(target.fraction))
                throw std::invalid_argument(where + "'" + parts[k + 1] + "' is not a positive number");
            d.targets.push_back(target);
        }
        if (find_declared(all, d.exercise)) throw std::invalid_argument(where + "'" + d.exercise + "' is declared twice");
        all.push_back(d);
    }
    return all;
}

const Declared* find_declared(const std::vector<Declared>& all, const std::string& exercise) {
    for (const Declared& d : all)
        if (d.exercise == exercise) return &d;
    return nullptr;
}

std::string declared_name(const std::string& exercise, const std::string& part) {
    return part.empty() ? exercise : exercise + " / " + part;
}

namespace {
constexpr const char* kTimedKeys[] = {"timed_grade", "timed_median_ms", "timed_bytes", "timed_flops", "timed_fractions",
                                      "timed_baseline_ms", "timed_threshold_ms", "timed_baselines"};
// The baselines' names, one per target, joined by tabs (names hold commas, never tabs: yardsticks.hpp).
std::string join_names(const std::vector<std::string>& names) {
    std::string s;
    for (size_t i = 0; i < names.size(); ++i) s += (i ? "\t" : "") + names[i];
    return s;
}
std::vector<std::string> split_names(const std::string& text) {
    std::vector<std::string> out(1);
    for (char c : text) {
        if (c == '\t') out.emplace_back();
        else out.back() += c;
    }
    return out;
}
}  // namespace

void add_timed(Report& r, const std::string& declared, const TimedReport& t) {
    r.add(kTimedKeys[0], declared)
        .add(kTimedKeys[1], format_numbers({t.median_ms}))
        .add(kTimedKeys[2], format_numbers({t.bytes}))
        .add(kTimedKeys[3], format_numbers({t.flops}))
        .add(kTimedKeys[4], format_numbers(t.fractions))
        .add(kTimedKeys[5], format_numbers(t.baseline_ms))
        .add(kTimedKeys[6], format_numbers({t.threshold_ms}))
        .add(kTimedKeys[7], join_names(t.baseline_names));
}

std::vector<std::pair<std::string, TimedReport>> timed_reports(const Report& r) {
    std::vector<std::vector<std::string>> field;
    for (const char* k : kTimedKeys) field.push_back(r.all(k));
    std::vector<std::pair<std::string, TimedReport>> out;
    for (size_t i = 0; i < field[0].size(); ++i) {
        const auto at = [&](int k) { return i < field[k].size() ? field[k][i] : std::string(); };
        const auto one = [&](int k) {
            const std::vector<double> v = parse_numbers(at(k));
            return v.size() == 1 ? v[0] : std::nan("");
        };
        TimedReport t;
        t.median_ms = one(1), t.bytes = one(2), t.flops = one(3);
        t.fractions = parse_numbers(at(4)), t.baseline_ms = parse_numbers(at(5));
        t.threshold_ms = one(6);
        t.baseline_names = split_names(at(7));
        out.emplace_back(field[0][i], t);
    }
    return out;
}

std::string format_numbers(const std::vector<double>& v) {
    std::string s;
    for (double x : v) {
        char buf[40];
        std::snprintf(buf, sizeof buf, "%.17g", x);  // round-trips exactly
        s += (s.empty() ? "" : ",") + std::string(buf);
    }
    return s;
}

std::vector<double> parse_numbers(const std::string& text) {
    std::vector<double> v;
    std::stringstream ss(text);
    std::string part;
    while (std::getline(ss, part, ',')) v.push_back(std::strtod(part.c_str(), nullptr));
    return v;
}

SpeedVerdict recheck_speed(const Declared& d, const Ceilings& c, double scale, double l2_bytes, const TimedReport& r) {
    SpeedVerdict v;
    const auto tampered = [&](const std::string& what) {
        v.reason = Reason::crash;
        v.message = "the exercise's process reported " + what +
                    ": the grader's state was changed inside that process, so its report cannot be trusted";
        return v;
    };
    if (r.fractions.size() != d.targets.size() || r.baseline_ms.size() != d.targets.size())
        return tampered("a threshold of another shape than lessons' thresholds.txt declares for " + d.exercise);
    Performance p;
    p.bytes = r.bytes, p.flops = r.flops;
    for (size_t k = 0; k < d.targets.size(); ++k) {
        if (!same(r.fractions[k], d.targets[k].fraction))
            return tampered("fraction " + format_numbers({r.fractions[k]}) + " where thresholds.txt declares " +
                            format_numbers({d.targets[k].fraction}));
        Performance q;
        q.bytes = r.bytes, q.flops = d.targets[k].basis == Basis::copy ? 0 : r.flops;
        q.fraction = d.targets[k].fraction;
        if (d.targets[k].basis == Basis::baseline) {
            if (!(r.baseline_ms[k] > 0)) return tampered("no time for the baseline its threshold is measured against");
            q.baseline = "baseline", q.baseline_ms = r.baseline_ms[k];
        }
        if (k == 0) p = q;
        else p.alternatives.push_back(q);
    }
    const Target t = target_for(p, c, scale);
    v.threshold_ms = t.required_ms;
    if (!same(r.threshold_ms, t.required_ms))
        return tampered("a threshold of " + ms(r.threshold_ms) + " where the supervisor's ceilings give " + ms(t.required_ms));
    if (!(r.median_ms > 0)) return tampered("no time for the timed calls");
    if (impossible(p, c, l2_bytes, r.median_ms)) {
        v.reason = Reason::impossible;
        v.message = "faster than this GPU can move the data or do the arithmetic (supervisor's check)";
    } else if (r.median_ms > t.required_ms) {
        v.reason = Reason::slow;
        v.message = "too slow: median " + ms(r.median_ms) + ", needs at most " + ms(t.required_ms) + " (supervisor's check)";
    }
    return v;
}

SpeedVerdict recheck_speed(const Declared& d, const Ceilings& c, double scale, double l2_bytes, const TimedReport& r,
                           const std::string& exercise, const std::vector<Yardstick>& measured) {
    TimedReport theirs = r;
    for (size_t k = 0; k < d.targets.size() && k < r.baseline_ms.size(); ++k) {
        if (d.targets[k].basis != Basis::baseline) continue;
        const std::string name = k < r.baseline_names.size() ? r.baseline_names[k] : "";
        const Yardstick* y = name.empty() ? nullptr : find_yardstick(measured, exercise, name);
        SpeedVerdict v;
        v.reason = Reason::crash;
        const std::string why = ": the grader's state was changed inside that process, so its report cannot be trusted";
        if (!y) {
            v.message = "the exercise's process reported a threshold against the baseline '" + name +
                        "', which the supervisor's yardstick run did not measure for " + exercise + why;
            return v;
        }
        if (!same(r.baseline_ms[k], y->value)) {
            v.message = "the exercise's process reported " + ms(r.baseline_ms[k]) + " for the baseline '" + name +
                        "', which the supervisor's yardstick run measured at " + ms(y->value) + why;
            return v;
        }
        theirs.baseline_ms[k] = y->value;  // the verdict rests on the supervisor's figure
    }
    return recheck_speed(d, c, scale, l2_bytes, theirs);
}

}  // namespace grader
