// SPDX-License-Identifier: MIT
#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <unistd.h>

#include "grader/settings.hpp"

TEST_CASE("settings are read once and every GRADER_ variable leaves the environment") {
    setenv("GRADER_THRESHOLD_SCALE", "0.5", 1);
    setenv("GRADER_SEED", "1234", 1);
    setenv("GRADER_SOMETHING_NEW", "x", 1);
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
}
