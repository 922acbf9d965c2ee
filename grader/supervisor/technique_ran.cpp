// SPDX-License-Identifier: MIT
#include "grader/supervisor/technique_ran.hpp"

#include <algorithm>
#include <map>

namespace grader {

namespace {

bool has(const std::vector<Trait>& traits, Trait t) { return std::find(traits.begin(), traits.end(), t) != traits.end(); }

// One kernel name's traits over its versions (one per architecture): `any` has the traits
// some version shows, `every` those each version shows.
struct Versions {
    std::vector<Trait> any, every;
};

std::map<std::string, Versions> traits_by_name(const std::vector<SassFunction>& sass) {
    std::map<std::string, std::vector<std::vector<Trait>>> each;
    for (const SassFunction& f : sass) each[f.name].push_back(function_traits(f));
    std::map<std::string, Versions> out;
    for (const auto& [name, versions] : each) {
        Versions v;
        for (const std::vector<Trait>& traits : versions)
            for (Trait t : traits) {
                if (!has(v.any, t)) v.any.push_back(t);
                if (!has(v.every, t) && std::all_of(versions.begin(), versions.end(),
                                                    [t](const std::vector<Trait>& o) { return has(o, t); }))
                    v.every.push_back(t);
            }
        out[name] = v;
    }
    return out;
}

std::vector<Trait> missing_of(const std::vector<Trait>& wanted, const std::vector<Trait>& shown) {
    std::vector<Trait> out;
    for (Trait t : wanted)
        if (!has(shown, t)) out.push_back(t);
    return out;
}

std::vector<std::string> lacks_words(const std::vector<Trait>& missing) {
    std::vector<std::string> out;
    for (Trait t : traits_worth_naming(missing)) out.push_back(trait_lacks(t));
    return out;
}

// Display names, each once, in alphabetical order.
std::vector<std::string> shown_names(const std::vector<std::string>& mangled) {
    std::vector<std::string> out;
    for (const std::string& m : mangled) out.push_back(kernel_display_name(m));
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

// What the kernels of the file that ran together in a call (`ran`, at least one) lack of the
// rule: "" when they satisfy it; after "which" for one kernel, a list of its own for several.
std::string what_they_lack(const TechniqueRule& rule, const std::vector<std::string>& ran,
                           const std::map<std::string, Versions>& traits) {
    const bool one = ran.size() == 1;
    std::vector<std::string> problems;
    if (!rule.kernel.empty()) {
        bool met = false;
        for (const std::vector<Trait>& alt : rule.kernel)
            for (const std::string& k : ran) met = met || missing_of(alt, traits.at(k).any).empty();
        if (!met && rule.kernel.size() == 1) {
            size_t closest = 0;  // the kernel that misses the fewest traits
            for (size_t k = 1; k < ran.size(); ++k)
                if (missing_of(rule.kernel[0], traits.at(ran[k]).any).size() <
                    missing_of(rule.kernel[0], traits.at(ran[closest]).any).size())
                    closest = k;
            const std::string lacks = join_words(lacks_words(missing_of(rule.kernel[0], traits.at(ran[closest]).any)), "and");
            problems.push_back(one ? lacks : "none has it all: " + kernel_display_name(ran[closest]) + ", the closest, " + lacks);
        } else if (!met && one) {
            // Alternatives: what the one kernel lacks of each.
            std::vector<std::string> each;
            for (const std::vector<Trait>& alt : rule.kernel)
                each.push_back(join_words(lacks_words(missing_of(alt, traits.at(ran[0]).any)), "and"));
            problems.push_back(join_words(each, "and"));
        } else if (!met) {
            std::vector<std::string> wants;
            for (const std::vector<Trait>& alt : rule.kernel) {
                std::vector<std::string> w;
                for (Trait t : alt) w.push_back(trait_has(t));
                wants.push_back(join_words(w, "and"));
            }
            problems.push_back("none " + join_words(wants, "or"));
        }
    }
    for (Trait t : rule.every_kernel) {
        std::vector<std::string> lacking;
        for (const std::string& k : ran)
            if (!has(traits.at(k).every, t)) lacking.push_back(k);
        if (lacking.empty()) continue;
        const std::vector<std::string> names = shown_names(lacking);
        if (one) problems.push_back(trait_lacks(t));
        else problems.push_back((names.size() == 1 ? names[0] + " " : some_names(names) + ": each ") + trait_lacks(t));
    }
    if (problems.empty()) return "";
    if (one) return "which " + join_words(problems, "and");
    std::string s;
    for (const std::string& p : problems) s += (s.empty() ? "and " : "; ") + p;
    return s;
}

struct Failing {
    int calls;
    std::string clause;  // after "in C of N timed calls "
};

}  // namespace

std::string check_ran_kernels(const TechniqueRule& rule, const std::vector<SassFunction>& all, const KernelsRan& ran) {
    // Code for an architecture older than the rule's (`from sm_NN`): the exercise does not run there.
    const std::vector<SassFunction> sass = functions_for_rule(rule, all);
    if (sass.empty() && !all.empty()) return "";
    const std::map<std::string, Versions> traits = traits_by_name(sass);
    std::vector<Failing> failing;
    for (const KernelSet& s : ran.sets) {
        std::vector<std::string> mine, others;
        for (const std::string& k : s.kernels) (traits.count(k) ? mine : others).push_back(k);
        if (mine.empty()) {
            failing.push_back({s.calls, "no kernel of " + rule.file + " ran" +
                                            (others.empty() ? " (no kernel ran at all)"
                                                            : " (only " + some_names(shown_names(others)) + " did)")});
            continue;
        }
        const std::string lacks = what_they_lack(rule, mine, traits);
        if (!lacks.empty())
            failing.push_back({s.calls, "only " + some_names(shown_names(mine)) + " of " + rule.file + " ran, " + lacks});
    }
    if (failing.empty()) return "";
    std::stable_sort(failing.begin(), failing.end(), [](const Failing& a, const Failing& b) { return a.calls > b.calls; });
    const std::string total = std::to_string(ran.calls());
    constexpr size_t kShown = 3;
    std::string out;
    for (size_t i = 0; i < failing.size() && i < kShown; ++i)
        out += (out.empty() ? "" : "; ") + std::string("in ") + std::to_string(failing[i].calls) + " of " + total +
               " timed calls " + failing[i].clause;
    if (failing.size() > kShown) {
        int calls = 0;
        for (size_t i = kShown; i < failing.size(); ++i) calls += failing[i].calls;
        out += "; and " + std::to_string(failing.size() - kShown) + " more sets of kernels that lack it, in " +
               std::to_string(calls) + " calls";
    }
    return out;
}

TechniqueJudgement judge_technique(const TechniqueReport& report, const KernelsRan& ran, Verdict& v) {
    TechniqueJudgement j;
    if (v.verdict != "PASS") return j;
    const auto c = std::find_if(report.checked.begin(), report.checked.end(),
                                [&](const TechniqueReport::Checked& k) { return rule_applies(k.rule, v.exercise); });
    if (c == report.checked.end()) return j;  // no rule, or one whose code could not be read
    if (ran.recorded && ran.calls() > 0) {
        j.read = "ran";
        const std::string missing = check_ran_kernels(c->rule, c->sass, ran);
        if (!missing.empty()) fail_for_technique(v, missing, c->rule.hint, c->theory), j.changed = true;
        return j;
    }
    j.read = "compiled";
    j.fallback = ran.note.empty() ? "the exercise recorded no kernel" : ran.note;
    j.changed = apply_technique(report, v);
    return j;
}

}  // namespace grader
