// SPDX-License-Identifier: MIT
// Lesson 05 grader: 256-bin histograms of bytes. Every exercise is checked for the exact
// count of every bin on four kinds of input (uniform bytes, English text, one value
// repeated, 90 % one value) at awkward sizes, called a second time on the bins of its
// first call, and then timed against a routine run on the same bytes in the same run:
// 05.1 against the grader's one-global-atomic-per-byte kernel (the starter's), 05.2 and
// 05.3 against CUB DeviceHistogram::HistogramEven. Every timed call counts fresh bytes made
// on the device and must match CUB's bins for them exactly. Exercise 05.0 prints the
// teaching table: every version on inputs from no contention to a single value.
#include <doctest/doctest.h>

#include <cub/device/device_histogram.cuh>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <functional>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "grader/exercise/grader.hpp"
#include "histogram.cuh"
#include "histogram_versions.cuh"

GRADER_LESSON("05", "Atomics and privatization", "lessons/05-histogram/theory.md");

namespace {

// The thresholds, and why each is what it is: lessons/05-histogram/thresholds.txt.

// ------------------------------------------------------------------ inputs
constexpr double kSkew = 0.9;                  // share of the most frequent value in the skewed inputs
const double kTableShares[] = {0.5, 0.9, 0.99};  // 05.0's contention between uniform (0) and one value (1)
const char* const kTextPath = "/usr/share/common-licenses/GPL-3";  // in every Debian and Ubuntu system

// n = 0, sizes around one and sixteen bytes (one uint4), around 256 (a block's bins; and
// the input then ends flush with the unmapped page after it, where a 16-byte load past
// the end faults), primes, and large sizes.
const size_t kSizes[] = {0, 1, 15, 16, 17, 31, 255, 256, 257, 4096, 4097, 65536, 1000003, 1048576, 16777259};
constexpr size_t kRepeatSize = 1000003;  // also called a second time on the bins of its first call
constexpr size_t kSanitizerMaxN = 70000;  // compute-sanitizer runs kernels far slower
// 05.1's kernels are limited by atomics, far below DRAM speed: 64 MiB take milliseconds
// (and the starter's one atomic per byte, timed for the threshold, takes far longer).
constexpr size_t kAtomicsTimingBytes = (size_t(64) << 20) | 1;
// 05.0: every version on six inputs; the versions with one byte per thread only on the
// first kTableSlowBytes (they run at a few GB/s or less where one value dominates). The L2
// is flushed before every timed run, so 128 MiB (twice the H200's L2) are read from DRAM
// as 256 MiB were, at half the host time to make and count them (launch costs weigh a
// little more in the fastest rows).
constexpr size_t kTableBytes = (size_t(128) << 20) | 1, kTableSlowBytes = (size_t(16) << 20) | 1;

using Bytes = std::vector<unsigned char>;
using Counts = std::array<uint64_t, kHistogramBins>;
using Launcher = void (*)(const unsigned char*, size_t, unsigned int*);

// Inputs are made and counted in chunks on several threads (grader/exercise/host_chunks.hpp).
using grader::for_each_chunk;
using grader::for_each_seeded_chunk;
constexpr size_t kChunk = grader::kHostChunk;

enum class Kind { uniform, text, one_value, skewed };

struct Input {
    Bytes bytes;
    std::string what;  // for messages: "uniform bytes", "90 % one value (37), the rest uniform"
};

// The text the text inputs repeat: the GPL version 3, or, where that file is absent, a
// generated stand-in with English-like letter and space frequencies.
struct Text {
    Bytes bytes;
    std::string name;
};

Bytes english_like() {
    static const char* const words[] = {
        "the", "of", "and", "to", "a", "in", "is", "that", "for", "it", "as", "with", "be", "on", "not", "this",
        "by", "are", "or", "from", "at", "which", "an", "have", "all", "one", "their", "there", "been", "more",
        "when", "program", "work", "license", "source", "code", "copy", "free", "software", "terms", "rights",
        "modify", "distribute", "under", "any", "other", "each", "those", "these", "people", "public", "general"};
    grader::Rng rng(2007);
    Bytes out;
    bool capital = true;
    while (out.size() < (size_t(40) << 10)) {
        const std::string w = words[rng.next() % std::size(words)];
        for (size_t i = 0; i < w.size(); ++i) out.push_back(static_cast<unsigned char>(i == 0 && capital ? w[i] - 32 : w[i]));
        const uint64_t r = rng.next() % 100;
        capital = r < 6;
        if (r < 6) out.push_back('.');
        else if (r < 11) out.push_back(',');
        out.push_back(r % 13 == 0 ? '\n' : ' ');
    }
    return out;
}

const Text& text_source() {
    static const Text text = [] {
        std::ifstream f(kTextPath, std::ios::binary);
        Bytes b((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
        if (b.size() >= 1024) return Text{b, "English text (" + std::string(kTextPath) + ", repeated)"};
        std::printf("      %s not found: the text inputs use generated English-like text instead\n", kTextPath);
        return Text{english_like(), "English-like generated text"};
    }();
    return text;
}

// The generators below fill `b`, resized to n bytes, whatever it held: a buffer handed
// back to them keeps its pages, and mapping fresh ones costs the host about as much as
// filling them (half a second per GiB on the machine the lesson was written on).

// Eight bytes per random number.
Bytes uniform_bytes(size_t n, grader::Rng& rng, Bytes b) {
    b.resize(n);
    unsigned char* const out = b.data();
    for_each_seeded_chunk(n, rng, [out](size_t begin, size_t end, grader::Rng& r) {
        size_t i = begin;
        for (; i + 8 <= end; i += 8) {
            const uint64_t x = r.next();
            for (int k = 0; k < 8; ++k) out[i + k] = static_cast<unsigned char>(x >> (8 * k));
        }
        for (uint64_t x = r.next(); i < end; ++i, x >>= 8) out[i] = static_cast<unsigned char>(x);
    });
    return b;
}

// A share of the bytes (in 1/65536 steps) hold `hot`, the others are uniform (so `hot`
// also gets its 1/256 of those). Two bytes per random number: 16 bits decide, 8 bits give
// the uniform value. A share of 1 is `hot` repeated.
Bytes contended_bytes(size_t n, double share, unsigned char hot, grader::Rng& rng, Bytes b) {
    if (share >= 1) {
        b.assign(n, hot);
        return b;
    }
    const uint64_t threshold = uint64_t(share * 65536.0 + 0.5);
    const auto pick = [threshold, hot](uint64_t part) {
        return (part & 0xFFFFu) < threshold ? hot : static_cast<unsigned char>(part >> 16);
    };
    b.resize(n);
    unsigned char* const out = b.data();
    for_each_seeded_chunk(n, rng, [out, pick](size_t begin, size_t end, grader::Rng& r) {
        for (size_t i = begin; i < end; i += 2) {
            const uint64_t x = r.next();
            out[i] = pick(x);
            if (i + 1 < end) out[i + 1] = pick(x >> 24);
        }
    });
    return b;
}

Bytes text_bytes(size_t n, grader::Rng& rng, Bytes b) {
    const Bytes& src = text_source().bytes;
    b.resize(n);
    size_t from = rng.next() % src.size(), done = 0;
    while (done < n) {
        const size_t k = std::min(n - done, src.size() - from);
        std::copy_n(src.begin() + from, k, b.begin() + done);
        done += k, from = 0;
    }
    return b;
}

std::string percent(double share) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g %%", 100 * share);
    return buf;
}

// `storage`: a buffer to fill (see the generators), e.g. the previous input's bytes.
Input make_input(Kind kind, size_t n, grader::Rng& rng, double share = kSkew, Bytes storage = {}) {
    switch (kind) {
        case Kind::uniform: return {uniform_bytes(n, rng, std::move(storage)), "uniform bytes"};
        case Kind::text: return {text_bytes(n, rng, std::move(storage)), text_source().name};
        case Kind::one_value: {
            // 128–255: the values a signed char turns negative
            const auto v = static_cast<unsigned char>(128 + rng.next() % 128);
            storage.assign(n, v);
            return {std::move(storage), "one value (" + std::to_string(v) + ") repeated"};
        }
        case Kind::skewed: {
            const auto hot = static_cast<unsigned char>(rng.next() % 256);
            return {contended_bytes(n, share, hot, rng, std::move(storage)),
                    share >= 1 ? "one value (" + std::to_string(hot) + ") repeated"
                               : percent(share) + " one value (" + std::to_string(hot) + "), the rest uniform"};
        }
    }
    return {};
}

// The counts of the first n bytes of b (all of them by default), chunk by chunk.
Counts count_bytes(const Bytes& b, size_t n = SIZE_MAX) {
    n = std::min(n, b.size());
    std::vector<Counts> chunk((n + kChunk - 1) / kChunk, Counts{});
    const unsigned char* const in = b.data();
    for_each_chunk(n, [in, &chunk](size_t begin, size_t end, size_t c) {
        // Four tables, so that runs of one value do not wait on one counter.
        Counts t[4] = {};
        size_t i = begin;
        for (; i + 4 <= end; i += 4) ++t[0][in[i]], ++t[1][in[i + 1]], ++t[2][in[i + 2]], ++t[3][in[i + 3]];
        for (; i < end; ++i) ++t[0][in[i]];
        for (int v = 0; v < kHistogramBins; ++v) chunk[c][v] = t[0][v] + t[1][v] + t[2][v] + t[3][v];
    });
    Counts total{};
    for (const Counts& k : chunk)
        for (int v = 0; v < kHistogramBins; ++v) total[v] += k[v];
    return total;
}

bool same_counts(const std::vector<unsigned int>& got, const Counts& want) {
    for (int v = 0; v < kHistogramBins; ++v)
        if (got[v] != want[v]) return false;
    return true;
}

std::string mib(size_t n) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f", n / 1048576.0);
    return buf;
}

grader::Work work_for(size_t n) { return {double(n) + kHistogramBins * sizeof(unsigned int), 0}; }

// ------------------------------------------------------------------ checking the bins

// What a wrong histogram most likely comes from, when the pattern says so.
std::string diagnose(const std::vector<unsigned int>& got, const Counts& want, size_t n) {
    bool minus_one = true, high_lost = true, any_high = false, low_right = true;
    uint64_t sum = 0;
    for (int v = 0; v < kHistogramBins; ++v) {
        sum += got[v];
        minus_one = minus_one && got[v] == static_cast<unsigned int>(want[v] - 1);
        if (v >= 128 && want[v] > 0) any_high = true, high_lost = high_lost && got[v] == 0;
        if (v < 128) low_right = low_right && got[v] == want[v];
    }
    if (minus_one)
        return "every bin holds its count minus one: the bins started at 0xFFFFFFFF (the grader's fill) and were never "
               "set to zero — the launcher must zero them itself before counting (cudaMemsetAsync on the default stream, "
               "or a kernel)";
    if (any_high && high_lost && low_right)
        return "the bytes 128–255 were not counted in their bins: read as a signed char they are negative, and a "
               "negative index points before the bins — index with an unsigned char";
    if (sum > n && got[127] > want[127]) {
        bool only_127 = true;
        for (int v = 0; v < kHistogramBins; ++v) only_127 = only_127 && (v == 127 || got[v] == want[v]);
        if (only_127)
            return std::to_string(got[127] - want[127]) +
                   " bytes too many in bin 127: the bytes just past the input are guard bytes of value 127, so the "
                   "kernel read past in[n-1] (a 16-byte load that reaches past the end?)";
    }
    if (sum < n)
        return "the bins add up to " + std::to_string(sum) + ", not to n = " + std::to_string(n) + ": " +
               std::to_string(n - sum) +
               " bytes were lost — increments without atomics lose updates when two threads add to one bin at once, "
               "and a block's bins must be complete (a barrier) before they are merged";
    if (sum > n)
        return "the bins add up to " + std::to_string(sum) + ", more than n = " + std::to_string(n) +
               ": some bytes were counted twice, or bytes outside the input were counted";
    return "";
}

// FAIL (wrong) unless every bin holds its exact count.
void expect_bins(grader::Exercise& ex, const std::vector<unsigned int>& got, const Counts& want, size_t n,
                 const std::string& ctx) {
    std::vector<grader::Expected> expected;
    for (int v = 0; v < kHistogramBins; ++v) expected.push_back({size_t(v), double(want[v]), 0});
    const grader::Comparison c = grader::compare_entries(got, expected);
    if (c.ok()) return;
    const std::string why = diagnose(got, want, n);
    ex.reject(grader::Reason::wrong, ctx + ": " + c.describe([](size_t v) { return "bin " + std::to_string(v); }) +
                                         (why.empty() ? "" : ". " + why));
}

// One untimed call of a launcher on `in` (whose host copy is `host`), its bins poisoned before.
struct HistogramCall {
    grader::DeviceBuffer<unsigned int> bins;
    grader::Call call;
    HistogramCall(grader::Exercise& ex, Launcher launch, const std::string& ctx, grader::DeviceBuffer<unsigned char>& in,
                  Bytes& host)
        : bins(kHistogramBins, "bins"), call(ctx, [this, launch, &in] { launch(in.data(), in.size(), bins.data()); }) {
        call.input(in, "in").output(bins, "bins").verify([this, &ex, &host] {
            expect_bins(ex, bins.download(), count_bytes(host), host.size(), call.context());
        });
    }
};

// The launcher called again on the bins its first call left: it must zero them again,
// so the counts come out the same, not doubled.
void check_second_call(grader::Exercise& ex, Launcher launch, const std::string& ctx, grader::DeviceBuffer<unsigned char>& in,
                       Bytes& host, grader::DeviceBuffer<unsigned int>& bins) {
    const Counts want = count_bytes(host);
    grader::Call again(ctx + ", called again on the bins of its first call",
                       [launch, &in, &bins] { launch(in.data(), in.size(), bins.data()); });
    again.input(in, "in").in_out(bins, "bins").verify([&] {
        const std::vector<unsigned int> got = bins.download();
        bool doubled = host.size() > 0;
        for (int v = 0; v < kHistogramBins; ++v) doubled = doubled && got[v] == 2 * want[v];
        if (doubled)
            ex.reject(grader::Reason::wrong,
                      again.context() + ": every bin holds twice its count — the second call added to the counts of the "
                                        "first instead of starting from zero; the launcher must zero the bins on every call");
        expect_bins(ex, got, want, host.size(), again.context());
    });
    ex.check(again);
}

int device_attribute(cudaDeviceAttr what) {
    int device = 0, value = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&value, what, device));
    return value;
}

