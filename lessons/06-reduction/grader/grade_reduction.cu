// SPDX-License-Identifier: MIT
// Lesson 06 grader: parallel reduction. Every step is checked on integers (exact) and on
// floats (against an fp64 sum, within the tolerance theory.md derives) at awkward sizes
// and block sizes (both ends of the contract's n included), then timed at block size 256
// against a yardstick timed on the same input in the same run: step 1 against the
// block-sum ceiling (block_sum_ceiling.cuh), steps 2–5 against the grader's own copy of the
// step before (step_yardsticks.cuh) or the block-sum ceiling, step 6 against the block-sum
// ceiling again, step 7 against CUB DeviceReduce::Sum. Every timed call sums fresh values
// and is checked against the grader's own sum of them on the GPU. Exercise 06.0 prints the
// teaching table: every step at every block size.
#include <doctest/doctest.h>

#include <cub/cub.cuh>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <iterator>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "block_sum_ceiling.cuh"
#include "grader/exercise/grader.hpp"
#include "reduction.cuh"
#include "step_yardsticks.cuh"

GRADER_LESSON("06", "Parallel reduction", "lessons/06-reduction/theory.md");

namespace {

// What each step's speed is graded against, measured on the same input in the same run.
// Steps 1–6 are limited by how fast the SMs run blocks that read 2 KiB or less each, not by
// DRAM (theory.md, "What limits steps 1–6"): an H100 and an H200 ran them within a few per
// cent of each other while CUB ran 46 % faster on the H200. So CUB is the yardstick of step
// 7 only. Steps 2–5 must beat the grader's own copy of the step before — exactly what their
// starter runs — by a factor, or reach a share of the block-sum ceiling, whichever line is
// lower (lessons/06-reduction/thresholds.txt says how much, and why).
enum class Yardstick { block_sum, previous_step, cub };

// Steps are graded at this block size; the teaching table sweeps all of kTableBlocks.
constexpr int kGradedBlock = 256;
const int kTableBlocks[] = {32, 64, 128, 256, 512, 1024};

// Float results may differ from the fp64 sum by kFloatTolerance · u · Σ|x| (u = 2^-24):
// about nine standard deviations of a fully serial fp32 sum of values uniform in [-1, 1)
// (theory.md, "Floating-point tolerance").
constexpr double kFloatTolerance = 3;
// Integers of the uniform distribution lie in [-kIntRange, kIntRange]: no partial sum of up
// to 2^24 + 43 of them, in any order, leaves the range of int; the large-sums distribution
// keeps every partial sum below 2^31 too. So the exact sum is the only right answer.
constexpr int kIntRange = 100;

// The largest n of the contract (reduction.cuh): 4 GiB of floats, the most the grader times
// (CUB counts in int). A launcher that counts bytes or indices in 32 bits fails here and
// nowhere below, so each step is checked at exactly this n too, on inputs made and summed on
// the device (a host reference of 2^30 values would cost seconds per step).
constexpr size_t kLargestN = size_t(1) << 30;
constexpr size_t kLargestSpare = size_t(256) << 20;

// n = 1, n below one block, one below / at / above powers of two, primes, and a large prime.
const size_t kSizes[] = {1, 2, 3, 31, 32, 33, 255, 256, 257, 511, 512, 513, 1000, 1024, 1025, 4099, 65537, 1000003, 16777259};
// Sizes also checked at every other block size (a 32-thread block has no s[32], a
// 1024-thread block covers 2048 values from step 4 on).
const size_t kSizesAllBlocks[] = {1, 33, 1025, 65537, 1000003};
// compute-sanitizer runs kernels far slower: only the sizes up to this one (besides step 7's
// grid-stride size below).
constexpr size_t kSanitizerMaxN = 70000;
// Every n from 1 to this one, on integers at block size 32, where a launcher changes path
// fastest: one pass or several (32 or 64 values per block), the last block full or not, a
// float4 body with a tail of 0 … 3 values or none (step 7).
constexpr size_t kDenseUpTo = 130;

template <class T>
using Launcher = void (*)(const T*, size_t, T*, T*, int);

struct Step {
    int number;
    const char* name;     // row of the teaching table
    const char* section;  // section of theory.md
    const char* hint;
    Launcher<float> f;
    Launcher<int> i;
    Yardstick against;
};

const Step kSteps[] = {
    {1, "1 interleaved divergent", "Step 1: interleaved addressing and divergence",
     "sum each block in shared memory along a tree (threads with tid % (2s) == 0 add s[tid + s], one __syncthreads() "
     "per level) and launch again on the partial sums with reduce_in_passes",
     reduce_step1, reduce_step1, Yardstick::block_sum},
    {2, "2 interleaved strided", "Step 2: strided index and bank conflicts",
     "let thread tid work on index 2·s·tid so the threads that add are the first ones of the block",
     reduce_step2, reduce_step2, Yardstick::previous_step},
    {3, "3 sequential addressing", "Step 3: sequential addressing and idle threads",
     "start at stride blockDim.x / 2 and halve it, threads tid < stride adding s[tid + stride]: one bank per lane",
     reduce_step3, reduce_step3, Yardstick::previous_step},
    {4, "4 first add during load", "Step 4: first add during the load",
     "let each thread load and add two values blockDim.x apart, so a block covers 2 × blockDim.x values",
     reduce_step4, reduce_step4, Yardstick::previous_step},
    {5, "5 unrolled last warp", "Step 5: unrolling the last warp",
     "stop the __syncthreads() loop at stride 64 and let warp 0 do the last six levels with __syncwarp() between them",
     reduce_step5, reduce_step5, Yardstick::previous_step},
    {6, "6 complete unrolling", "Step 6: complete unrolling with a block-size template",
     "make the block size a template parameter, write every level out, and switch on block_size in the launcher",
     reduce_step6, reduce_step6, Yardstick::block_sum},
    {7, "7 grid-stride + shuffles", "Step 7: many values per thread at memory speed",
     "launch only the blocks that fit on the GPU at once, loop with a grid stride over float4 loads into registers, "
     "reduce warps with __shfl_down_sync, and add the per-block sums in a one-block final pass",
     reduce_step7, reduce_step7, Yardstick::cub},
};

template <class T>
const char* type_name() {
    return std::is_same_v<T, float> ? "float" : "int";
}

// The distributions each type is checked on, one per size in turn (grader/exercise/inputs.hpp):
// integer sums that pass 2^24 catch a sum routed through float.
template <class T>
std::vector<grader::Dist> dists() {
    if constexpr (std::is_same_v<T, float>) return {grader::Dist::uniform, grader::Dist::zeros};
    else return {grader::Dist::uniform, grader::Dist::large_sums, grader::Dist::zeros};
}

// The exact-enough sum (fp64; exact for the integers) and the sum of magnitudes, added per
// chunk on several threads (grader/exercise/host_chunks.hpp), then over the chunks in order: the
// same input always gives the same figures.
struct Sums {
    double sum = 0, abs = 0;
};
template <class T>
Sums host_sums(const std::vector<T>& v) {
    struct Partial {
        int64_t total = 0, magnitude = 0;  // integers: exact
        double sum = 0, abs = 0;           // floats
    };
    std::vector<Partial> part((v.size() + grader::kHostChunk - 1) / grader::kHostChunk);
    grader::for_each_chunk(v.size(), [&](size_t begin, size_t end, size_t c) {
        Partial& p = part[c];
        for (size_t k = begin; k < end; ++k) {
            if constexpr (std::is_integral_v<T>) p.total += v[k], p.magnitude += v[k] < 0 ? -int64_t(v[k]) : int64_t(v[k]);
            else p.sum += double(v[k]), p.abs += std::fabs(double(v[k]));
        }
    });
    Sums s;
    int64_t total = 0, magnitude = 0;
    for (const Partial& p : part) total += p.total, magnitude += p.magnitude, s.sum += p.sum, s.abs += p.abs;
    if constexpr (std::is_integral_v<T>) s.sum = double(total), s.abs = double(magnitude);
    return s;
}

// The lesson's bound as a fraction of Σ|x|: kFloatTolerance · u for floats, 0 (exact) for ints.
template <class T>
constexpr double relative_tolerance() {
    return std::is_integral_v<T> ? 0 : kFloatTolerance * 0x1p-24;
}

template <class T>
grader::Tolerance tolerance_for(const Sums& s) {
    return grader::Tolerance{relative_tolerance<T>() * s.abs, 0};
}

// FAIL (wrong) unless *out holds the sum. For integers, a result off by a multiple of the
// guard value means the kernel read the guard bytes next to the input.
template <class T>
void expect_sum(grader::Exercise& ex, const grader::DeviceBuffer<T>& out, const Sums& sums, const std::string& ctx) {
    const std::vector<T> got = out.download();
    if constexpr (std::is_integral_v<T>) {
        if (double(got[0]) != sums.sum && !grader::is_poison(got[0])) {
            const uint32_t guard = uint32_t(grader::filled_with<T>(grader::guard_byte<T>()));
            const uint32_t diff = uint32_t(got[0]) - uint32_t(int64_t(sums.sum));
            for (uint32_t k = 1; k <= 64; ++k)
                if (k * guard == diff || k * guard == uint32_t(0) - diff)
                    ex.reject(grader::Reason::wrong,
                              ctx + ": expected " + std::to_string(int64_t(sums.sum)) + ", got " + std::to_string(got[0]) +
                                  ": that is " + std::to_string(k) +
                                  " copies of the guard value next to the input — the kernel read " + std::to_string(k) +
                                  " values outside in[0 … n-1]");
        }
    }
    ex.expect_close(got, std::vector<double>{sums.sum}, tolerance_for<T>(sums), ctx);
}

// ---------------------------------------------------------------- the grader's sum on the GPU
// For every timed call (fresh values each time) and for the checks at n = 2^30: Σx and Σ|x|
// of the input, each thread adding its grid-stride share in fp64 (in 64-bit integers for
// int: exact), each block its threads, then one block the blocks' partial sums. Every value
// passes through at most (values per thread + 32) fp64 additions, so its own rounding error
// is below that many times 2^-53 · Σ|x|: under 2^-37 Σ|x| at n = 2^30 on any GPU of 16 SMs
// or more, less than 2^-15 of the float tolerance. Like the host's fp64 sum, it is ignored,
// and the lesson's own bound applies unchanged.
template <class T>
using Wide = std::conditional_t<std::is_integral_v<T>, long long, double>;
template <class T>
using Vector4 = std::conditional_t<std::is_integral_v<T>, int4, float4>;

constexpr int kSumThreads = 256;     // per block of the first pass
constexpr int kSumBlocksPerSm = 8;   // 2048 threads per SM with four 16-byte loads each in flight
constexpr int kFinalThreads = 1024;  // the one block of the second pass

// Thread 0 gets the block's totals of s and a.
template <class W>
__device__ void block_totals(W& s, W& a) {
    __shared__ W warp_s[32], warp_a[32];
    for (int offset = 16; offset > 0; offset /= 2)
        s += __shfl_down_sync(0xffffffffu, s, offset), a += __shfl_down_sync(0xffffffffu, a, offset);
    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    if (lane == 0) warp_s[warp] = s, warp_a[warp] = a;
    __syncthreads();
    if (warp != 0) return;
    s = lane < blockDim.x / 32 ? warp_s[lane] : W(0);
    a = lane < blockDim.x / 32 ? warp_a[lane] : W(0);
    for (int offset = 16; offset > 0; offset /= 2)
        s += __shfl_down_sync(0xffffffffu, s, offset), a += __shfl_down_sync(0xffffffffu, a, offset);
}

template <class T>
__device__ void add(Wide<T>& s, Wide<T>& a, T x) {
    const Wide<T> w = x;
    s += w;
    a += w < 0 ? -w : w;
}

// partial[2b], partial[2b + 1]: block b's Σx and Σ|x|. `in` is 256-byte aligned (the
// grader allocated it), so it is read in 16-byte loads, four per thread in flight.
template <class T>
__global__ void partial_sums(const T* __restrict__ in, size_t n, Wide<T>* __restrict__ partial) {
    using V = Vector4<T>;
    const V* in4 = reinterpret_cast<const V*>(in);
    const size_t n4 = n / 4, stride = size_t(gridDim.x) * blockDim.x, first = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    Wide<T> s = 0, a = 0;
    size_t i = first;
    for (; i + 3 * stride < n4; i += 4 * stride) {
        V v[4];
#pragma unroll
        for (int u = 0; u < 4; ++u) v[u] = in4[i + u * stride];
#pragma unroll
        for (int u = 0; u < 4; ++u) add<T>(s, a, v[u].x), add<T>(s, a, v[u].y), add<T>(s, a, v[u].z), add<T>(s, a, v[u].w);
    }
    for (; i < n4; i += stride) {
        const V v = in4[i];
        add<T>(s, a, v.x), add<T>(s, a, v.y), add<T>(s, a, v.z), add<T>(s, a, v.w);
    }
    if (first < n % 4) add<T>(s, a, in[4 * n4 + first]);
    block_totals(s, a);
    if (threadIdx.x == 0) partial[2 * blockIdx.x] = s, partial[2 * blockIdx.x + 1] = a;
}

// result = {*got, Σx, Σ|x|} in double: the comparison's got, expected and scale.
template <class T>
__global__ void final_sum(const Wide<T>* __restrict__ partial, unsigned blocks, const T* got, double* result) {
    Wide<T> s = 0, a = 0;
    for (unsigned b = threadIdx.x; b < blocks; b += blockDim.x) s += partial[2 * b], a += partial[2 * b + 1];
    block_totals(s, a);
    if (threadIdx.x == 0) result[0] = double(*got), result[1] = double(s), result[2] = double(a);
}

template <class T>
class DeviceSum {
public:
    DeviceSum()
        : blocks_(unsigned(std::max(1, grader::gpu().sms) * kSumBlocksPerSm)), partial_(2 * size_t(blocks_), "partial sums"),
          result_(3, "the grader's sum") {}

