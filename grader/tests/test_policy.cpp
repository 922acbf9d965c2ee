// SPDX-License-Identifier: MIT
#include <doctest/doctest.h>

#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>
#include <unistd.h>

#include "grader/supervisor/policy.hpp"

namespace {

const char* kRules = R"(# a comment
[process control]
name exit fork exec*
[the environment]
name setenv
string GRADER_ /proc/
[files]
name ofstream open
[a vendor routine]
name cublas*
include cublas* cub/* /* *..*
)";

std::vector<grader::PolicyFinding> scan(const std::string& code) {
    return grader::check_source(code, "a.cu", grader::parse_policy(kRules, "rules"));
}

// "line:what" for each finding, joined by spaces.
std::string found(const std::string& code) {
    std::string s;
    for (const auto& f : scan(code)) s += (s.empty() ? "" : " ") + std::to_string(f.line) + ":" + f.what;
    return s;
}

}  // namespace

TEST_CASE("a policy file: sections give the reason, each word a rule") {
    const auto rules = grader::parse_policy(kRules, "rules");
    REQUIRE(rules.size() == 13);
    CHECK(rules[0].pattern == "exit");
    CHECK(rules[0].category == "process control");
    CHECK(rules[4].kind == grader::PolicyRule::Kind::string);
    CHECK(rules[4].category == "the environment");
    CHECK_THROWS_AS(grader::parse_policy("name exit\n", "p"), std::invalid_argument);           // no section
    CHECK_THROWS_AS(grader::parse_policy("[x]\ncall exit\n", "p"), std::invalid_argument);      // no such kind
    CHECK_THROWS_AS(grader::parse_policy("[x]\nname\n", "p"), std::invalid_argument);           // nothing to find
    CHECK_THROWS_AS(grader::parse_policy("[x\nname exit\n", "p"), std::invalid_argument);       // unclosed section
    CHECK(grader::parse_policy("", "p").empty());
}

TEST_CASE("names in code are found, with their line") {
    CHECK(found("void f() {\n  std::exit(0);\n}\n") == "2:exit");
    CHECK(found("int main() { fork(); execvp(a, b); fork(); }") == "1:fork, execvp");  // one line, one reason
    CHECK(found("fork(); setenv(a, b, 1);") == "1:fork 1:setenv");                      // two reasons
    CHECK(found("auto p = &setenv;") == "1:setenv");  // taken as a pointer, still found
    CHECK(found("cublasSgemm(h, CUBLAS_OP_N);") == "1:cublasSgemm");
}

TEST_CASE("the report names each reason once, then its findings") {
    const auto f = scan("\n\nexit(1);\nsetenv(a, b, 1);\nfork();\n");
    CHECK(grader::policy_report(f, 10) ==
          std::vector<std::string>{"process control:", "  a.cu:3: exit", "  a.cu:5: fork", "the environment:", "  a.cu:4: setenv"});
    CHECK(grader::policy_report(f, 2) == std::vector<std::string>{"process control:", "  a.cu:3: exit", "  a.cu:5: fork", "and 1 more"});
    CHECK(grader::policy_report({}, 10).empty());
}

TEST_CASE("no false positives: comments, messages, longer names, members, case") {
    CHECK(found("int exit_code = 0; bool exited; int my_exit(int);") == "");
    CHECK(found("// calls system() and exit() in a comment\n/* fork() setenv */ int x;") == "");
    CHECK(found("printf(\"exit now, fork later\\n\");") == "");
    CHECK(found("char c = 'exit';") == "");  // a (multi-)character literal
    CHECK(found("file.open(); p->exit(); q -> fork ();") == "");
    CHECK(found("int Exit, EXIT; struct Fork {};") == "");
    CHECK(found("float x = 1e5f + 0x1fexit;") == "");         // the letters of a number
    CHECK(found("int n = 1'000'000; exit(n);") == "1:exit");  // a digit separator opens no literal
    CHECK(found("const char* s = R\"x(exit(0); \" still inside)x\"; int y;") == "");
}

