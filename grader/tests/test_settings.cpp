// SPDX-License-Identifier: MIT
#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <unistd.h>
#include <vector>

#include "grader/common/settings.hpp"

TEST_CASE("settings are read once and every GRADER_ variable leaves the environment") {
    setenv("GRADER_THRESHOLD_SCALE", "0.5", 1);
    setenv("GRADER_SEED", "1234", 1);
    setenv("GRADER_SOMETHING_NEW", "x", 1);
    setenv("GRADER_TRACE", "kernels", 1);
    char path[] = "/tmp/grader-key-test-XXXXXX";
    int fd = mkstemp(path);
    REQUIRE(fd >= 0);
    const unsigned char key[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    REQUIRE(write(fd, key, sizeof key) == 16);
    close(fd);
    setenv("GRADER_KEY_FILE", path, 1);

    const grader::Settings s = grader::read_and_scrub_environment();
    CHECK(s.threshold_scale == "0.5");
    CHECK(s.seed == "1234");
    CHECK(s.has_key);
    CHECK(s.key[15] == 16);
    CHECK(s.trace_kernels());
    CHECK(std::getenv("GRADER_TRACE") == nullptr);
    CHECK(std::getenv("GRADER_THRESHOLD_SCALE") == nullptr);
    CHECK(std::getenv("GRADER_SEED") == nullptr);
    CHECK(std::getenv("GRADER_SOMETHING_NEW") == nullptr);
    CHECK(access(path, F_OK) != 0);  // the key file is consumed

    // What a submission sets later is not read: the snapshot is taken.
    setenv("GRADER_THRESHOLD_SCALE", "0.01", 1);
    CHECK(s.threshold_scale == "0.5");
    unsetenv("GRADER_THRESHOLD_SCALE");
}

TEST_CASE("without a key file there is no key") {
    const grader::Settings s = grader::read_and_scrub_environment();
    CHECK_FALSE(s.has_key);
    CHECK_FALSE(s.supervised());
    CHECK_FALSE(s.trace_kernels());  // an unsupervised run traces nothing unless asked
}

namespace {

// A temporary file with `text`; removed by the caller.
std::string temp_file(const std::string& text) {
    char path[] = "/tmp/grader-args-test-XXXXXX";
    int fd = mkstemp(path);
    REQUIRE(fd >= 0);
    REQUIRE(write(fd, text.data(), text.size()) == ssize_t(text.size()));
    close(fd);
    return path;
}

}  // namespace

TEST_CASE("an @FILE gives one argument a line, verbatim, in its place") {
    // No quoting: spaces, quotes and a leading @ stay as written; empty lines are skipped;
    // the last line needs no newline.
    const std::string path = temp_file("--name=lesson01\n\n-tc=01.1*,01.2*\n--kernels=a b.cu,'c'.cu\n@not-a-file\n--seed=7");
    const std::vector<grader::Argument> a = grader::expand_argument_files({"--list", "@" + path, "--seed=9"});
    unlink(path.c_str());
    REQUIRE(a.size() == 7);
    CHECK(a[0].text == "--list");
    CHECK_FALSE(a[0].from_file);
    CHECK(a[1].text == "--name=lesson01");
    CHECK(a[1].from_file);
    CHECK(a[2].text == "-tc=01.1*,01.2*");
    CHECK(a[3].text == "--kernels=a b.cu,'c'.cu");
    CHECK(a[4].text == "@not-a-file");
    CHECK(a[4].from_file);
    CHECK(a[5].text == "--seed=7");
    CHECK(a[6].text == "--seed=9");
    CHECK_FALSE(a[6].from_file);
}

TEST_CASE("an empty @FILE gives no arguments") {
    const std::string path = temp_file("");
    CHECK(grader::expand_argument_files({"@" + path}).empty());
    unlink(path.c_str());
}

TEST_CASE("an @FILE that cannot be read is an error that names it") {
    const std::string missing = "/tmp/grader-args-test-missing/lesson01.args";
    try {
        grader::expand_argument_files({"@" + missing});
        FAIL("a missing file must throw");
    } catch (const std::runtime_error& e) {
        const std::string what = e.what();
        CHECK(what.find(missing) != std::string::npos);
        CHECK(what.find("No such file") != std::string::npos);
        CHECK(what.find('\n') == std::string::npos);  // one line
    }
    CHECK_THROWS_AS(grader::expand_argument_files({"@/tmp"}), std::runtime_error);  // a folder
    CHECK_THROWS_AS(grader::expand_argument_files({"@"}), std::runtime_error);      // no name
}

TEST_CASE("a typed option beats the caller's variable, which beats the @FILE's option") {
    grader::Layered l;
    bool from_variable = true;
    CHECK(l.value("", &from_variable) == "");
    CHECK_FALSE(from_variable);
    l.from_file = std::string("1");
    CHECK(l.value("") == "1");
    CHECK(l.value("0.8", &from_variable) == "0.8");
    CHECK(from_variable);
    l.typed = std::string("0.5");
    CHECK(l.value("0.8", &from_variable) == "0.5");
    CHECK_FALSE(from_variable);
    l.typed = std::string();  // typed empty: a choice too (--sanitizer= turns the setup's sanitizer off)
    CHECK(l.value("memcheck") == "");
}

TEST_CASE("GRADER_SMS is read with the other settings and leaves the environment") {
    setenv("GRADER_SMS", "16", 1);
    const grader::Settings s = grader::read_and_scrub_environment();
    CHECK(s.sms == "16");
    CHECK(std::getenv("GRADER_SMS") == nullptr);
}

TEST_CASE("the head start's pipes are descriptors, or none") {
    setenv("GRADER_GATE", "7", 1);
    setenv("GRADER_MADE", "x9", 1);
    const grader::Settings s = grader::read_and_scrub_environment();
    CHECK(s.gate_fd == 7);
    CHECK(s.made_fd == -1);  // not a number: no pipe
    CHECK(std::getenv("GRADER_GATE") == nullptr);
}

TEST_CASE("--sms takes a whole number of SMs, or all for the whole GPU") {
    CHECK(grader::parse_sms("") == 0);  // not given: no limit
    CHECK(grader::parse_sms("all") == 0);
    CHECK(grader::parse_sms("16") == 16);
    CHECK(grader::parse_sms("1") == 1);
    CHECK(grader::parse_sms("066") == 66);
    CHECK(grader::parse_sms("100000") == 100000);
    // Whether the GPU has that many is for the driver to say (grader/common/sm_limit.cuh), not the parser.
    for (const char* bad : {"0", "-16", "+16", "16.5", " 16", "16 ", "sixteen", "All", "100001", "9999999999", "1e3"}) {
        CAPTURE(bad);
        try {
            grader::parse_sms(bad);
            FAIL("accepted");
        } catch (const std::invalid_argument& e) {
            const std::string what = e.what();
            CHECK(what.rfind("GRADER_SMS='" + std::string(bad) + "'", 0) == 0);  // names the variable and the text
            CHECK(what.find('\n') == std::string::npos);
        }
    }
}

TEST_CASE("a typed --sms=all beats a GRADER_SMS from the caller") {
    // The sweep of tools/gpu_selftest.py sets GRADER_SMS; a typed option still wins.
    grader::Layered l;
    l.typed = std::string("all");
    CHECK(grader::parse_sms(l.value("16")) == 0);
    l.typed.reset();
    CHECK(grader::parse_sms(l.value("16")) == 16);
}
