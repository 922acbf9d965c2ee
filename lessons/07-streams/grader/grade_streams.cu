// SPDX-License-Identifier: MIT
// Lesson 07 grader: streams and copy/compute overlap. The student's pipeline moves a pinned
// host array through the grader's work kernel and back; it is checked at awkward sizes
// with the kernel as slow as the copies, then timed by the host clock (all streams) and
// graded on its overlap efficiency: how much of the time between the serial pipeline and
// the best pipeline this GPU allows it saved, all three measured in the same run
// (overlap_model.hpp). Exercise 07.0 prints the teaching tables. After its grade, 07.1 traces
// one more call of the student's pipeline and of two of the grader's with CUPTI
// (timeline.hpp), for the results file and, when too slow, as lanes in the terminal.
//
// The work kernel is the grader's, defined here with launch_work (streams.cuh). Its result
// is a hash of the element under a key drawn afresh for every call, so no result can be
// produced, cached or replayed without running it on that call's data; it counts the
// elements it processed; it refuses host memory (zero-copy); it writes each chunk from the
// end, and a region whose place changes every call costs kHeavyFactor times more, so a
// copy back that does not wait for its chunk's kernel reads unwritten elements.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "grader/exercise/grader.hpp"
#include "grader/exercise/host_chunks.hpp"
#include "overlap_model.hpp"
#include "streams.cuh"
#include "timeline.hpp"

GRADER_LESSON("07", "Streams and overlap", "lessons/07-streams/theory.md",
              {"h2d_gbs", "d2h_gbs", "both_ways_gbs", "h2d_pageable_gbs", "copy_engines"});

namespace {

// The share of the possible saving (serial time down to the best pipelined time) that 07.1
// requires. With N equal chunks the model gives 1 − 1/N before per-chunk costs; the
// reference uses 64 chunks of 4 MiB and reached 0.904 on the H200 (best efficiency of the
// 07.0 table with 3 to 8 streams: 0.89 to 0.90), the serial starter 0.00. Set so that the
// time allowed is at least 1.10 × the reference's (docs/thresholds.md): at 0.80 it is 1.16 ×
// on the H200, at 0.85 it was 1.08 ×.
constexpr double kRequiredEfficiency = 0.80;  // H200: reference 0.90, starter 0.00

// Timed size: 2^26 floats, 256 MiB each way, the top of the contract's range, so that the
// check of the timed arrays (before they are timed) is the check of the largest n allowed.
// Every other timed call draws a count of its own below it (timed_size), so the remainders
// against a launcher's chunks and blocks still vary. The range ends here rather than at
// 2^31: past 2^31 bytes each way a check would pin 4 GiB of host memory and move it, seconds
// of a student's run for sizes that teach nothing more (docs/thresholds.md, "The largest
// sizes"). The teaching tables use half of it, less 5.
constexpr size_t kTimedElements = size_t(1) << 26;
constexpr size_t kTableElements = (size_t(1) << 25) - 5;
// Checked sizes: every n up to kDenseSizes (a launcher that cuts n into a fixed number of
// chunks of ceil(n / chunks) elements runs past the end for some n below chunks × chunks: a
// dense sweep finds that for any chunk count up to about kDenseSizes), then around a block,
// primes, and large (the last is 64 MiB).
constexpr size_t kDenseSizes = 300;
const size_t kSizes[] = {511, 512, 513, 4099, 65537, 1000003, 16777259};
constexpr size_t kSanitizerMaxN = 70000;

// The work: the low 16 bits of an input are its place along the array (0 … 65535, set by the
// grader); elements whose place lies in a window of kHeavyTags places, which moves every
// call, take kHeavyFactor times the steps: 1/64 of the array at 4× cost adds 3/64 to the work.
constexpr uint32_t kTagMask = 0xFFFF;
constexpr uint32_t kHeavyTags = 0x10000 / 64;
constexpr uint32_t kHeavyFactor = 4;
constexpr uint32_t kSanitizerSteps = 8;  // compute-sanitizer runs kernels far slower
constexpr int kWorkBlock = 256;

// The stages are timed alone with CUDA events, one operation on the default stream; the two
// copies at once (on two streams) and the pipelines by the host clock until the device is
// idle, which holds every stream: under --sms the green context's default stream does not
// wait for other streams, and events on it would time them short (docs/thresholds.md,
// "Other GPU shapes").
const grader::TimingOptions kStageTiming{2, 11, false};
const grader::TimingOptions kTwoStreamsTiming{2, 11, false, grader::Clock::wall};
// The tables' 60 cells, each a pipeline of 2 × 128 MiB: three runs a cell, not five (07.0 took
// 3.2 s of a student's 7.7 s run on an H200, #19).
const grader::TimingOptions kTableTiming{1, 3, false, grader::Clock::wall};

// ------------------------------------------------------------------ the work kernel

struct WorkParams {
    uint32_t key = 0, mul = 1, add = 0;  // h ← mul·h + add, steps times, from h = bits ^ key
    uint32_t window = 0;                 // the first place of the costly region
    uint32_t steps = 1, heavy_steps = 1;
};

__constant__ WorkParams c_work;
__device__ unsigned long long d_processed;  // elements processed since the call began

__host__ __device__ inline bool is_heavy(uint32_t bits, uint32_t window) { return ((bits - window) & kTagMask) < kHeavyTags; }

// One element per thread, from the end of the range: the first elements are written last,
// so a copy back that starts while the kernel runs reads unwritten ones first. A chain of
// integer multiply-adds: its cost per step is fixed, whatever the data.
__global__ void work_kernel(const float* __restrict__ in, float* __restrict__ out, size_t count) {
    const WorkParams p = c_work;
    const size_t first = size_t(blockIdx.x) * blockDim.x;
    if (threadIdx.x == 0) {
        const size_t mine = count - first < blockDim.x ? count - first : blockDim.x;
        atomicAdd(&d_processed, (unsigned long long)mine);
    }
    const size_t j = first + threadIdx.x;
    if (j >= count) return;
    const size_t i = count - 1 - j;
    const uint32_t bits = __float_as_uint(in[i]);
    const uint32_t steps = is_heavy(bits, p.window) ? p.heavy_steps : p.steps;
    uint32_t h = bits ^ p.key;
    for (uint32_t s = 0; s < steps; ++s) h = h * p.mul + p.add;
    out[i] = float(h >> 8) * 0x1p-24f;  // 24 bits: exact, in [0, 1), never the poison
}

// The host's side of the work: the same result without the loop, since `steps` applications
// of h ← mul·h + add (mod 2^32) compose to one map h ← A·h + B.
struct Affine {
    uint32_t a = 1, b = 0;
};
Affine after(Affine outer, Affine inner) { return {outer.a * inner.a, outer.a * inner.b + outer.b}; }
Affine power(Affine f, uint32_t k) {
    Affine r;
    for (; k; k >>= 1, f = after(f, f))
        if (k & 1) r = after(f, r);
    return r;
}

// The grader's result of the work on the device, for verifying every timed call in full:
// the same closed form as Expectation, reading the pinned host input where it lies (it is
// mapped into the device's address space).
__global__ void expected_kernel(const float* in, float* out, size_t n, uint32_t key, uint32_t window, Affine base, Affine heavy) {
    for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
        const uint32_t bits = __float_as_uint(in[i]);
        const Affine f = is_heavy(bits, window) ? heavy : base;
        out[i] = float((f.a * (bits ^ key) + f.b) >> 8) * 0x1p-24f;
    }
}

