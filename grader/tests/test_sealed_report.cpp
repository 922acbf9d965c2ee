// SPDX-License-Identifier: MIT
#include <doctest/doctest.h>

#include <string>

#include "grader/common/sealed_report.hpp"
#include "grader/common/siphash.hpp"

namespace {
std::array<uint8_t, 16> counting_key() {
    std::array<uint8_t, 16> k{};
    for (int i = 0; i < 16; ++i) k[i] = uint8_t(i);
    return k;
}
}  // namespace

TEST_CASE("SipHash-2-4 gives the published test vectors") {
    // Key 00 01 … 0f; messages of 0 and 15 bytes 00 01 …: the first and the sixteenth
    // vector of the algorithm's reference test table, and the paper's worked example.
    CHECK(grader::siphash24(counting_key(), "") == 0x726fdb47dd0e0e31ull);
    std::string fifteen;
    for (int i = 0; i < 15; ++i) fifteen += char(i);
    CHECK(grader::siphash24(counting_key(), fifteen) == 0xa129ca6149be45e5ull);
}

TEST_CASE("a sealed report opens with its key and keeps every field") {
    grader::Report r;
    r.add("verdict", "PASS").add("message", "line one\nline two \\ with a backslash").add("exercise", "01.1").add("exercise", "01.2");
    const auto key = grader::random_key();
    grader::Report back;
    REQUIRE(grader::Report::open(r.seal(key), key, back) == grader::Report::Opened::ok);
    CHECK(back.get("message") == "line one\nline two \\ with a backslash");
    CHECK(back.all("exercise") == std::vector<std::string>{"01.1", "01.2"});
    CHECK(back.get("absent").empty());
}

TEST_CASE("a report written without the key, changed, or missing is never accepted") {
    grader::Report r;
    r.add("verdict", "FAIL").add("reason", "slow");
    const auto key = grader::random_key();
    const std::string sealed = r.seal(key);
    grader::Report out;
    auto other = key;
    other[0] ^= 1;
    CHECK(grader::Report::open(r.seal(other), key, out) == grader::Report::Opened::forged);
    std::string changed = sealed;
    changed.replace(changed.find("FAIL"), 4, "PASS");
    CHECK(grader::Report::open(changed, key, out) == grader::Report::Opened::forged);
    CHECK(grader::Report::open("", key, out) == grader::Report::Opened::empty);
    CHECK(grader::Report::open("{\"verdict\": \"PASS\"}\n", key, out) == grader::Report::Opened::malformed);
    CHECK(grader::Report::open(sealed + "verdict=PASS\n", key, out) == grader::Report::Opened::malformed);
    CHECK(out.fields().empty());
    CHECK(grader::random_key() != grader::random_key());
}