TEST_CASE("comments end where the compiler ends them") {
    CHECK(found("/* exit() */ exit(1);") == "1:exit");
    CHECK(found("// a comment \\\n exit(1);\nfork();") == "3:fork");  // the backslash continues the comment
    CHECK(found("/* one\n two */ fork();") == "2:fork");
    CHECK(found("\"/* not a comment\"; fork(); \"*/\";") == "1:fork");
}

TEST_CASE("a name split by a line continuation is found on its first line") {
    CHECK(found("int a;\nse\\\ntenv(\"A\", \"b\", 1);") == "2:setenv");
}

TEST_CASE("string literals: their text, joined and decoded") {
    CHECK(found("getenv(\"GRADER_SEED\");") == "1:\"GRADER_\" in a string");
    CHECK(found("const char* k = \"GRA\" /* split */ \"DER_KEY\";") == "1:\"GRADER_\" in a string");
    CHECK(found("const char* k = \"GRA\"\n    \"DER_KEY\";") == "1:\"GRADER_\" in a string");
    CHECK(found("const char* k = \"GRADER\\x5fKEY\";") == "1:\"GRADER_\" in a string");
    CHECK(found("const char* k = u8\"/proc/self/environ\";") == "1:\"/proc/\" in a string");
    CHECK(found("const char* k = R\"(/proc/self)\";") == "1:\"/proc/\" in a string");
    CHECK(found("const char* k = \"GRA\"; const char* j = \"DER_\";") == "");  // two strings, not one
    CHECK(found("printf(\"grader settings\");") == "");
}

TEST_CASE("#include lines: the header is checked, its words are not names") {
    CHECK(found("#include <cublas_v2.h>\n") == "1:#include <cublas_v2.h>");
    CHECK(found("  #  include \"cub/cub.cuh\"\n") == "1:#include \"cub/cub.cuh\"");
    CHECK(found("#include \"../../grader/settings.hpp\"\n") == "1:#include \"../../grader/settings.hpp\"");
    CHECK(found("#include </work/grader/settings.hpp>\n") == "1:#include </work/grader/settings.hpp>");
    CHECK(found("#include <cstdlib>\n#include \"tiling.cuh\"\n#include <open.h>\n") == "");
    CHECK(found("#define QUIT exit(1)\n") == "1:exit");  // a macro's body is code
    CHECK(found("#if 0\nfork();\n#endif\n") == "2:fork");  // read whatever the preprocessor would keep
    const auto st = grader::read_source("#include <a.h> // exit\n#include \"b.cuh\"\n");
    REQUIRE(st.includes.size() == 2);
    CHECK(st.includes[0].text == "a.h");
    CHECK(!st.includes[0].quoted);
    CHECK(st.includes[1].quoted);
    CHECK(st.includes[1].line == 2);
}

TEST_CASE("what a static check cannot see: a name pasted by a macro") {
    CHECK(found("#define JOIN(a, b) a##b\nJOIN(set, env)(\"X\", \"1\", 1);") == "");
}

TEST_CASE("the student's own headers beside a file are read too, once") {
    char tmpl[] = "/tmp/policy-test-XXXXXX";
    REQUIRE(mkdtemp(tmpl) != nullptr);
    const std::string dir = tmpl;
    std::ofstream(dir + "/a.cu") << "#include \"helpers.cuh\"\n#include \"helpers.cuh\"\n#include \"tiling.cuh\"\nint a;\n";
    std::ofstream(dir + "/helpers.cuh") << "#pragma once\n#include \"a.cu\"\ninline void quit() { exit(1); }\n";
    const auto f = grader::check_files({dir + "/a.cu", dir + "/absent.cu"}, {"03-tiling/a.cu", "03-tiling/absent.cu"},
                                       grader::parse_policy(kRules, "rules"));
    REQUIRE(f.size() == 1);
    CHECK(f[0].file == "03-tiling/helpers.cuh");
    CHECK(f[0].line == 3);
    std::remove((dir + "/a.cu").c_str());
    std::remove((dir + "/helpers.cuh").c_str());
    rmdir(dir.c_str());
}
