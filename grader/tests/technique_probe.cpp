// SPDX-License-Identifier: MIT
// technique_probe: the mechanism check (grader/supervisor/technique.hpp) on one compiled file, outside
// `grade`. tools/tests/test_technique_rules.py builds it with the host compiler alone and
// runs it on every starter, reference and known-bad file of the checked exercises; an
// instructor can run it on a kernel to see what the check sees.
//
//   technique_probe --traits FILE...            each function's traits
//   technique_probe RULES EXERCISE FILE         the exercise's rule: exit 0 holds, 1 does not
//
// FILE is an object (read with cuobjdump -sass; $CUOBJDUMP names the tool, else it is
// looked for as `grade` does) or, ending in .sass, a listing cuobjdump already wrote.
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "grader/common/text_file.hpp"
#include "grader/supervisor/technique.hpp"

namespace {

bool sass_of(const std::string& file, std::string& text) {
    if (file.size() > 5 && file.compare(file.size() - 5, 5, ".sass") == 0) return grader::read_text_file(file, text);
    const char* env = std::getenv("CUOBJDUMP");
    const std::string tool = env && *env ? env : grader::find_cuobjdump();
    if (tool.empty()) {
        std::fprintf(stderr, "technique_probe: no cuobjdump\n");
        return false;
    }
    FILE* p = popen(("'" + tool + "' -sass '" + file + "' 2>/dev/null").c_str(), "r");
    if (!p) return false;
    char buf[8192];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0) text.append(buf, n);
    return pclose(p) == 0;
}

}  // namespace

int run(int argc, char** argv) {
    if (argc >= 3 && std::string(argv[1]) == "--traits") {
        for (int i = 2; i < argc; ++i) {
            std::string text;
            if (!sass_of(argv[i], text)) return 2;
            for (const grader::SassFunction& f : grader::parse_sass(text)) {
                std::printf("%s %s %s:", argv[i], f.arch.c_str(), grader::kernel_display_name(f.name).c_str());
                for (grader::Trait t : grader::function_traits(f)) std::printf(" %s", grader::trait_name(t));
                std::printf("\n");
            }
        }
        return 0;
    }
    if (argc != 4) {
        std::fprintf(stderr, "usage: technique_probe --traits FILE... | technique_probe RULES EXERCISE FILE\n");
        return 2;
    }
    std::string rules_text, text;
    if (!grader::read_text_file(argv[1], rules_text) || !sass_of(argv[3], text)) return 2;
    for (const grader::TechniqueRule& r : grader::parse_technique_rules(rules_text, argv[1])) {
        if (r.exercise != argv[2]) continue;
        const std::string missing = grader::check_technique_rule(r, grader::parse_sass(text));
        std::printf("%s\n", missing.empty() ? "holds" : missing.c_str());
        return missing.empty() ? 0 : 1;
    }
    std::fprintf(stderr, "technique_probe: no rule for %s in %s\n", argv[2], argv[1]);
    return 2;
}

int main(int argc, char** argv) {
    try {
        return run(argc, argv);
    } catch (const std::exception& e) {  // a rules file it cannot read
        std::fprintf(stderr, "technique_probe: %s\n", e.what());
        return 2;
    }
}