// The SMs a launcher sees: the whole GPU's, or fewer under --sms (take the larger count).
size_t launcher_sms() { return size_t(std::max(grader::gpu().sms, grader::gpu().sms_total)); }

// Under compute-sanitizer the sizes stop at kSanitizerMaxN, where a grid that fits on the
// GPU gives each thread one pass of its loop at most; at this size every thread of such a
// grid (at most as many threads as the SMs hold at once) makes at least three passes of 16
// bytes: a race between passes (a double-buffered load, say) shows from the third. Without
// the sanitizer, 16 777 259 bytes do that on GPUs of up to 170 SMs.
size_t sanitizer_loop_size() {
    return 3 * 16 * launcher_sms() * size_t(device_attribute(cudaDevAttrMaxThreadsPerMultiProcessor)) + 13;
}

// Many copies of one value in one block's share. A kernel that packs two 16-bit counters
// into each shared word (half the shared memory) counts right until a block sees 65 536
// copies of one value. At this size, 65 536 × the blocks the GPU holds at once + 5 bytes of
// one value, some block of any grid that fits on the GPU at once (the coarsened launchers'
// grid, whatever their block size) counts more than 65 535 copies of it. The bytes are made
// on the device (every byte the value) and the counts need no host copy of them.
size_t one_block_overflow_size() {
    return 65536 * launcher_sms() * size_t(device_attribute(cudaDevAttrMaxBlocksPerMultiprocessor)) + 5;
}