    // FAIL (wrong) unless *got is the sum of in[0 … n−1]: exactly for int, within
    // kFloatTolerance · u · Σ|x| for float (the bound of tolerance_for, as a fraction of Σ|x|).
    void expect(grader::Exercise& ex, const T* in, size_t n, const T* got, const std::string& ctx) {
        const unsigned blocks = unsigned(std::min<size_t>(blocks_, std::max<size_t>(1, (n / 4 + kSumThreads - 1) / kSumThreads)));
        partial_sums<T><<<blocks, kSumThreads>>>(in, n, partial_.data());
        final_sum<T><<<1, kFinalThreads>>>(partial_.data(), blocks, got, result_.data());
        CUDA_CHECK(cudaGetLastError());
        const double* r = result_.data();
        ex.expect_on_device(r, r + 1, 1, grader::Tolerance{0, relative_tolerance<T>()}, ctx, r + 2,
                            [](size_t) { return std::string("*out"); });
    }

private:
    unsigned blocks_;
    grader::DeviceBuffer<Wide<T>> partial_;
    grader::DeviceBuffer<double> result_;
};

// ---------------------------------------------------------------- one call

// One call of a step on `in`: the sum in `out`, `scratch` free for partial sums. The caller
// says how the result is checked (verify, or timed_inputs and timed_verify). The launcher
// gets in.size() at each call: the part of `in` a timed call uses (timed_size in grade_speed).
template <class T>
struct SumCall {
    grader::DeviceBuffer<T> out, scratch;
    grader::Call call;
    SumCall(Launcher<T> launch, int step, grader::DeviceBuffer<T>& in, int block, const std::string& what,
            const std::string& size = "")
        : out(1, "result"), scratch(reduction_scratch_elements(in.size()), "scratch"),
          call("reduce_step" + std::to_string(step) + " (" + type_name<T>() + "), " +
                   (size.empty() ? "n = " + std::to_string(in.size()) : size) + ", block_size " + std::to_string(block) + what,
               [this, launch, &in, block] { launch(in.data(), in.size(), out.data(), scratch.data(), block); }) {
        call.input(in, "in").output(out, "out").scratch(scratch, "scratch");
    }
};

// One untimed call on values drawn on the host, checked against their host sums.
template <class T>
void check_drawn(grader::Exercise& ex, Launcher<T> launch, int step, size_t n, grader::Dist dist, const std::vector<int>& blocks,
                 grader::Rng& rng) {
    const double range = std::is_integral_v<T> ? kIntRange : 1.0;
    const std::vector<T> host = grader::draw<T>(dist, n, rng, -range, range);
    const Sums sums = host_sums(host);
    grader::DeviceBuffer<T> in(host, "input");
    for (int block : blocks) {
        SumCall<T> c(launch, step, in, block, ", " + describe(dist));
        c.call.verify([&] { expect_sum(ex, c.out, sums, c.call.context()); });
        ex.check(c.call);
    }
}

// Step 7's grid-stride loop, as its reference launches it (never more threads than the GPU
// holds at once): values for at least three turns of its loop of four 16-byte loads, two of
// the loop after it and a tail of three, whatever the SM count (gpu().sms, --sms included).
size_t grid_stride_size() {
    int per_sm = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, 0));
    const size_t threads = size_t(grader::gpu().sms) * size_t(per_sm);
    return 4 * (3 * 4 + 2) * threads + 3;
}