// New contents for the pinned host input, written where it lies (mapped into the device's
// address space): each element a fresh value in [-1, 1) under `key`, its place (the low 16
// bits) kept.
__global__ void refresh_input(float* in, size_t n, uint64_t key) {
    for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
        const float x = float(grader::hash64(key, i) >> 40) * 0x1p-23f - 1.0f;
        in[i] = __uint_as_float((__float_as_uint(x) & ~kTagMask) | (__float_as_uint(in[i]) & kTagMask));
    }
}

class Expectation {
public:
    explicit Expectation(const WorkParams& p)
        : p_(p), base_(power({p.mul, p.add}, p.steps)), heavy_(power({p.mul, p.add}, p.heavy_steps)) {}
    float operator()(float x) const {
        uint32_t bits;
        std::memcpy(&bits, &x, sizeof bits);
        const Affine& f = is_heavy(bits, p_.window) ? heavy_ : base_;
        return float((f.a * (bits ^ p_.key) + f.b) >> 8) * 0x1p-24f;
    }

private:
    WorkParams p_;
    Affine base_, heavy_;
};

// What launch_work saw during the current call, and the grader's device buffers, which it
// always accepts (whatever cudaPointerGetAttributes says of memory mapped by the grader).
struct WorkState {
    WorkParams params;
    std::string refused;  // the first launch_work given memory that is not on the device
    std::vector<std::pair<const char*, const char*>> grader_ranges;
};
WorkState& state() {
    static WorkState s;
    return s;
}

void set_params(const WorkParams& p) {
    CUDA_CHECK(cudaMemcpyToSymbol(c_work, &p, sizeof p));
    state().params = p;
}

// A fresh key and window from `rng`, `steps` per element.
WorkParams draw_params(grader::Rng& rng, uint32_t steps) {
    WorkParams p;
    p.key = uint32_t(rng.next());
    p.mul = uint32_t(rng.next()) | 1u;  // odd: every step is a bijection
    if (p.mul == 1) p.mul = 0x2C9277B5u;
    p.add = uint32_t(rng.next()) | 1u;
    p.window = uint32_t(rng.next()) & kTagMask;
    p.steps = steps, p.heavy_steps = steps * kHeavyFactor;
    return p;
}

void reset_processed() {
    const unsigned long long zero = 0;
    CUDA_CHECK(cudaMemcpyToSymbol(d_processed, &zero, sizeof zero));
}
unsigned long long processed() {
    unsigned long long v = 0;
    CUDA_CHECK(cudaMemcpyFromSymbol(&v, d_processed, sizeof v));
    return v;
}

// "" for device memory, otherwise what the pointer is.
std::string not_device_memory(const void* p) {
    for (const auto& [first, end] : state().grader_ranges)
        if (p >= first && p < end) return "";
    cudaPointerAttributes a{};
    if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
        cudaGetLastError();
        return "an address CUDA does not know";
    }
    switch (a.type) {
        case cudaMemoryTypeDevice: return "";
        case cudaMemoryTypeHost: return "pinned host memory";
        case cudaMemoryTypeManaged: return "managed memory (cudaMallocManaged)";
        default: return "pageable host memory";
    }
}

}  // namespace

void launch_work(const float* in, float* out, size_t count, cudaStream_t stream) {
    if (count == 0) return;
    for (auto [p, name] : {std::pair<const void*, const char*>{in, "in"}, {out, "out"}}) {
        const std::string kind = not_device_memory(p);
        if (kind.empty()) continue;
        if (state().refused.empty())
            state().refused = "launch_work was given " + kind + " as `" + name +
                              "`: the work runs on device memory only, so copy the data there with cudaMemcpyAsync "
                              "(a kernel reading host memory directly, zero-copy, is what this lesson replaces)";
        return;  // not launched: those elements stay unwritten
    }
    const size_t blocks = (count + kWorkBlock - 1) / kWorkBlock;
    work_kernel<<<unsigned(blocks), kWorkBlock, 0, stream>>>(in, out, count);
}