void check_one_value_on_device(grader::Exercise& ex, Launcher launch, const std::string& name, size_t n,
                               unsigned char value) {
    grader::DeviceBuffer<unsigned char> in(n, "in");
    in.memory().fill(value);
    grader::DeviceBuffer<unsigned int> bins(kHistogramBins, "bins");
    const std::string ctx = name + ", n = " + std::to_string(n) + ", one value (" + std::to_string(value) +
                            ") repeated, more than 65 535 times in some block's share";
    grader::Call call(ctx, [&] { launch(in.data(), n, bins.data()); });
    call.input(in, "in").output(bins, "bins").verify([&] {
        const std::vector<unsigned int> got = bins.download();
        Counts want{};
        want[value] = n;
        if (same_counts(got, want)) return;
        uint64_t elsewhere = 0;
        for (int v = 0; v < kHistogramBins; ++v) elsewhere += v == value ? 0 : got[v];
        ex.reject(grader::Reason::wrong,
                  ctx + ": bin " + std::to_string(value) + " holds " + std::to_string(got[value]) +
                      ", not n, and the other bins " + std::to_string(elsewhere) +
                      " in all. The smaller inputs were counted right, so the likely cause is the size: some block "
                      "counted more than 65 535 copies of the value here, and a count kept in fewer than 32 bits (two "
                      "16-bit bins packed in one word of shared memory?) overflows, its carry lost or landing in the "
                      "next bin");
    });
    ex.check(call);
}

