// SPDX-License-Identifier: MIT
#include "grader/common/yardsticks.hpp"

#include <cmath>
#include <cstdio>
#include <sstream>
#include <stdexcept>

namespace grader {

namespace {

std::string number(double x) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", x);  // round-trips exactly
    return buf;
}

double read_number(const std::string& text, const std::string& where) {
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || !std::isfinite(v) || v < 0)
        throw std::invalid_argument(where + ": '" + text + "' is not a number of at least 0");
    return v;
}

}  // namespace

std::string yardsticks_to_text(const std::vector<Yardstick>& all) {
    std::string out;
    for (const Yardstick& y : all) {
        for (const std::string* s : {&y.exercise, &y.name})
            if (s->find_first_of("\t\n") != std::string::npos || s->empty())
                throw std::invalid_argument("a yardstick's exercise and name must be non-empty, without tabs or newlines: '" +
                                            *s + "'");
        out += y.exercise + "\t" + y.name + "\t" + number(y.value) + "\t" + number(y.work.bytes) + "\t" +
               number(y.work.flops) + "\n";
    }
    return out;
}

std::vector<Yardstick> parse_yardsticks(const std::string& text) {
    std::vector<Yardstick> all;
    std::stringstream ss(text);
    std::string line;
    for (int no = 1; std::getline(ss, line); ++no) {
        if (line.empty()) continue;
        std::vector<std::string> f;
        std::stringstream ls(line);
        std::string part;
        while (std::getline(ls, part, '\t')) f.push_back(part);
        const std::string where = "yardstick line " + std::to_string(no);
        if (f.size() != 5 || f[0].empty() || f[1].empty())
            throw std::invalid_argument(where + ": expected exercise, name, value, bytes, flops (tab-separated)");
        Yardstick y;
        y.exercise = f[0], y.name = f[1];
        y.value = read_number(f[2], where), y.work.bytes = read_number(f[3], where), y.work.flops = read_number(f[4], where);
        all.push_back(y);
    }
    return all;
}

const Yardstick* nth_yardstick(const std::vector<Yardstick>& all, const std::string& exercise, size_t index) {
    for (const Yardstick& y : all)
        if (y.exercise == exercise && index-- == 0) return &y;
    return nullptr;
}

const Yardstick* find_yardstick(const std::vector<Yardstick>& all, const std::string& exercise, const std::string& name) {
    for (const Yardstick& y : all)
        if (y.exercise == exercise && y.name == name) return &y;
    return nullptr;
}

double given_figure(const std::vector<Yardstick>& all, const std::string& exercise, size_t index, const std::string& name,
                    const Work& work) {
    const Yardstick* y = nth_yardstick(all, exercise, index);
    if (y && y->name == name && y->work.bytes == work.bytes && y->work.flops == work.flops) return y->value;
    const auto described = [](const std::string& n, const Work& w) {
        if (!(w.bytes > 0 || w.flops > 0)) return "'" + n + "'";
        return "'" + n + "' (" + number(w.bytes) + " bytes, " + number(w.flops) + " flops)";
    };
    throw std::runtime_error("grader bug: this exercise asks for its figure " + std::to_string(index + 1) + ", " +
                             described(name, work) + ", where the supervisor's yardstick run measured " +
                             (y ? described(y->name, y->work) : std::string("none")) +
                             " (the yardstick program took another path through the exercise, or sized it otherwise)");
}

std::string duplicate_name(const std::vector<Yardstick>& all) {
    for (size_t i = 0; i < all.size(); ++i)
        for (size_t j = 0; j < i; ++j)
            if (all[i].exercise == all[j].exercise && all[i].name == all[j].name) return all[i].exercise + ": " + all[i].name;
    return "";
}

std::string below_floor(const Yardstick& y, const Ceilings& c) {
    if (!y.is_baseline() || !(y.value > 0)) return "";
    Performance p = roofline(y.work.bytes, y.work.flops);
    p.fraction = 1;
    const Target roof = target_for(p, c, 1);  // the roofline's time for this work
    const double share = roof.floor_ms / y.value;
    if (share >= kYardstickFloor) return "";
    char buf[512];
    std::snprintf(buf, sizeof buf,
                  "the baseline '%s' of %s read %.4g %s, below its floor of %.4g %s (%.3g %% of the roofline of its work, "
                  "%s): the run's measurement failed, not the submission; another process using the GPU while the "
                  "baselines were timed is the likely cause (run the lesson again with the GPU otherwise idle)",
                  y.name.c_str(), y.exercise.c_str(), y.work.figure(y.value), y.work.unit(),
                  y.work.figure(roof.floor_ms / kYardstickFloor), y.work.unit(), 100 * kYardstickFloor, roof.ceiling.c_str());
    return buf;
}

YardstickRun judge_yardsticks(const std::string& figures_text, const std::vector<std::string>& errors,
                              const Ceilings& ceilings) {
    YardstickRun y;
    try {
        y.figures = parse_yardsticks(figures_text);
    } catch (const std::invalid_argument& e) {
        y.error = std::string("reported figures that could not be read: ") + e.what();
        return y;
    }
    if (const std::string twice = duplicate_name(y.figures); !twice.empty()) {
        y.error = "measured two figures of one name (a grader bug): " + twice;
        return y;
    }
    for (const std::string& e : errors) {
        const size_t tab = e.find('\t');
        const std::string exercise = e.substr(0, tab), why = tab == std::string::npos ? "" : e.substr(tab + 1);
        y.failed.emplace(exercise, "the run's measurement failed, not the submission: the yardstick program (no student "
                                   "code in it) stopped in this exercise: " + why);
    }
    for (const Yardstick& f : y.figures)
        if (const std::string low = below_floor(f, ceilings); !low.empty()) y.failed.emplace(f.exercise, low);
    return y;
}

}  // namespace grader