namespace {

// ------------------------------------------------------------------ buffers and calls

// The four arrays of one pipeline: pinned host input and output, device input and output.
// The input's low 16 bits carry each element's place along the array (see kTagMask). A timed
// call may use only the first n of the `capacity` elements (use): the output and the device
// arrays are then n long, their guards right after the part used; the input, drawn once on
// the host, stays whole, and the launcher is told n.
struct Arrays {
    const size_t capacity;
    size_t n;
    grader::HostBuffer<float> in, out;
    grader::DeviceBuffer<float> dev_in, dev_out;

    Arrays(size_t count, grader::Rng& rng)
        : capacity(count), n(count), in(count, "host_in"), out(count, "host_out"), dev_in(count, "dev_in"),
          dev_out(count, "dev_out") {
        // Chunk by chunk on a few threads, as large inputs are drawn (host_chunks.hpp): the
        // timed arrays hold 64 Mi elements.
        grader::for_each_seeded_chunk(n, rng, [&](size_t begin, size_t end, grader::Rng& r) {
            for (size_t i = begin; i < end; ++i) {
                const float x = float(r.uniform(-1, 1));
                uint32_t bits;
                std::memcpy(&bits, &x, sizeof bits);
                bits = (bits & ~kTagMask) | uint32_t((uint64_t(i) << 16) / n);
                std::memcpy(&in[i], &bits, sizeof bits);
            }
        });
        auto& ranges = state().grader_ranges;
        ranges.push_back(made_[0] = range(dev_in));
        ranges.push_back(made_[1] = range(dev_out));
    }
    ~Arrays() {  // the ranges as made: a timed call may have left the arrays shorter (use)
        auto& ranges = state().grader_ranges;
        for (const auto& r : made_) ranges.erase(std::find(ranges.begin(), ranges.end(), r));
    }
    Arrays(const Arrays&) = delete;
    Arrays& operator=(const Arrays&) = delete;

    size_t bytes() const { return n * sizeof(float); }
    void use(size_t count) {
        n = count;
        out.use(count);
        dev_in.use(count);
        dev_out.use(count);
    }
    // True when every output is the work's result for its input under the current key.
    bool right() const {
        const Expectation e(state().params);
        return grader::compare_each(out.contents(), n, [&](size_t i) { return grader::Expected{i, e(in[i]), 0}; }).ok();
    }

private:
    static std::pair<const char*, const char*> range(grader::DeviceBuffer<float>& d) {
        const char* p = reinterpret_cast<const char*>(d.data());
        return {p, p + d.bytes()};
    }
    std::pair<const char*, const char*> made_[2];
};

// The student's pipeline on `a`; a launch_work refused during it fails the exercise.
void run_student(grader::Exercise& ex, Arrays& a, const std::string& context) {
    state().refused.clear();
    run_pipeline(a.in.data(), a.out.data(), a.dev_in.data(), a.dev_out.data(), a.n);
    if (!state().refused.empty()) ex.reject(grader::Reason::wrong, context + ": " + state().refused);
}

// One call of the student's pipeline, described once for checks and timing: a fresh key
// and costly region before every call, every element through launch_work exactly once.
class PipelineCall {
public:
    PipelineCall(grader::Exercise& ex, size_t n, uint32_t steps, grader::Rng& rng)
        : arrays_(n, rng), keys_(rng.next()), steps_(steps),
          call_("run_pipeline, n = " + std::to_string(n), [this, &ex] {
              if (window_) window_->open();
              run_student(ex, arrays_, call_.context());
              if (window_) window_->close();
          }) {
        call_.host_input(arrays_.in, "host_in")
            .host_output(arrays_.out, "host_out")
            .scratch(arrays_.dev_in, "dev_in")
            .scratch(arrays_.dev_out, "dev_out")
            .before_each([this] {
                set_params(draw_params(keys_, steps_));
                reset_processed();
            })
            .verify([this, &ex] { verify(ex); })
            // A timed call's work runs under a key from the fresh one: every output changes
            // with it, so no result of an earlier call can be replayed. A call that repeats
            // the size of the call before (below) has its host pointers too, and new input
            // values there: a pipeline that keeps a device copy of its input keyed by the host
            // pointer (or by where the input ends), and skips the copy in, computes from stale
            // values.
            .timed_inputs([this](uint64_t key) {
                grader::Rng r(key);
                set_params(draw_params(r, steps_));
                if (repeat_) refresh(r.next());
            })
            .timed_verify([this, &ex] { verify_on_device(ex); })
            // Every other timed call (which ones, the series decides) moves a count of its own,
            // up to band_span fewer elements, so that n's remainder against the launcher's
            // chunks changes from call to call (grader/common/timed_sizes.hpp); the others
            // repeat the call before's count, and with it its pointers (the arrays' last part:
            // Arrays::use). A call's time counts as the whole array's at its speed.
            .timed_size([this](grader::SizeDraw& d) {
                repeat_ = d.pick(2, 1) == 1;  // the nominal draw picks 2: the full arrays
                if (!repeat_) arrays_.use(d.pick(arrays_.capacity, grader::band_span(arrays_.capacity)));
                return grader::RunSize{double(arrays_.n) / double(arrays_.capacity),
                                       "n = " + std::to_string(arrays_.n) + (repeat_ ? ", new values behind the last call's pointers" : "")};
            });
    }
    Arrays& arrays() { return arrays_; }
    grader::Call& call() { return call_; }
    void set_steps(uint32_t steps) { steps_ = steps; }
    // While set, the launcher's calls mark the part of a trace that is the student's (the
    // checks around it issue copies and kernels of their own).
    void set_window(timeline::Window* w) { window_ = w; }

private:
    // Whether the run being prepared repeats the size and pointers of the run before; its
    // input is then rewritten (refresh), which takes milliseconds, outside the timed interval.
    bool repeat_ = false;
    void refresh(uint64_t key) {
        const unsigned grid = unsigned(std::min<size_t>((arrays_.n + 255) / 256, 65535));
        refresh_input<<<grid, 256>>>(arrays_.in.data(), arrays_.n, key);
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaDeviceSynchronize());  // the host reads the new values next (the input's checksum)
    }
    void check_processed(grader::Exercise& ex) {
        const unsigned long long done = processed();
        if (done != arrays_.n)
            ex.reject(grader::Reason::wrong, call_.context() + ": launch_work processed " + std::to_string(done) +
                                                 " elements during the call, not n = " + std::to_string(arrays_.n) +
                                                 ": every element goes through launch_work exactly once per call");
    }
    void verify(grader::Exercise& ex) {
        check_processed(ex);
        const Expectation e(state().params);
        const Arrays& a = arrays_;
        ex.expect_each(a.out.contents(), a.n, [&](size_t i) { return grader::Expected{i, e(a.in[i]), 0}; }, call_.context());
    }