void check_launcher(grader::Exercise& ex, Launcher launch, const std::string& name) {
    if (grader::yardstick_run()) return;  // its checks do nothing there: spare the inputs and counts
    auto rng = ex.rng("inputs");
    const auto check_size = [&](size_t n, std::initializer_list<Kind> kinds) {
        for (Kind kind : kinds) {
            Input in = make_input(kind, n, rng);
            grader::DeviceBuffer<unsigned char> d(in.bytes, "in");
            HistogramCall c(ex, launch, name + ", n = " + std::to_string(n) + ", " + in.what, d, in.bytes);
            ex.check(c.call);
            if (n == 0 || n == kRepeatSize) check_second_call(ex, launch, c.call.context(), d, in.bytes, c.bins);
        }
    };
    for (size_t n : kSizes) {
        if (grader::sanitizer_mode() && n > kSanitizerMaxN) continue;
        if (n == 0) check_size(n, {Kind::uniform});  // one empty input is enough
        else check_size(n, {Kind::uniform, Kind::text, Kind::one_value, Kind::skewed});
    }
    if (grader::sanitizer_mode()) check_size(sanitizer_loop_size(), {Kind::uniform});
    else check_one_value_on_device(ex, launch, name, one_block_overflow_size(), static_cast<unsigned char>(128 + rng.next() % 128));
}

// ------------------------------------------------------------------ the contract's largest n

// n = 2^31 − 1, the contract's largest, made and counted on the device: one value, but for
// the last kRampBytes, which run through every value in turn. A launcher that holds a byte
// offset or count in 32 bits goes wrong only this far up (a signed offset past 2^31 − 1
// wraps to a negative one), and this many equal bytes overflow a 16-bit counter in any
// private copy of the bins that sees more than 1/32751 of them: every copy of a kernel that
// keeps fewer than 32752 in all, such as 32 copies per block (one per lane) in up to 1023
// blocks. Left out, with a line that says so, where the GPU has too little free memory.
constexpr size_t kLargestN = (size_t(1) << 31) - 1;
constexpr size_t kRampBytes = (size_t(1) << 20) + 37;  // no multiple of 16: a tail of odd bytes too
constexpr size_t kLargestHot = kLargestN - kRampBytes;
constexpr size_t kFewestOverflowingCopies = (kLargestHot + 65535) / 65536;  // 32752: fewer copies, and one overflows

__global__ void fill_ramp_kernel(unsigned char* out, size_t n, unsigned int first) {
    for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
        out[i] = static_cast<unsigned char>(first + i);
}

void check_largest(grader::Exercise& ex, Launcher launch, const std::string& name) {
    // The input, and as much again to spare.
    if (!grader::largest_check_fits(2 * kLargestN, "n = 2^31 - 1")) return;
    auto rng = ex.rng("largest n");
    const auto hot = static_cast<unsigned char>(128 + rng.next() % 128);  // 128–255, as for the one-value inputs
    const auto first = static_cast<unsigned int>(rng.next() & 0xFFu);
    grader::DeviceBuffer<unsigned char> in(kLargestN, "in");
    in.memory().fill(hot);
    fill_ramp_kernel<<<1024, 256>>>(in.data() + kLargestHot, kRampBytes, first);
    CUDA_CHECK(cudaGetLastError());
    Counts want{};
    want[hot] = kLargestHot;
    for (size_t j = 0; j < kRampBytes; ++j) ++want[(first + j) & 0xFFu];
    grader::DeviceBuffer<unsigned int> bins(kHistogramBins, "bins");
    const std::string ctx = name + ", n = 2^31 - 1 (the contract's largest), one value (" + std::to_string(hot) +
                            ") but for the last " + std::to_string(kRampBytes) + " bytes, which take every value in turn";
    grader::Call call(ctx, [&] { launch(in.data(), in.size(), bins.data()); });
    call.input(in, "in").output(bins, "bins").verify([&] {
        const std::vector<unsigned int> got = bins.download();
        if (same_counts(got, want)) return;
        std::vector<grader::Expected> expected;
        for (int v = 0; v < kHistogramBins; ++v) expected.push_back({size_t(v), double(want[v]), 0});
        ex.reject(grader::Reason::wrong,
                  ctx + ": " + grader::compare_entries(got, expected).describe([](size_t v) { return "bin " + std::to_string(v); }) +
                      ". Every smaller input was counted right, so the size is the likely cause: a byte offset, index or "
                      "count held in 32 bits (an int past 2^31 - 1 turns negative: use size_t), or private bins counted "
                      "in 16 bits (two packed in a word): with fewer than " + std::to_string(kFewestOverflowingCopies) +
                      " private copies in all, one of them counts more than 65 535 copies of the value here");
    });
    ex.check(call);
}

