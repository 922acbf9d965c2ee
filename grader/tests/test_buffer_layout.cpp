// SPDX-License-Identifier: MIT
#include <doctest/doctest.h>

#include <stdexcept>

#include "grader/exercise/buffer_layout.hpp"

namespace {
constexpr size_t kAlign = 256;
}

TEST_CASE("a used part of the virtual-memory layout ends next to the unmapped page, like a buffer of its size") {
    // A 2 MiB granule mapped for 1 000 003 bytes: the data starts where its end, rounded up
    // to 256, meets the end of the mapping.
    const size_t region = size_t(2) << 20, capacity = 1000003, aligned = (capacity + 255) / 256 * 256;
    const size_t start = region - aligned;
    for (size_t bytes : {capacity, capacity - 1, capacity - 255, size_t(999000), size_t(256), size_t(1), size_t(0)}) {
        const grader::UsedPart p = grader::place_used_part(region, start, capacity, bytes, kAlign);
        CHECK(p.offset % kAlign == 0);
        CHECK(p.offset >= start);
        CHECK(p.offset + bytes + p.back == region);
        CHECK(p.back < kAlign);                               // as for a buffer made with `bytes`
        CHECK(p.back == (bytes + 255) / 256 * 256 - bytes);  // the same guard bytes after the end
    }
    CHECK(grader::place_used_part(region, start, capacity, capacity, kAlign).offset == start);  // full: as made
}

TEST_CASE("a used part of the fallback layout keeps its guard zones, less at most the alignment's slack after it") {
    // cudaMalloc of 4 KiB guard, data, 4 KiB guard. A used part ends where the capacity
    // rounded up to 256 ends, which may lie up to 255 bytes into the back guard zone.
    const size_t capacity = 5000, region = 4096 + capacity + 4096;
    for (size_t bytes : {capacity, size_t(4999), size_t(4000), size_t(0)}) {
        const grader::UsedPart p = grader::place_used_part(region, 4096, capacity, bytes, kAlign);
        CHECK(p.offset % kAlign == 0);
        CHECK(p.offset >= 4096);
        CHECK(p.offset + bytes + p.back == region);
        CHECK(p.back + kAlign > 4096);
        CHECK(p.offset + bytes <= 4096 + 5120);  // 5000 rounded up to 256
    }
    CHECK(grader::place_used_part(region, 4096, capacity, capacity, kAlign).back == 4096);  // full: as made
}

TEST_CASE("a used part larger than the buffer, or a misaligned start, is a grader bug") {
    CHECK_THROWS_AS(grader::place_used_part(4096, 0, 1000, 1001, kAlign), std::logic_error);
    CHECK_THROWS_AS(grader::place_used_part(4096, 8, 1000, 10, kAlign), std::logic_error);
    CHECK_THROWS_AS(grader::place_used_part(1000, 256, 1000, 10, kAlign), std::logic_error);
}