    // Every timed call, in full: the count of elements launch_work saw, then the output (pinned,
    // mapped) against the grader's result computed on the device from the same input.
    void verify_on_device(grader::Exercise& ex) {
        check_processed(ex);
        const WorkParams& p = state().params;
        if (!expected_) expected_ = std::make_unique<grader::DeviceBuffer<float>>(arrays_.capacity, "the grader's result");
        const unsigned grid = unsigned(std::min<size_t>((arrays_.n + 255) / 256, 65535));
        expected_kernel<<<grid, 256>>>(arrays_.in.data(), expected_->data(), arrays_.n, p.key, p.window,
                                       power({p.mul, p.add}, p.steps), power({p.mul, p.add}, p.heavy_steps));
        CUDA_CHECK(cudaGetLastError());
        ex.expect_on_device(arrays_.out.data(), expected_->data(), arrays_.n, {0, 0}, call_.context());
    }

    Arrays arrays_;
    std::unique_ptr<grader::DeviceBuffer<float>> expected_;
    grader::Rng keys_;
    uint32_t steps_;
    timeline::Window* window_ = nullptr;
    grader::Call call_;
};

// ------------------------------------------------------------------ the grader's pipelines

// Streams for the grader's pipelines, made by cudaStreamCreate (the default stream waits for
// them) and kept for the whole process: making streams inside a timed call would be timed.
cudaStream_t pool_stream(int i) {
    static std::vector<cudaStream_t> streams;
    while (int(streams.size()) <= i) {
        cudaStream_t s = nullptr;
        CUDA_CHECK(cudaStreamCreate(&s));
        streams.push_back(s);
    }
    return streams[size_t(i)];
}

// The serial pipeline: the whole array copied in, worked on and copied out on one stream,
// what 07.1's starter does. The slow hint's yardstick and the timeline's "serial" lanes, in
// the course and in the student release alike.
void serial_pipeline(const float* host_in, float* host_out, Arrays& a) {
    const cudaStream_t s = pool_stream(0);
    CUDA_CHECK(cudaMemcpyAsync(a.dev_in.data(), host_in, a.n * sizeof(float), cudaMemcpyHostToDevice, s));
    launch_work(a.dev_in.data(), a.dev_out.data(), a.n, s);
    CUDA_CHECK(cudaMemcpyAsync(host_out, a.dev_out.data(), a.n * sizeof(float), cudaMemcpyDeviceToHost, s));
}

// student-release: omit (the grader's chunked pipelines: 07.1's answer)
// The 07.0 tables time the pipeline in every shape the theory page compares, and a failed
// 07.1 is shown beside the best of them. The pipeline passes 07.1, so the student release's
// grader is built without it: its 07.0 shows the copies, the stages, the serial pipeline and
// the student's own; a failed 07.1 shows the student's lanes alone.
#define LESSON07_ANSWER_KERNELS 1
enum class Order { depth_first, breadth_first };
enum class Flaw { none, work_on_default_stream, sync_each_chunk };

// Chunk c of `chunks` near-equal chunks of [0, n).
std::pair<size_t, size_t> chunk(size_t n, size_t chunks, size_t c) {
    const size_t q = n / chunks, r = n % chunks;
    return {c * q + std::min(c, r), q + (c < r ? 1 : 0)};
}

// The pipeline the tables time, in the variants they compare. Depth-first issues chunk by
// chunk (copy in, work, copy out); breadth-first all copies in, then all work, then all
// copies out. Chunk c goes to stream c mod `streams`.
void grader_pipeline(const float* host_in, float* host_out, Arrays& a, int streams, size_t chunks, Order order,
                     Flaw flaw = Flaw::none) {
    chunks = std::max<size_t>(1, std::min(chunks, a.n));
    const auto stream_of = [&](size_t c) { return pool_stream(int(c % size_t(streams))); };
    const auto copy_in = [&](size_t c) {
        const auto [first, count] = chunk(a.n, chunks, c);
        CUDA_CHECK(cudaMemcpyAsync(a.dev_in.data() + first, host_in + first, count * sizeof(float), cudaMemcpyHostToDevice,
                                   stream_of(c)));
    };
    const auto work = [&](size_t c) {
        const auto [first, count] = chunk(a.n, chunks, c);
        launch_work(a.dev_in.data() + first, a.dev_out.data() + first, count,
                    flaw == Flaw::work_on_default_stream ? cudaStream_t(0) : stream_of(c));
    };
    const auto copy_out = [&](size_t c) {
        const auto [first, count] = chunk(a.n, chunks, c);
        CUDA_CHECK(cudaMemcpyAsync(host_out + first, a.dev_out.data() + first, count * sizeof(float), cudaMemcpyDeviceToHost,
                                   stream_of(c)));
        if (flaw == Flaw::sync_each_chunk) CUDA_CHECK(cudaStreamSynchronize(stream_of(c)));
    };
    if (order == Order::depth_first) {
        for (size_t c = 0; c < chunks; ++c) copy_in(c), work(c), copy_out(c);
    } else {
        for (size_t c = 0; c < chunks; ++c) copy_in(c);
        for (size_t c = 0; c < chunks; ++c) work(c);
        for (size_t c = 0; c < chunks; ++c) copy_out(c);
    }
}
// student-release: end