// ------------------------------------------------------------------ what a call is timed against

// CUB's histogram of the bytes `in` holds now (all in.size() of them), timed the same way:
// 257 levels 0 … 256, so bin v holds the value v. It zeroes its own bins, as the contract
// asks of a launcher. Its temporary storage is sized for the most any size from `least` to
// in.size() asks (each end asked: CUB's need follows its grid, which stops growing once the
// input fills the GPU), so that no call of a timed size allocates; given less than it needs,
// CUB returns an error, which stops the grader (CUDA_CHECK).
class CubHistogram {
public:
    CubHistogram(const grader::DeviceBuffer<unsigned char>& in, size_t least) : in_(in), bins_(kHistogramBins, "CUB bins") {
        if (in.size() >= (size_t(1) << 31)) throw std::invalid_argument("CubHistogram: more bytes than CUB's int count");
        for (size_t n : {least, in.size()}) {
            size_t bytes = 0;
            CUDA_CHECK(cub::DeviceHistogram::HistogramEven(nullptr, bytes, in_.data(), bins_.data(), kHistogramBins + 1, 0,
                                                           kHistogramBins, int(n)));
            temp_bytes_ = std::max(temp_bytes_, bytes);
        }
        temp_ = std::make_unique<grader::DeviceBuffer<unsigned char>>(std::max<size_t>(temp_bytes_, 1), "CUB temporary storage");
    }
    void operator()() {
        CUDA_CHECK(cub::DeviceHistogram::HistogramEven(temp_->data(), temp_bytes_, in_.data(), bins_.data(), kHistogramBins + 1,
                                                       0, kHistogramBins, int(in_.size())));
    }
    const unsigned int* bins() const { return bins_.data(); }
    std::vector<unsigned int> result() const { return bins_.download(); }

private:
    const grader::DeviceBuffer<unsigned char>& in_;
    grader::DeviceBuffer<unsigned int> bins_;
    size_t temp_bytes_ = 0;
    std::unique_ptr<grader::DeviceBuffer<unsigned char>> temp_;
};

const char* const kCubName = "CUB DeviceHistogram::HistogramEven";

size_t timing_bytes() { return std::min(grader::timing_elements(1), (size_t(1) << 30) | 1); }

// ------------------------------------------------------------------ the timed calls
// Every timed call counts fresh bytes, made on the device under a key no launcher can
// predict (call.hpp), and its bins must equal, bin for bin, CUB's histogram of the same
// bytes, computed after it.

// Uniform bytes (threshold 0: the 8 bytes of grader::hash64(key, i / 8)), or with a hot
// share: that share of the bytes one value, `hot`, the rest about uniform. Then byte i
// takes 16 bits j of hash64(key, i / 4): it is `hot` when j < threshold (hot share ×
// 65536), else the low 8 bits of j. Eight bytes per thread and store: a GiB of uniform
// bytes takes about half a millisecond on an H200, of skewed ones about one.
__global__ void fill_bytes_kernel(unsigned char* out, size_t n, uint64_t key, unsigned int threshold, unsigned int hot) {
    const size_t words = (n + 7) / 8, stride = size_t(gridDim.x) * blockDim.x;
    for (size_t w = size_t(blockIdx.x) * blockDim.x + threadIdx.x; w < words; w += stride) {
        uint64_t word = threshold == 0 ? grader::hash64(key, w) : 0;
        for (int half = 0; half < 2 && threshold > 0; ++half) {
            const uint64_t h = grader::hash64(key, 2 * w + half);
            for (int b = 0; b < 4; ++b) {
                const unsigned int j = unsigned(h >> (16 * b)) & 0xFFFFu;
                word |= uint64_t(j < threshold ? hot : j & 0xFFu) << (8 * (4 * half + b));
            }
        }
        const size_t i = 8 * w;
        if (i + 8 <= n) *reinterpret_cast<uint64_t*>(out + i) = word;  // grader buffers start 256-byte aligned
        else
            for (size_t b = 0; i + b < n; ++b) out[i + b] = static_cast<unsigned char>(word >> (8 * b));
    }
}

// English text: the input is cut into windows of kTextWindow bytes, and each window is the
// text (length `len`, read cyclically) from an offset drawn from hash64(key, window). A
// block of a few thousand bytes sees running text, as in the untimed checks, and every
// window moves with the key.
constexpr size_t kTextWindow = 4096;  // a multiple of 8: a thread's 8 bytes lie in one window
__global__ void fill_text_kernel(unsigned char* out, size_t n, uint64_t key, const unsigned char* __restrict__ text,
                                 size_t len) {
    const size_t words = (n + 7) / 8, stride = size_t(gridDim.x) * blockDim.x;
    for (size_t w = size_t(blockIdx.x) * blockDim.x + threadIdx.x; w < words; w += stride) {
        const size_t i = 8 * w, from = grader::hash64(key, i / kTextWindow) % len + i % kTextWindow;
        for (size_t b = 0; b < 8 && i + b < n; ++b) out[i + b] = text[(from + b) % len];
    }
}

std::string timed_text(Kind kind) {
    switch (kind) {
        case Kind::text: return text_source().name + ", in 4 KiB windows from offsets drawn afresh for every call";
        case Kind::skewed: return percent(kSkew) + " one value (drawn afresh for every call), the rest uniform";
        default: return "uniform bytes";
    }
}

