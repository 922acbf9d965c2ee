// SPDX-License-Identifier: MIT
#include <doctest/doctest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "grader/common/text_file.hpp"

TEST_CASE("a regular file is read whole; a folder or a missing file says why") {
    const std::string path = "/tmp/grader-text-file-test.txt";
    {
        std::ofstream f(path, std::ios::binary);
        f << "line one\n" << std::string("\0x", 2);  // a NUL byte too: read verbatim
    }
    std::string text, why;
    CHECK(grader::read_text_file(path, text, &why));
    CHECK(text == std::string("line one\n") + std::string("\0x", 2));
    std::remove(path.c_str());

    text = "unchanged";
    CHECK_FALSE(grader::read_text_file("/tmp", text, &why));
    CHECK(why == "not a regular file");
    CHECK(text == "unchanged");
    CHECK_FALSE(grader::read_text_file(path, text, &why));  // removed above
    CHECK(why.find("No such file") != std::string::npos);
    CHECK_FALSE(grader::read_text_file(path, text));  // no reason wanted
}
