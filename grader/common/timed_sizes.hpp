// SPDX-License-Identifier: MIT
/// @file
/// @brief The sizes of timed calls: every timed run, warm-ups included, works on a size
///        drawn from a band just below the size its buffers were made for (pure host code,
///        unit-tested without a GPU).
///
/// A timed call of one fixed size meets one remainder of n against a launcher's grid,
/// block and vector width: a tail bug that shows at other remainders passes on the GPU
/// that grades it and fails on one whose free memory gives another timed size, and a
/// result kept under its size could be replayed (issue 32). So a lesson describes its band
/// once, in its Call (call.hpp, Call::timed_size): a function that picks each varied
/// dimension from a SizeDraw, points the call's buffers at the part that size uses
/// (DeviceBuffer::use) and returns the run's work as a share of the nominal work its
/// Performance declares. time_launch divides each run's time by that share
/// (scaled_sample): every sample is the time the nominal work would take at that run's
/// speed, so the median, the figure in GB/s or GFLOP/s and the thresholds mean what they
/// meant for a call of one size. A band changes the work by about 1 % at most (band_span),
/// far less than the shape effects a threshold's margins allow for.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace grader {

/// The share of the nominal size a band may take away: about 1 % of the work.
inline constexpr double kBandShare = 0.01;

/// The runs of one timing whose residues are laid out rather than drawn (SizeDraw::pick):
/// 2^kStratifiedBits of them.
inline constexpr int kStratifiedBits = 6;

/// The largest power of two at most `share` × `max` (0 where that is below 1): the span of
/// a band [max − span, max] of element counts. A power of two, so that the remainder of n
/// against every grid × block × vector width up to the span takes every value in the band.
size_t band_span(size_t max, double share = kBandShare);

/// The sizes of one timed run: one SizeDraw per run, picks in the order the lesson makes them.
class SizeDraw {
public:
    /// Every pick returns its `max`: the size the buffers were made for. Used once a timing
    /// is over, so that what follows (untimed checks, diagnoses, plain baselines) sees the
    /// nominal size again.
    static SizeDraw nominal() { return SizeDraw(); }
    /// Run `run` (0: the first warm-up) of the timing whose series is `series`, a value no
    /// launcher can predict (Exercise draws it with fresh_key() for every timing). Run 0 works
    /// on the nominal size, the largest of the band: a launcher that keeps buffers sized by the
    /// largest call so far makes them there, and every later run reuses them, so that what it
    /// keeps in them from call to call (a replay keyed by a digest of the inputs, a cache
    /// dropped whenever its buffers grow) meets a verified run from run 1 on. Drawn sizes let
    /// such a launcher through about once in 70 timings on lesson 03's band (issue 32: a
    /// known-bad variant passed once in two runs of the self-test on an H100, 2026-12-07).
    SizeDraw(uint64_t series, int run) : series_(series), run_(run), nominal_(false) {}

    bool is_nominal() const { return nominal_; }

    /// A size of the band [max − span, max] that differs from max by a multiple of `step`:
    /// max − step·r for r in 0 … span / step. The residues of r modulo 2^j, for 2^j up to
    /// 2^kStratifiedBits (and up to the number of choices), follow s + run·m for an odd m and
    /// an s drawn from the series, a pair of its own for each pick: in any 2^j consecutive
    /// runs from run 1 on every residue comes up once, so a bug that is wrong on a quarter of
    /// the remainders of n modulo 4 is met within runs 1 to 4, which are verified like every
    /// run. The rest of r is drawn afresh for every run. Run 0 returns max. Throws
    /// std::invalid_argument when step is 0 or span exceeds max.
    size_t pick(size_t max, size_t span, size_t step = 1);

private:
    SizeDraw() = default;
    uint64_t series_ = 0;
    int run_ = 0;
    bool nominal_ = true;
    uint64_t picks_ = 0;  ///< picks made so far: each is a dimension with its own residues
};

/// What a Call's size chooser reports of one run (call.hpp, Call::timed_size).
struct RunSize {
    double work_share = 1;  ///< this run's work ÷ the nominal work: in (0, 1]
    std::string text;       ///< its size for messages, e.g. "n = 27962001"
};

/// A run's time as the nominal work would take at its speed: ms ÷ work_share. Throws
/// std::logic_error (a grader bug) unless 0 < work_share ≤ 1, since every band lies below
/// the nominal size.
double scaled_sample(double ms, double work_share);

}  // namespace grader