// The launcher on up to n bytes of `kind` (uniform, text or skewed), set up for grading:
// fresh bytes before every timed call, CUB's bins after it. Each timed call counts a size of
// its own, up to band_span(n) bytes fewer (grader/common/timed_sizes.hpp), so that n's remainder
// against a launcher's grid and its 16-byte loads changes from call to call. The grader's
// versions are timed through the same call (fresh bytes and CUB's check on every run);
// CUB's baseline and the diagnoses run on all n bytes, whatever they hold then.
class TimedHistogram {
public:
    TimedHistogram(grader::Exercise& ex, Launcher launch, const char* name, size_t n, Kind kind)
        : ex_(ex),
          kind_(kind),
          span_(grader::band_span(n)),
          in_(n, "timing input"),
          bins_(kHistogramBins, "bins"),
          other_(kHistogramBins, "the grader's bins"),
          text_(kind == Kind::text ? text_source().bytes : Bytes(1), "text"),
          cub_(in_, n - span_),
          call_(std::string(name) + ", n from " + std::to_string(n - span_) + " to " + std::to_string(n) + " (drawn for "
                "every timed call), " + timed_text(kind),
                [this, launch] { launch(in_.data(), in_.size(), bins_.data()); }) {
        fill(grader::fresh_key());  // what CUB's baseline is timed on where no call has run before it
        call_.input(in_, "in").output(bins_, "bins");
        call_.timed_size([this, n](grader::SizeDraw& d) {
            in_.use(d.pick(n, span_));
            return grader::RunSize{work_for(in_.size()).bytes / work_for(n).bytes, "n = " + std::to_string(in_.size())};
        });
        call_.timed_inputs([this](uint64_t key) { fill(key); });
        call_.timed_verify([this] {
            cub_();
            const grader::Comparison c = grader::compare_on_device(bins_.data(), cub_.bins(), kHistogramBins, {0, 0});
            if (c.ok()) return;
            expect_bins(ex_, bins_.download(), cub_counts(), in_.size(), call_.context());  // names the likely cause
            ex_.reject(grader::Reason::wrong, call_.context() + ": " + c.describe());
        });
    }
    grader::Call& call() { return call_; }
    grader::Work work() const { return work_for(in_.capacity()); }  // the nominal work

    // A grader version on the timed bytes, into the grader's own bins: for diagnoses.
    std::function<void()> version(HistogramVersion v) {
        return [this, v] { histogram_version(v, in_.data(), in_.size(), other_.data()); };
    }
    // A grader version timed as the shape figure through the student's call, into its bins:
    // every run counts fresh bytes and must match CUB's bins for them exactly, as the
    // student's must (a difference is the grader's bug: the grader stops, Exercise::baseline).
    grader::Baseline version_baseline(const std::string& name, HistogramVersion v) {
        grader::Call c = call_.with_launch(name, [this, v] { histogram_version(v, in_.data(), in_.size(), bins_.data()); });
        return ex_.baseline(name, work(), c, false);
    }
    // CUB on the timed bytes, timed as the vendor figure. CUB is what the call's timed_verify
    // compares with, so it cannot go through the call: it is checked once here instead, on
    // what needs no second histogram (its bins must add up to n).
    grader::Baseline cub_baseline(const std::string& suffix = "") {
        if (!grader::sanitizer_mode()) {
            cub_();
            uint64_t sum = 0;
            for (uint64_t c : cub_counts()) sum += c;
            if (sum != in_.size()) throw std::runtime_error(std::string(kCubName) + " counted " + std::to_string(sum) +
                                                            " bytes of " + std::to_string(in_.size()) + ": a bug of the grader");
        }
        return ex_.baseline(kCubName + suffix, work(), [this] { cub_(); });
    }

private:
    void fill(uint64_t key) {
        const size_t n = in_.size(), words = (n + 7) / 8;
        if (n == 0) return;
        const unsigned grid = unsigned(std::min<size_t>((words + 255) / 256, size_t(grader::gpu().sms) * 16));
        if (kind_ == Kind::text) {
            fill_text_kernel<<<grid, 256>>>(in_.data(), n, key, text_.data(), text_.size());
        } else {
            const unsigned int threshold = kind_ == Kind::skewed ? unsigned(kSkew * 65536 + 0.5) : 0;
            const unsigned int hot = unsigned(grader::hash64(grader::rekey(key, 1), 0) & 0xFFu);  // fresh every call
            fill_bytes_kernel<<<grid, 256>>>(in_.data(), n, key, threshold, hot);
        }
        CUDA_CHECK(cudaGetLastError());
    }
    Counts cub_counts() const {
        const std::vector<unsigned int> b = cub_.result();
        Counts c{};
        std::copy(b.begin(), b.end(), c.begin());
        return c;
    }
    grader::Exercise& ex_;
    Kind kind_;
    size_t span_;
    grader::DeviceBuffer<unsigned char> in_;
    grader::DeviceBuffer<unsigned int> bins_, other_;
    grader::DeviceBuffer<unsigned char> text_;  // the text the text windows are cut from
    CubHistogram cub_;
    grader::Call call_;
};

}  // namespace