// ------------------------------------------------------------------ measuring the stages

int copy_engines() {
    int device = 0, engines = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&engines, cudaDevAttrAsyncEngineCount, device));
    return engines;
}

double kernel_ms(grader::Exercise& ex, Arrays& a) {
    return ex.time([&] { launch_work(a.dev_in.data(), a.dev_out.data(), a.n, 0); }, kStageTiming).median_ms;
}

// Each stage alone on the whole array, with the work at the steps set now. The threshold of
// 07.1 is computed from these: each is a yardstick (Exercise::yardstick), measured by the
// student-free yardstick program and, in the exercise's process, the supervisor's figure.
overlap::Stages measure_stages(grader::Exercise& ex, Arrays& a, int engines) {
    const size_t bytes = a.bytes();
    overlap::Stages s;
    const auto h2d = [&](cudaStream_t st) {
        CUDA_CHECK(cudaMemcpyAsync(a.dev_in.data(), a.in.data(), bytes, cudaMemcpyHostToDevice, st));
    };
    const auto d2h = [&](cudaStream_t st) {
        CUDA_CHECK(cudaMemcpyAsync(a.out.data(), a.dev_out.data(), bytes, cudaMemcpyDeviceToHost, st));
    };
    s.h2d_ms = ex.yardstick("h2d_ms", [&] { return ex.time([&] { h2d(0); }, kStageTiming).median_ms; });
    s.d2h_ms = ex.yardstick("d2h_ms", [&] { return ex.time([&] { d2h(0); }, kStageTiming).median_ms; });
    s.both_ways_ms = ex.yardstick("both_ways_ms", [&] {
        return ex.time([&] { h2d(pool_stream(0)), d2h(pool_stream(1)); }, kTwoStreamsTiming).median_ms;
    });
    s.kernel_ms = ex.yardstick("kernel_ms", [&] { return kernel_ms(ex, a); });
    s.copy_engines = engines;
    return s;
}

// Steps per element that make the work on `a` take about `target_ms`. The kernel's time is
// a line in the steps (launch and memory traffic, plus a fixed cost per step): two timings
// fix it.
uint32_t calibrate_steps(grader::Exercise& ex, Arrays& a, double target_ms, grader::Rng& rng) {
    const uint32_t s1 = 32, s2 = 544;
    set_params(draw_params(rng, s1));
    const double t1 = kernel_ms(ex, a);
    set_params(draw_params(rng, s2));
    const double t2 = kernel_ms(ex, a);
    const double per_step = std::max((t2 - t1) / (s2 - s1), 1e-9);
    return uint32_t(std::clamp(s1 + (target_ms - t1) / per_step, 1.0, double(1 << 20)));
}

// The kernel as slow as the slower one-way copy: the stages balanced, the most to gain.
uint32_t balanced_steps(grader::Exercise& ex, Arrays& a, grader::Rng& rng) {
    const double copy_ms = std::max(ex.time([&] {
        CUDA_CHECK(cudaMemcpyAsync(a.dev_in.data(), a.in.data(), a.bytes(), cudaMemcpyHostToDevice, 0));
    }, kStageTiming).median_ms, ex.time([&] {
        CUDA_CHECK(cudaMemcpyAsync(a.out.data(), a.dev_out.data(), a.bytes(), cudaMemcpyDeviceToHost, 0));
    }, kStageTiming).median_ms);
    return calibrate_steps(ex, a, copy_ms, rng);
}

void record_stages(grader::Exercise& ex, const overlap::Stages& s, uint32_t steps) {
    ex.figure("h2d_ms", s.h2d_ms);
    ex.figure("d2h_ms", s.d2h_ms);
    ex.figure("both_ways_ms", s.both_ways_ms);
    ex.figure("kernel_ms", s.kernel_ms);
    ex.figure("copy_engines", s.copy_engines);
    ex.figure("work_steps", steps);
    ex.figure("serial_ms", overlap::serial_ms(s));
    ex.figure("best_ms", overlap::best_ms(s));
}

// "streams4_gbs" → "streams4_efficiency".
std::string efficiency_key(const std::string& gbs_key) {
    const size_t cut = gbs_key.rfind("_gbs");
    return (cut == std::string::npos ? gbs_key : gbs_key.substr(0, cut)) + "_efficiency";
}

constexpr const char* kNoEngine =
    "this GPU has no asynchronous copy engine (asyncEngineCount = 0): no copy can overlap a kernel, so there is no "
    "overlap to measure or grade";

// ------------------------------------------------------------------ the timeline of 07.1

// The grader's best pipeline in the tables above, traced beside the student's.
constexpr int kBestStreams = 4;
constexpr size_t kBestChunks = 32;
constexpr int kLaneWidth = 32;  // characters of time in the printed lanes: lines of 70 columns

struct Timelines {
    timeline::Timeline yours, serial, best;
};

