// SPDX-License-Identifier: MIT
// SipHash-2-4 written from the algorithm's description in the 2012 paper: four 64-bit
// state words, two compression rounds per 8-byte block, four finalization rounds.
#include "grader/common/siphash.hpp"

namespace grader {

namespace {

uint64_t rotl(uint64_t x, int b) { return (x << b) | (x >> (64 - b)); }

uint64_t load_le(const unsigned char* p, size_t n) {
    uint64_t v = 0;
    for (size_t i = 0; i < n; ++i) v |= uint64_t(p[i]) << (8 * i);
    return v;
}

struct State {
    uint64_t v0, v1, v2, v3;
    void round() {
        v0 += v1, v1 = rotl(v1, 13), v1 ^= v0, v0 = rotl(v0, 32);
        v2 += v3, v3 = rotl(v3, 16), v3 ^= v2;
        v0 += v3, v3 = rotl(v3, 21), v3 ^= v0;
        v2 += v1, v1 = rotl(v1, 17), v1 ^= v2, v2 = rotl(v2, 32);
    }
    void absorb(uint64_t m) {
        v3 ^= m;
        round(), round();
        v0 ^= m;
    }
};

}  // namespace

uint64_t siphash24(const std::array<uint8_t, 16>& key, const std::string& message) {
    const uint64_t k0 = load_le(key.data(), 8), k1 = load_le(key.data() + 8, 8);
    // The initial words are the ASCII of "somepseudorandomlygeneratedbytes".
    State s{k0 ^ 0x736f6d6570736575ull, k1 ^ 0x646f72616e646f6dull, k0 ^ 0x6c7967656e657261ull,
            k1 ^ 0x7465646279746573ull};
    const auto* p = reinterpret_cast<const unsigned char*>(message.data());
    const size_t n = message.size(), full = n / 8 * 8;
    for (size_t i = 0; i < full; i += 8) s.absorb(load_le(p + i, 8));
    // The last block: the remaining bytes, with the message length (mod 256) in the top byte.
    s.absorb(load_le(p + full, n - full) | (uint64_t(n & 0xff) << 56));
    s.v2 ^= 0xff;
    for (int r = 0; r < 4; ++r) s.round();
    return s.v0 ^ s.v1 ^ s.v2 ^ s.v3;
}

}  // namespace grader