GRADER_EXERCISE("05.0 contention table") {
    ex.teaching_only();  // INFO, not graded; skipped under compute-sanitizer
    ex.theory("The teaching table");
    const size_t n = std::min(kTableBytes, grader::timing_elements(1)), n_slow = std::min(kTableSlowBytes, n);
    auto rng = ex.rng("table");
    grader::DeviceBuffer<unsigned char> in(n, "table input");
    grader::DeviceBuffer<unsigned int> bins(kHistogramBins, "bins");
    CubHistogram cub(in, n);
    const double copy = grader::ceilings().get(grader::ceiling::copy_gbs);
    grader::TeachingTable::Options o;
    o.first_header = "version";
    o.extra_headers = {"MiB"};
    o.percent_of = {"CUB", "copy"};
    o.timing = {1, 5, true};  // few runs: the rows with one atomic per byte are slow where one value dominates
    o.before_check = [&] { bins.poison(); };
    grader::TeachingTable table(ex, o);

    struct Group {
        const char* key;
        Kind kind;
        double share;
    };
    const Group groups[] = {{"uniform", Kind::uniform, 0},           {"text", Kind::text, 0},
                            {"c50", Kind::skewed, kTableShares[0]},  {"c90", Kind::skewed, kTableShares[1]},
                            {"c99", Kind::skewed, kTableShares[2]},  {"one_value", Kind::skewed, 1.0}};
    struct Row {
        const char* label;
        const char* key;
        HistogramVersion version;
        bool slow;  // timed on the first n_slow bytes only
    };
    const Row rows[] = {
        {"global atomics, 1 byte per thread (05.1 starter)", "global", HistogramVersion::global_atomics, true},
#ifdef LESSON05_ANSWER_KERNELS  // the references' rows: not in the student release (histogram_versions.cuh)
        {"privatized, 1 byte per thread (05.1 reference)", "privatized", HistogramVersion::privatized, true},
#endif
        {"coarsened, interleaved single bytes", "interleaved_bytes", HistogramVersion::interleaved_bytes, false},
        {"coarsened, contiguous single bytes", "contiguous_bytes", HistogramVersion::contiguous_bytes, false},
#ifdef LESSON05_ANSWER_KERNELS
        {"coarsened, interleaved uint4 (05.2 reference)", "interleaved_uint4", HistogramVersion::interleaved_uint4, false},
#endif
        {"coarsened, contiguous uint4", "contiguous_uint4", HistogramVersion::contiguous_uint4, false},
        {"warp-aggregated, __match_any_sync, uint4", "aggregated", HistogramVersion::warp_aggregated, false},
#ifdef LESSON05_ANSWER_KERNELS
        {"32 copies, one per lane, uint4 (05.3 reference)", "per_lane", HistogramVersion::per_lane_copies, false},
#endif
    };
    struct StudentRow {
        const char* label;
        const char* key;
        Launcher launch;
        bool slow;
    };
    const StudentRow students[] = {
        {"your histogram_privatized (05.1)", "student_05_1", histogram_privatized, true},
        {"your histogram_coarsened (05.2)", "student_05_2", histogram_coarsened, false},
        {"your histogram_skew_resistant (05.3)", "student_05_3", histogram_skew_resistant, false},
    };

    Bytes storage;  // one host buffer for the six inputs
    for (const Group& g : groups) {
        Input input = make_input(g.kind, n, rng, g.share, std::move(storage));
        in.upload(input.bytes);
        const Counts all = count_bytes(input.bytes);
        const Counts first = count_bytes(input.bytes, n_slow);
        storage = std::move(input.bytes);
        const std::string prefix = std::string(g.key) + "_";
        // A row whose counts are wrong shows "wrong" instead of a figure (the table runs each
        // version once before asking).
        table.heading(input.what);
        table.compare_with({0, copy});
        const double cub_gbs = table.row(kCubName, prefix + "cub_gbs", work_for(n), [&](int) { cub(); }, false, {mib(n)}, [&] {
            return same_counts(cub.result(), all);
        });
        table.compare_with({cub_gbs, copy});
        for (const Row& r : rows) {
            const size_t m = r.slow ? n_slow : n;
            const auto launch = [&, m] { histogram_version(r.version, in.data(), m, bins.data()); };
            table.row(r.label, prefix + r.key + "_gbs", work_for(m), [&](int) { launch(); }, false, {mib(m)}, [&] {
                return same_counts(bins.download(), r.slow ? first : all);
            });
        }
        for (const StudentRow& s : students) {
            const size_t m = s.slow ? n_slow : n;
            table.row(s.label, prefix + s.key + "_gbs", work_for(m), [&](int) { s.launch(in.data(), m, bins.data()); }, true,
                      {mib(m)}, [&] { return same_counts(bins.download(), s.slow ? first : all); });
        }
    }
    table.print("256-bin histograms on this GPU: GB/s of input read (median of up to " + std::to_string(o.timing.runs) +
                " runs), by input — from no contention (uniform bytes) to a single value:");
    std::printf("      %% of CUB: of CUB DeviceHistogram::HistogramEven on the same input (its row). %% of copy: of the copy\n"
                "      kernel measured at the start of the run, %.0f GB/s (bytes read + written; a histogram reads n bytes\n"
                "      and writes 1 KiB), shown for information. Rows with %s MiB run on the first %s MiB of the input:\n"
                "      one atomic per byte or per few bytes is too slow for more. Why the rows differ: theory.md,\n"
                "      \"The teaching table\".\n",
                copy, mib(n_slow).c_str(), mib(n_slow).c_str());
#ifndef LESSON05_ANSWER_KERNELS
    std::printf("      Not in the student release, which holds no answer: the rows of the references' kernels.\n");
#endif
}