// One more call each, untimed: the student's pipeline as a checked call (fresh key, outputs
// poisoned, verified), the serial pipeline and the best one; recorded in the exercise's
// tables for tools/report.py. A failure here changes no verdict: the call that failed has
// no timeline, and the reason says why.
Timelines trace_pipelines(grader::Exercise& ex, PipelineCall& timed) {
    Timelines t;
    Arrays& a = timed.arrays();
    timeline::Window window;
    timed.set_window(&window);
    try {
        t.yours = timeline::trace([&] { ex.check(timed.call()); }, &window);
    } catch (const std::exception& e) {
        t.yours = {}, t.yours.why_empty = std::string("the traced call of your pipeline failed: ") + e.what();
    }
    timed.set_window(nullptr);
    try {
        t.serial = timeline::trace([&] { serial_pipeline(a.in.data(), a.out.data(), a); });
#ifdef LESSON07_ANSWER_KERNELS
        t.best = timeline::trace(
            [&] { grader_pipeline(a.in.data(), a.out.data(), a, kBestStreams, kBestChunks, Order::depth_first); });
#else
        t.best.why_empty = "the student release has no pipeline of the grader's";
#endif
    } catch (const std::exception& e) {
        t.serial = t.best = {}, t.serial.why_empty = t.best.why_empty = std::string("the grader's pipeline failed: ") + e.what();
    }
    const std::string n = "n = " + std::to_string(a.n);
    const std::string best = std::to_string(kBestStreams) + " streams, " + std::to_string(kBestChunks) + " chunks, depth-first";
    ex.tables().push_back(timeline::table_json(t.yours, "yours", "timeline of your run_pipeline, one untimed call, " + n, true));
    ex.tables().push_back(timeline::table_json(t.serial, "serial", "timeline of the serial pipeline (1 stream, 1 chunk), " + n, false));
    ex.tables().push_back(timeline::table_json(t.best, "best", "timeline of the grader's pipeline (" + best + "), " + n, false));
    return t;
}

// The student's call and the best pipeline as lanes on one time scale, six lines at most.
void print_lanes(const Timelines& t) {
    if (t.yours.records.empty()) {
        std::printf("      timeline: %s\n", t.yours.why_empty.c_str());
        return;
    }
    const uint64_t scale = std::max(t.yours.end_ns(), t.best.end_ns());
    const auto show = [&](const timeline::Timeline& tl, const std::string (&head)[3]) {
        const std::vector<std::string> lanes = timeline::lanes(tl, kLaneWidth, scale);
        const char* names[] = {"copy in", "work", "copy out"};
        for (int i = 0; i < 3; ++i) std::printf("      %-20s %-8s |%s|\n", head[i].c_str(), names[i], lanes[size_t(i)].c_str());
    };
    const auto ms = [](const timeline::Timeline& tl) { return grader::fixed(tl.end_ns() * 1e-6, 2) + " ms"; };
    show(t.yours, {"your pipeline,", ms(t.yours) + " on the GPU", "('#': busy)"});
    if (!t.best.records.empty())
        show(t.best, {std::to_string(kBestStreams) + " streams, " + std::to_string(kBestChunks) + " chunks", "(grader's): " + ms(t.best), ""});
}

}  // namespace

// ---------------------------------------------------------------------- 07.0