// n = 2^30 (kLargestN), made and summed on the device: the largest n of the contract.
// Integers: the large-sums distribution, 0 or 1 each at this n, their sum past 2^24 and below
// 2^31 (proven safe in any order, as at every other n). Left out, with a line that says so,
// where the GPU has too little free memory to hold it twice over.
template <class T>
void check_largest(grader::Exercise& ex, Launcher<T> launch, int step) {
    // The input and the scratch, and room for the grader's sum and the allocator's rounding:
    // a GPU of 8 GB checks this size too.
    const size_t need = (kLargestN + reduction_scratch_elements(kLargestN)) * sizeof(T) + kLargestSpare;
    if (!grader::largest_check_fits(need, std::string("n = 2^30 (") + type_name<T>() + ")")) return;
    const grader::Dist dist = std::is_integral_v<T> ? grader::Dist::large_sums : grader::Dist::uniform;
    grader::DeviceBuffer<T> in(kLargestN, "input");
    grader::fill_on_device(in.data(), kLargestN, ex.rng(std::string("largest n ") + type_name<T>()).next(), dist);
    DeviceSum<T> reference;
    SumCall<T> c(launch, step, in, kGradedBlock, ", " + describe(dist));
    c.call.verify([&] { reference.expect(ex, in.data(), kLargestN, c.out.data(), c.call.context()); });
    ex.check(c.call);
}