GRADER_EXERCISE("05.1 privatization") {
    ex.theory("Privatization");
    ex.hint("give each block its own 256 bins in shared memory: zero them, __syncthreads(), count the block's bytes into "
            "them with shared-memory atomicAdd, __syncthreads(), then add each non-zero bin to bins with one global atomicAdd");
    check_launcher(ex, histogram_privatized, "histogram_privatized");
    // Speed: English text, where a few values (space, e, t, …) take most of the bytes and
    // one global atomic per byte queues at a few addresses.
    const size_t n = std::min(kAtomicsTimingBytes, grader::timing_elements(1));
    TimedHistogram t(ex, histogram_privatized, "histogram_privatized", n, Kind::text);
    const grader::Baseline global =
        t.version_baseline("global atomics (the starter, grader copy)", HistogramVersion::global_atomics);
    t.cub_baseline();
    ex.diagnose_slow({"the speed of one global atomicAdd per byte (the starter's kernel)",
                      t.version(HistogramVersion::global_atomics),
                      "count into bins in shared memory first and merge each block's non-zero bins into bins once",
                      "check that each block merges only its non-zero bins, with one atomicAdd each, after a "
                      "__syncthreads(), and compare your row with the privatized row in the 05.0 table"});
    ex.grade(grader::versus(global), t.call());
    // The largest n only after a passing speed grade (a failing one has ended the exercise):
    // one global atomic per byte, the starter's, takes seconds on 2^31 bytes of one value.
    check_largest(ex, histogram_privatized, "histogram_privatized");
}

GRADER_EXERCISE("05.2 coarsening") {
    ex.theory("Coarsening and coalesced loads");
    ex.hint("launch only as many blocks as fit on the GPU at once and let each thread count many bytes: a grid-stride "
            "loop over 16-byte uint4 loads (consecutive threads, consecutive uint4s), the last n % 16 bytes one by one");
    check_launcher(ex, histogram_coarsened, "histogram_coarsened");
    TimedHistogram t(ex, histogram_coarsened, "histogram_coarsened", timing_bytes(), Kind::uniform);
    // Recorded, not graded: contiguous uint4 chunks against interleaved loads (the shape
    // figure). On the H200 they were 1.29 × slower than the reference, a gap too dependent
    // on the GPU's caches to grade at the 1.21 × the margins need: a teaching row.
    t.version_baseline("contiguous uint4 chunks (grader kernel)", HistogramVersion::contiguous_uint4);
    const grader::Baseline vendor = t.cub_baseline();
#ifdef LESSON05_ANSWER_KERNELS  // the student release has no reference's kernel to time: the plain hint
    ex.diagnose_slow({"the speed of one byte per thread with private bins (the starter's kernel)",
                      t.version(HistogramVersion::privatized),
                      "let each thread count many bytes, so that a block merges its bins once for many thousands of bytes",
                      "the bytes per thread are there; check that a warp's loads are coalesced (thread t of the grid reads "
                      "uint4 number t, then t + gridDim.x * blockDim.x, …) and 16 bytes wide, and compare your row with "
                      "the coarsened rows of the 05.0 table"});
#endif
    ex.grade(grader::versus(vendor), t.call());
    check_largest(ex, histogram_coarsened, "histogram_coarsened");
}

GRADER_EXERCISE("05.3 skewed inputs") {
    ex.theory("Skewed inputs");
    ex.threshold_overlaps_previous(
        "on the H200 and the H100 the project measured, one shared copy of the bins (the starter) was as fast as the "
        "reference on these bytes (about 1.2 × CUB on the H200, 1.1 × on the H100): many lanes adding 1 to one shared word "
        "did not slow it down there, so no threshold separates the two on those GPUs and the technique is checked in "
        "your compiled code instead; compare the rows of the 05.0 table "
        "on yours (theory.md, \"Skewed inputs\")");
    check_launcher(ex, histogram_skew_resistant, "histogram_skew_resistant");
    const size_t n = timing_bytes();
    {
        // First on uniform bytes: resisting skew must not cost the uniform speed. A grade of
        // its own, declared in thresholds.txt as "05.3 skewed inputs / uniform bytes".
        TimedHistogram t(ex, histogram_skew_resistant, "histogram_skew_resistant", n, Kind::uniform);
        const grader::Baseline cub_uniform = t.cub_baseline(" on uniform bytes");
        ex.hint("your kernel is slow on uniform bytes: whatever handles the skew must not cost the plain case — keep the "
                "16-byte grid-stride loads of 05.2, and shared-memory work per byte no larger than one atomicAdd");
        ex.grade(grader::versus(cub_uniform), t.call(), "uniform bytes");
    }
    TimedHistogram t(ex, histogram_skew_resistant, "histogram_skew_resistant", n, Kind::skewed);
#ifdef LESSON05_ANSWER_KERNELS  // the student release has no reference's kernel to time: the plain hint
    t.version_baseline("one copy of the bins (the starter, grader copy)", HistogramVersion::interleaved_uint4);
#else
    ex.hint("give each lane of a warp its own copy of the bins (bin v of copy l at word v * 32 + l), so that no two "
            "lanes of a warp update one word or one bank, whatever the bytes, and merge the copies once per block");
#endif
    const grader::Baseline vendor = t.cub_baseline();
#ifdef LESSON05_ANSWER_KERNELS
    ex.diagnose_slow({"the speed of one copy of the bins in shared memory (the starter's kernel)",
                      t.version(HistogramVersion::interleaved_uint4),
                      "your kernel is no faster than one shared copy of the bins: give each lane of a warp its own copy "
                      "(bin v of copy l at word v * 32 + l), so that no two lanes of a warp update one word or one bank, "
                      "whatever the bytes; warp aggregation with __match_any_sync costs more than it saves on some GPUs "
                      "(on the H200 it was slower than CUB on every input)",
                      "your kernel is not limited like the starter; compare its rows with the per-lane row of the 05.0 "
                      "table, from uniform bytes to one value, and check that its loads are still the 16-byte coalesced "
                      "ones of 05.2 and that each block merges its copies once"});
#endif
    ex.grade(grader::versus(vendor), t.call());
    check_largest(ex, histogram_skew_resistant, "histogram_skew_resistant");
}