GRADER_EXERCISE("07.0 copies and overlap on this GPU") {
    ex.teaching_only();  // INFO, not graded; skipped under compute-sanitizer
    ex.theory("The teaching tables");
    const int engines = copy_engines();
    if (engines == 0) ex.skip(kNoEngine);
    auto rng = ex.rng("table");
    Arrays a(kTableElements, rng);
    const size_t n = a.n, bytes = a.bytes();
    // The same input in pageable memory, for the rows that copy from there.
    std::vector<float> pageable_in(a.in.data(), a.in.data() + n), pageable_out(n);

    // 1. Copies alone.
    grader::TeachingTable::Options co;
    co.first_header = "copy of " + std::to_string(bytes >> 20) + " MiB (one call)";
    co.timing = kTableTiming;
    grader::TeachingTable copies(ex, co);
    const auto h2d = [&](const float* from, cudaStream_t s) {
        CUDA_CHECK(cudaMemcpyAsync(a.dev_in.data(), from, bytes, cudaMemcpyHostToDevice, s));
    };
    const auto d2h = [&](float* to, cudaStream_t s) {
        CUDA_CHECK(cudaMemcpyAsync(to, a.dev_out.data(), bytes, cudaMemcpyDeviceToHost, s));
    };
    const grader::Work one_way{double(bytes), 0}, two_ways{2.0 * bytes, 0};
    copies.row("pinned → device", "pinned_h2d_gbs", one_way, [&](int) { h2d(a.in.data(), 0); });
    copies.row("device → pinned", "pinned_d2h_gbs", one_way, [&](int) { d2h(a.out.data(), 0); });
    copies.row("both at once, pinned (bytes of both)", "pinned_both_gbs", two_ways,
               [&](int) { h2d(a.in.data(), pool_stream(0)), d2h(a.out.data(), pool_stream(1)); });
    copies.row("pageable → device", "pageable_h2d_gbs", one_way, [&](int) { h2d(pageable_in.data(), 0); });
    copies.row("device → pageable", "pageable_d2h_gbs", one_way, [&](int) { d2h(pageable_out.data(), 0); });
    copies.row("both at once, pageable (bytes of both)", "pageable_both_gbs", two_ways,
               [&](int) { h2d(pageable_in.data(), pool_stream(0)), d2h(pageable_out.data(), pool_stream(1)); });
    copies.print("Host<->device copies on this GPU, each one cudaMemcpyAsync of the whole array (" +
                 std::to_string(engines) + " async copy engines):");

    // The work calibrated as for 07.1, and the stages it gives.
    const uint32_t steps = balanced_steps(ex, a, rng);
    set_params(draw_params(rng, steps));
    const overlap::Stages st = measure_stages(ex, a, engines);
    record_stages(ex, st, steps);
    const double serial = overlap::serial_ms(st), best = overlap::best_ms(st);
    const grader::Work moved{2.0 * bytes, 0};  // in and out
    const auto record_efficiency = [&](const std::string& key, double gbs) {
        if (gbs > 0) ex.figure(efficiency_key(key), overlap::efficiency(st, moved.bytes / (gbs * 1e6)));
    };
    std::printf("      stages alone: copy in %.2f ms, work %.2f ms, copy out %.2f ms, both copies at once %.2f ms;\n"
                "      serial %.2f ms, best pipelined %.2f ms (theory.md, \"Fill, steady state and drain\")\n",
                st.h2d_ms, st.kernel_ms, st.d2h_ms, st.both_ways_ms, serial, best);

#ifdef LESSON07_ANSWER_KERNELS  // the grader's pipelines: not in the student release
    // 2. Streams × chunks, depth-first.
    grader::TeachingTable::Options so;
    so.first_header = "depth-first, chunks →";
    so.sweep = {"1", "4", "8", "16", "32", "64"};
    so.percent_of = {"best"};
    so.timing = kTableTiming;
    const size_t sweep_chunks[] = {1, 4, 8, 16, 32, 64};
    grader::TeachingTable grid(ex, so);
    grid.compare_with({moved.figure(best)});
    for (int k : {1, 2, 3, 4, 8}) {
        const std::string key = "streams" + std::to_string(k) + "_gbs";
        record_efficiency(key, grid.row(std::to_string(k) + (k == 1 ? " stream" : " streams"), key, moved, [&](int c) {
            grader_pipeline(a.in.data(), a.out.data(), a, k, sweep_chunks[c], Order::depth_first);
        }));
    }
    grid.print("The pipeline by streams and chunks: GB/s of input and output moved (best pipelined " +
               grader::fixed(moved.figure(best), 0) + " GB/s, serial " + grader::fixed(moved.figure(serial), 0) + " GB/s)");

    // 3. Issue order.
    grader::TeachingTable::Options oo = so;
    oo.first_header = "issue order, chunks →";
    oo.sweep = {"4", "16", "64"};
    const size_t order_chunks[] = {4, 16, 64};
    grader::TeachingTable order(ex, oo);
    order.compare_with({moved.figure(best)});
    // Four streams, and one stream per chunk as in the notes (k = 0): there each stream runs
    // the same three operations in either order.
    for (int k : {4, 0})
        for (Order o : {Order::depth_first, Order::breadth_first}) {
            const bool depth = o == Order::depth_first;
            const std::string streams = k ? std::to_string(k) + " streams" : "a stream per chunk";
            const std::string key = std::string(depth ? "depth" : "breadth") + (k ? "_streams4" : "_stream_per_chunk") + "_gbs";
            record_efficiency(key, order.row(std::string(depth ? "depth-first, " : "breadth-first, ") + streams, key, moved,
                                             [&](int c) {
                                                 const size_t chunks = order_chunks[c];
                                                 grader_pipeline(a.in.data(), a.out.data(), a, k ? k : int(chunks), chunks, o);
                                             }));
        }
    order.print("Depth-first (chunk by chunk) against breadth-first (all copies in, all work, all copies out):");
#endif

    // 4. What breaks the overlap, and the student's pipeline.
    grader::TeachingTable::Options bo;
#ifdef LESSON07_ANSWER_KERNELS
    bo.first_header = "4 streams, 32 chunks, depth-first";
#else
    bo.first_header = "pipeline";
#endif
    bo.percent_of = {"best"};
    bo.show_ms = true;
    bo.timing = kTableTiming;
    bo.before_check = [&] { a.out.poison(); };  // what the rows before left there must not count
    grader::TeachingTable breaks(ex, bo);
    breaks.compare_with({moved.figure(best)});
#ifdef LESSON07_ANSWER_KERNELS
    const auto row = [&](const char* label, const std::string& key, const float* from, float* to, Flaw flaw) {
        record_efficiency(key, breaks.row(label, key, moved, [&](int) {
            grader_pipeline(from, to, a, 4, 32, Order::depth_first, flaw);
        }));
    };
    row("as it should be", "pipeline_gbs", a.in.data(), a.out.data(), Flaw::none);
    row("pageable host arrays", "pageable_gbs", pageable_in.data(), pageable_out.data(), Flaw::none);
    row("the work on the default stream", "default_stream_gbs", a.in.data(), a.out.data(), Flaw::work_on_default_stream);
    row("cudaStreamSynchronize after each chunk", "sync_each_gbs", a.in.data(), a.out.data(), Flaw::sync_each_chunk);
#endif
    record_efficiency("serial_gbs", breaks.row("one stream, one chunk (serial)", "serial_gbs", moved,
                                               [&](int) { serial_pipeline(a.in.data(), a.out.data(), a); }));
    record_efficiency("yours_gbs", breaks.row("your run_pipeline", "yours_gbs", moved,
                                              [&](int) { run_student(ex, a, "run_pipeline, n = " + std::to_string(n)); },
                                              true, {}, [&] { return a.right(); }));
    breaks.print("What breaks the overlap, and your pipeline:");

#ifdef LESSON07_ANSWER_KERNELS
    // 5. Intensity: the work from 1/8 to 4 times the time of one copy.
    grader::TeachingTable::Options io;
    io.first_header = "work ÷ copy";
    io.extra_headers = {"steps/B", "c/b in", "c/b out", "work ms", "best ms"};
    io.percent_of = {"best"};
    io.show_ms = true;
    io.timing = kTableTiming;
    grader::TeachingTable intensity(ex, io);
    const double copy_ms = std::max(st.h2d_ms, st.d2h_ms);
    const double heavy_share = double(kHeavyTags) / (kTagMask + 1);  // of the elements
    const std::pair<double, const char*> ratios[] = {{0.125, "1_8"}, {0.25, "1_4"}, {0.5, "1_2"}, {1.0, "1"}, {2.0, "2"}, {4.0, "4"}};
    for (const auto& [ratio, name] : ratios) {
        const uint32_t s = calibrate_steps(ex, a, ratio * copy_ms, rng);
        set_params(draw_params(rng, s));
        overlap::Stages r = st;
        r.kernel_ms = kernel_ms(ex, a);
        // r: steps per byte of input; c: steps per second this kernel reached; b: bytes per second of each copy.
        const double steps_total = double(n) * s * (1 + (kHeavyFactor - 1) * heavy_share);
        const double per_byte = steps_total / bytes, c = steps_total / (r.kernel_ms * 1e-3);
        const double b_in = bytes / (st.h2d_ms * 1e-3), b_out = bytes / (st.d2h_ms * 1e-3);
        intensity.compare_with({moved.figure(overlap::best_ms(r))});
        const std::string key = std::string("ratio_") + name + "_gbs";
        intensity.row(grader::fixed(r.kernel_ms / copy_ms, 2), key, moved,
                      [&](int) { grader_pipeline(a.in.data(), a.out.data(), a, 4, 32, Order::depth_first); }, false,
                      {grader::fixed(per_byte, 1), grader::fixed(c / b_in, 1), grader::fixed(c / b_out, 1), grader::fixed(r.kernel_ms, 2),
                       grader::fixed(overlap::best_ms(r), 2)});
        ex.figure(std::string("ratio_") + name + "_kernel_ms", r.kernel_ms);
        ex.figure(std::string("ratio_") + name + "_best_ms", overlap::best_ms(r));
    }
    intensity.print("When the copies can be hidden: the work from 1/8 to 4 times one copy (4 streams, 32 chunks).\n"
                    "      steps/B is r, the work per byte; c is the steps per second this kernel reached, b the bytes per\n"
                    "      second of the copy in and of the copy out: the copies hide behind the work when r >= c/b both ways.");
#endif
}