template <class T>
void check_step(grader::Exercise& ex, Launcher<T> launch, int step) {
    auto rng = ex.rng(std::string("inputs ") + type_name<T>());
    const std::vector<grader::Dist> d = dists<T>();
    size_t k = 0;
    for (size_t n : kSizes) {
        if (grader::sanitizer_mode() && n > kSanitizerMaxN) continue;
        const bool all_blocks = std::find(std::begin(kSizesAllBlocks), std::end(kSizesAllBlocks), n) != std::end(kSizesAllBlocks);
        std::vector<int> blocks;
        for (int block : kTableBlocks)
            if (block == kGradedBlock || all_blocks) blocks.push_back(block);
        check_drawn(ex, launch, step, n, d[k++ % d.size()], blocks, rng);
    }
    if constexpr (std::is_integral_v<T>)
        for (size_t n = 1; n <= kDenseUpTo; ++n) check_drawn(ex, launch, step, n, d[n % d.size()], {kTableBlocks[0]}, rng);
    // Under compute-sanitizer too. Integers: the large-sums distribution, safe at any n.
    if (step == 7)
        check_drawn(ex, launch, step, grid_stride_size(), std::is_integral_v<T> ? grader::Dist::large_sums : grader::Dist::uniform,
                    {kGradedBlock}, rng);
}

