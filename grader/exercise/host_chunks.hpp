// SPDX-License-Identifier: MIT
/// @file
/// @brief Host work on large inputs, cut into chunks spread over a few threads.
///
/// Making and checking the timing inputs (256 MiB to 1 GiB each) took seconds of every
/// exercise process on one core; so did lesson 03's float64 reference products. Chunks have a fixed size and each has a generator of its
/// own, seeded from the input's seed and the chunk's number: the data depend on the run's
/// seed, never on how many threads made them.
#pragma once
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <system_error>
#include <thread>
#include <vector>

#include "grader/common/random.hpp"

namespace grader {

/// Elements per chunk: a multiple of 8, so generators that fill whole words stay aligned.
constexpr size_t kHostChunk = size_t(4) << 20;

/// body(begin, end, c) for each part c = [begin, end) of [0, n), `per_part` elements each
/// (the last may be shorter), once, on up to 8 threads. The caller's thread works too; where
/// no thread can be started it does all of it.
inline void for_each_part(size_t n, size_t per_part, const std::function<void(size_t, size_t, size_t)>& body) {
    const size_t parts = (n + per_part - 1) / per_part;
    const size_t threads = std::min<size_t>({parts, 8, std::max(1u, std::thread::hardware_concurrency())});
    std::atomic<size_t> next{0};
    const auto work = [&] {
        for (size_t c; (c = next++) < parts;) body(c * per_part, std::min(n, (c + 1) * per_part), c);
    };
    std::vector<std::thread> helpers;
    for (size_t t = 1; t < threads; ++t) {
        try {
            helpers.emplace_back(work);
        } catch (const std::system_error&) {
            break;
        }
    }
    work();
    for (std::thread& t : helpers) t.join();
}

/// for_each_part in chunks of kHostChunk elements: the parts that inputs are drawn in.
inline void for_each_chunk(size_t n, const std::function<void(size_t, size_t, size_t)>& body) {
    for_each_part(n, kHostChunk, body);
}

/// The generator of chunk c of an input whose seed is `seed`.
inline Rng chunk_rng(uint64_t seed, size_t c) { return Rng(Rng(seed ^ (c * 0x9E3779B97F4A7C15ull)).next()); }

/// body(begin, end, r) for each chunk of [0, n) (for_each_chunk), `r` that chunk's own
/// generator, seeded from one number drawn from `rng`: how large inputs are drawn.
inline void for_each_seeded_chunk(size_t n, Rng& rng, const std::function<void(size_t, size_t, Rng&)>& body) {
    const uint64_t seed = rng.next();
    for_each_chunk(n, [&](size_t begin, size_t end, size_t c) {
        Rng r = chunk_rng(seed, c);
        body(begin, end, r);
    });
}

}  // namespace grader