// ---------------------------------------------------------------------- 07.1

// The baseline 07.1's threshold is measured against: the time of a pipeline at
// kRequiredEfficiency, from the stages (a yardstick of its own, so the supervisor rechecks it
// as it does any baseline).
const std::string kPipelineBaseline = "a pipeline at " + std::to_string(int(100 * kRequiredEfficiency + 0.5)) + " % overlap";

GRADER_EXERCISE("07.1 pipeline") {
    ex.theory("Fill, steady state and drain");
    ex.hint("cut the array into chunks (16 or more) and give each chunk's copy in, launch_work and copy out to one of a "
            "few streams (3 or 4, in turn), so that one chunk's work runs while the next is copied in and the one "
            "before is copied out");
    const int engines = copy_engines();
    if (engines == 0) ex.skip(kNoEngine);
    auto rng = ex.rng("inputs");
    const bool sanitizer = grader::sanitizer_mode();

    // The timed arrays first: the work is calibrated on them, and every check below runs it at
    // that cost, so a copy back that does not wait for its kernel has time to go wrong. The
    // calibration is a yardstick: the work the threshold's stages are measured at must be the
    // one the exercise's process runs, so it is calibrated once, in the yardstick program, on
    // keys of its own (skipping it in the exercise's process shifts no other draw).
    const size_t timed_n = sanitizer ? kSanitizerMaxN - 3 : kTimedElements;
    PipelineCall timed(ex, timed_n, kSanitizerSteps, rng);
    auto calibration = ex.rng("calibration");
    const uint32_t steps = sanitizer ? kSanitizerSteps : uint32_t(ex.yardstick("work steps per element", [&] {
        return double(balanced_steps(ex, timed.arrays(), calibration));
    }));
    timed.set_steps(steps);

    std::vector<size_t> sizes;
    for (size_t n = 0; n <= kDenseSizes; ++n) sizes.push_back(n);
    sizes.insert(sizes.end(), std::begin(kSizes), std::end(kSizes));
    for (size_t n : sizes) {
        if (sanitizer && n > kSanitizerMaxN) continue;
        PipelineCall c(ex, n, steps, rng);
        ex.check(c.call());
    }
    ex.check(timed.call());

    overlap::Stages st;
    double required = 1;
    if (!sanitizer) {
        set_params(draw_params(rng, steps));
        st = measure_stages(ex, timed.arrays(), engines);
        record_stages(ex, st, steps);
        required = ex.yardstick(kPipelineBaseline, [&] { return overlap::required_ms(st, kRequiredEfficiency); });
        ex.figure("required_efficiency", kRequiredEfficiency);
        ex.figure("required_ms", required);
        Arrays& a = timed.arrays();
        ex.diagnose_slow({"the speed of the serial pipeline (one stream: copy in, work, copy out)",
                          [&] { serial_pipeline(a.in.data(), a.out.data(), a); },
                          "cut the array into chunks (16 or more) and give each chunk's copy in, launch_work and copy out "
                          "to one of a few streams (3 or 4, in turn), so that the copies run while the work runs",
                          "part of the work overlaps, not enough: use more chunks (N equal chunks leave about "
                          "(serial - best) / N of fill and drain), and look in the loop for anything that waits: "
                          "cudaStreamSynchronize, a copy without Async or from pageable memory, cudaMalloc or cudaFree, "
                          "work on the default stream"});
    }
    // Bytes moved: the input in and the output out. The time allowed is required_ms.
    const double best = sanitizer ? 1 : overlap::best_ms(st);
    // thresholds.txt declares 1 × this time: the pipeline at kRequiredEfficiency, from the
    // stages measured in this run (the supervisor takes it as it takes any baseline's time).
    grader::Performance p = grader::versus(kPipelineBaseline, sanitizer ? best : required,
                                           2.0 * timed.arrays().bytes(), 0);
    p.clock = grader::Clock::wall;
    // Once the calls are timed, whatever the verdict: the efficiency this median gives and,
    // when it is too slow, one more traced call of each pipeline (timeline.hpp), drawn as
    // lanes. Not on a PASS: a passing run is spared the three extra calls and CUPTI's start.
    p.with_median = [&](double median_ms) {
        if (sanitizer) return;
        const double allowed_ms = required / grader::threshold_scale();
        ex.figure("overlap_efficiency", overlap::efficiency(st, median_ms));
        std::printf("      overlap efficiency %.0f %% (needs %.0f %%): serial %.2f ms, best pipelined %.2f ms, yours %.2f ms\n",
                    100 * overlap::efficiency(st, median_ms), 100 * overlap::efficiency(st, allowed_ms), overlap::serial_ms(st),
                    best, median_ms);
        if (median_ms > allowed_ms) print_lanes(trace_pipelines(ex, timed));
    };
    ex.grade(p, timed.call());
}