// CUB's sum of the floats `in` holds now into `out`, timed the same way: the vendor figure,
// and step 7's ceiling. Its temporary storage is sized for the most any size from `least` to
// in.size() asks (each end asked: CUB's need follows its grid, which does not shrink with n
// once the input fills the GPU), so that no call of a timed size allocates.
class CubSum {
public:
    CubSum(grader::DeviceBuffer<float>& in, float* out, size_t least) : in_(in), out_(out) {
        for (size_t n : {least, in.size()}) {
            size_t bytes = 0;
            CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, bytes, in_.data(), out_, int(n)));
            temp_bytes_ = std::max(temp_bytes_, bytes);
        }
        temp_ = std::make_unique<grader::DeviceBuffer<unsigned char>>(std::max<size_t>(temp_bytes_, 1), "CUB temporary storage");
    }
    // Given less storage than it needs, CUB returns an error, which stops the grader (CUDA_CHECK).
    void operator()() { CUDA_CHECK(cub::DeviceReduce::Sum(temp_->data(), temp_bytes_, in_.data(), out_, count())); }

private:
    int count() const { return int(in_.size()); }  // CUB's count type in CUDA 12.0; the timing sizes stay at or below 2^30
    grader::DeviceBuffer<float>& in_;
    float* out_;
    size_t temp_bytes_ = 0;
    std::unique_ptr<grader::DeviceBuffer<unsigned char>> temp_;
};

