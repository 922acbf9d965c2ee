// SPDX-License-Identifier: MIT
#include "grader/common/timed_sizes.hpp"

#include <stdexcept>
#include <string>

#include "grader/common/random.hpp"

namespace grader {

size_t band_span(size_t max, double share) {
    const double limit = share * double(max);
    if (!(limit >= 1)) return 0;
    size_t span = 1;
    while (double(span) * 2 <= limit) span *= 2;
    return span;
}

size_t SizeDraw::pick(size_t max, size_t span, size_t step) {
    if (step == 0 || span > max) throw std::invalid_argument("SizeDraw::pick: a band reaching below 0, or a step of 0");
    const uint64_t dimension = picks_++;
    if (nominal_ || run_ == 0) return max;  // the first run: the largest (timed_sizes.hpp, SizeDraw)
    const uint64_t choices = span / step + 1;  // r = 0 … span / step
    uint64_t low = 1;                          // the stratified residues: a power of two ≤ choices
    while (low * 2 <= choices && low < (uint64_t(1) << kStratifiedBits)) low *= 2;
    // One (s, m) per dimension for the whole series, fresh high bits per run; the streams are
    // told apart by mixing the dimension and the run into the series' seed.
    Rng series(series_ ^ (0xD6E8FEB86659FD93ull * (dimension + 1)));
    const uint64_t s = series.next(), m = series.next() | 1;
    Rng run(series_ ^ (0xA0761D6478BD642Full * (dimension + 1)) ^ (0xE7037ED1A0B428DBull * (uint64_t(run_) + 1)));
    // r's residue modulo `low` from the series, the rest from this run; a draw past the last
    // choice steps back by `low`, which keeps the residue.
    uint64_t r = (s + uint64_t(run_) * m) % low + low * (run.next() % ((choices + low - 1) / low));
    if (r >= choices) r -= low;
    return max - size_t(step * r);
}

double scaled_sample(double ms, double work_share) {
    if (!(work_share > 0 && work_share <= 1))
        throw std::logic_error("grader bug: a timed run's work share must lie in (0, 1], not " + std::to_string(work_share));
    return ms / work_share;
}

}  // namespace grader