// Values for timing runs: at least the library's timing size, at most the contract's largest n.
size_t timed_elements() { return std::min<size_t>(grader::timing_elements(sizeof(float)), kLargestN); }

const char* const kBlockSumName = "block-sum ceiling";
const char* const kCubName = "CUB DeviceReduce::Sum";

void grade_speed(grader::Exercise& ex, const Step& step) {
    const size_t n = timed_elements(), span = grader::band_span(n);
    grader::DeviceBuffer<float> in(n, "timing input");
    SumCall<float> c(step.f, step.number, in, kGradedBlock, "",
                     "n from " + std::to_string(n - span) + " to " + std::to_string(n) + " (drawn for every timed call)");
    // Every timed call sums fresh values, checked against the grader's own sum of them, and
    // has a size of its own, up to 1 % below n: the remainder of n against a launcher's grid,
    // block and vector width changes from call to call (grader/common/timed_sizes.hpp). The scratch
    // space shrinks with it, to what the contract gives that n.
    DeviceSum<float> reference;
    c.call.timed_size([&](grader::SizeDraw& d) {
        const size_t used = d.pick(n, span);
        in.use(used);
        c.scratch.use(reduction_scratch_elements(used));
        return grader::RunSize{double(used) / double(n), "n = " + std::to_string(used)};
    });
    c.call.timed_inputs([&](uint64_t key) { grader::fill_on_device(in.data(), in.size(), key, grader::Dist::uniform); });
    c.call.timed_verify([&] { reference.expect(ex, in.data(), in.size(), c.out.data(), c.call.context()); });
    // CUB is timed for every step (the vendor figure: "% of CUB"); besides it, only the
    // yardsticks the step is graded against. Each writes the student's call's own result and
    // scratch, and is timed with its every run prepared and verified as the student's are
    // (Exercise::baseline); the slow diagnosis reruns one of them there after the grade.
    const grader::Work work{4.0 * n, 0};
    const auto verified = [&](const std::string& name, bool vendor, const std::function<void()>& launch) {
        grader::Call b = c.call.with_launch(name, launch);
        return ex.baseline(name, work, b, vendor);
    };
    CubSum cub(in, c.out.data(), n - span);
    const grader::Baseline vendor = verified(kCubName, true, [&] { cub(); });
    const auto block_sum = [&] { block_sum_ceiling(in.data(), in.size(), c.out.data(), c.scratch.data(), kGradedBlock); };
    if (step.against == Yardstick::cub) {
        ex.diagnose_slow({"the speed of the fastest kernel shaped like steps 4–6 (the block-sum ceiling)", block_sum,
                          step.hint, "compare your kernel with theory.md, section \"" + std::string(step.section) + "\""});
        ex.grade(grader::versus(vendor), c.call);
    } else if (step.against == Yardstick::previous_step) {
        // The step this one starts from, as the grader writes it: a kernel at its speed has not
        // made this step's change yet; one clearly faster has, and something else holds it back.
        const int before = step.number - 1;
        const auto previous = [&] {
            grader_step_sum(before, in.data(), in.size(), c.out.data(), c.scratch.data(), kGradedBlock);
        };
        const std::string name = "the grader's step " + std::to_string(before);
        const grader::Baseline shape = verified(kBlockSumName, false, block_sum);
        const grader::Baseline yardstick = verified(name, false, previous);
        ex.diagnose_slow({"the speed of " + name, previous, step.hint,
                          "compare your row with the others in the 06.0 table (the grader times block_size 256) and "
                          "with theory.md, section \"" + std::string(step.section) + "\""});
        // × the step before, or a share of the block-sum ceiling, whichever threshold is lower
        // (thresholds.txt, in this order).
        ex.grade(grader::lower_of(grader::versus(yardstick), grader::versus(shape)), c.call);
    } else {
        ex.grade(grader::versus(verified(kBlockSumName, false, block_sum)), c.call);
    }
}

void grade_step(grader::Exercise& ex, const Step& step) {
    ex.theory(step.section);
    ex.hint(step.hint);
    if (!grader::yardstick_run()) {  // its checks do nothing there: spare the host sums
        check_step<int>(ex, step.i, step.number);  // first: exact, and it sees reads outside the input
        check_step<float>(ex, step.f, step.number);
    }
    grade_speed(ex, step);
    if (grader::yardstick_run()) return;
    // The largest n only after a passing speed grade (a failing one has ended the exercise):
    // 2^30 values take a step-1 starter seconds per call, for a verdict already decided.
    check_largest<int>(ex, step.i, step.number);
    check_largest<float>(ex, step.f, step.number);
}

}  // namespace

GRADER_EXERCISE("06.0 reduction table") {
    ex.teaching_only();  // INFO, not graded; skipped under compute-sanitizer
    ex.theory("The teaching table");
    const size_t n = std::min<size_t>(size_t(64) << 20, timed_elements());
    auto rng = ex.rng("table");
    std::vector<float> host = grader::draw<float>(grader::Dist::uniform, n, rng);
    const Sums sums = host_sums(host);
    grader::DeviceBuffer<float> in(host, "table input"), out(1, "result"), scratch(reduction_scratch_elements(n), "scratch");
    std::vector<float>().swap(host);
    // Few runs per cell: 42 cells, and the student's slowest steps are in the sweep too.
    const grader::TimingOptions few{1, 5, true};
    const grader::Work work{4.0 * n, 0};
    CubSum cub(in, out.data(), n);
    const double cub_gbs = work.figure(ex.time([&] { cub(); }, few).median_ms);
    grader::TeachingTable::Options o;
    o.first_header = "step";
    for (int block : kTableBlocks) o.sweep.push_back(std::to_string(block));
    o.percent_of = {"CUB"};
    o.timing = few;
    o.before_check = [&] { out.poison(); };
    grader::TeachingTable table(ex, o);
    table.compare_with({cub_gbs});
    // A wrong sum is not timed: its speed would mean nothing.
    auto sum_is_right = [&] {
        return grader::compare(out.download(), std::vector<double>{sums.sum}, tolerance_for<float>(sums)).ok();
    };
    for (const Step& step : kSteps)
        table.row(step.name, "step" + std::to_string(step.number) + "_best_gbs", work,
                  [&](int k) { step.f(in.data(), n, out.data(), scratch.data(), kTableBlocks[k]); }, true, {}, sum_is_right);
    table.row(std::string("(") + kBlockSumName + ")", "block_sum_best_gbs", work,
              [&](int k) { block_sum_ceiling(in.data(), n, out.data(), scratch.data(), kTableBlocks[k]); });
    ex.figure("cub_gbs", cub_gbs);
    table.print("Sum of " + std::to_string(n) + " floats on this GPU: GB/s of input read, by step and block size (median of up to " +
                std::to_string(few.runs) + " runs):");
    std::printf("      yardsticks: the %s (last row) is the grader's fastest kernel shaped like steps 4–6\n"
                "      (two values per thread, one block per 2 × block_size values); steps 1 and 6 are graded against\n"
                "      it, steps 2–5 against the grader's own copy of the step before, step 7 against CUB\n"
                "      DeviceReduce::Sum %.0f GB/s (bytes read) · copy kernel %.0f GB/s (read + write).\n"
                "      Why: theory.md, \"What limits steps 1–6\".\n",
                kBlockSumName, cub_gbs, grader::ceilings().get(grader::ceiling::copy_gbs));
}

GRADER_EXERCISE("06.1 step 1 interleaved divergent") { grade_step(ex, kSteps[0]); }
GRADER_EXERCISE("06.2 step 2 interleaved strided") { grade_step(ex, kSteps[1]); }
GRADER_EXERCISE("06.3 step 3 sequential addressing") { grade_step(ex, kSteps[2]); }
GRADER_EXERCISE("06.4 step 4 first add during load") { grade_step(ex, kSteps[3]); }
GRADER_EXERCISE("06.5 step 5 unrolled last warp") { grade_step(ex, kSteps[4]); }
GRADER_EXERCISE("06.6 step 6 complete unrolling") {
    ex.threshold_overlaps_previous("complete unrolling gains too little over step 5 to be graded on speed alone, so "
                                   "the unrolled tree is checked in your compiled code; compare the two rows of the "
                                   "06.0 table (theory.md, \"Step 6: complete unrolling with a block-size template\")");
    grade_step(ex, kSteps[5]);
}
GRADER_EXERCISE("06.7 step 7 grid-stride with shuffles") { grade_step(ex, kSteps[6]); }
