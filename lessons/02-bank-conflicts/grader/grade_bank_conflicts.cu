// SPDX-License-Identifier: MIT
// Lesson 02 grader: shared-memory bank conflicts. Each graded exercise checks the contract
// in bank_conflicts.cuh on awkward shapes and at the ends of its range (exact results),
// then its bandwidth against the copy ceiling measured on this GPU in this run, every
// timed call on fresh inputs and verified in full on the GPU. The teaching exercise 02.0
// prints two tables: bank conflicts isolated in shared memory, then every transpose stage
// (the grader's copies of the notes' kernels and the student's) next to the copy ceiling.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "bank_conflicts.cuh"
#include "grader/exercise/cublas.hpp"
#include "grader/exercise/grader.hpp"

GRADER_LESSON("02", "Shared-memory bank conflicts", "lessons/02-bank-conflicts/theory.md");

namespace {

// Each graded exercise's fraction of the copy ceiling, and why it sits where it does:
// thresholds.txt.

// Shapes for the exact checks: empty matrices, single rows and columns, sizes around 32
// and 64, exact multiples of the tiles, and neither square nor multiples of anything.
struct Shape {
    int rows, cols;
};
// 64 × 96 ends exactly on a page boundary (a read one past the end faults) with a partial
// last column of 64-wide tiles.
const Shape kShapes[] = {{0, 5},   {5, 0},   {1, 1},   {1, 37},    {37, 1},      {31, 33},   {33, 65},
                         {64, 128}, {64, 96}, {65, 63}, {500, 300}, {1023, 1025}, {2049, 777}};
// The top of the contract's range of rows and of cols (kTransposeMaxSide), and the first
// sides past 65535, the most blocks gridDim.y (and z) allows: a launcher that gives each
// row, or each column, a block of its own there fails on 65537, one with blocks of fewer
// than 8 rows (or columns) on 524,280. Not under compute-sanitizer: these shapes test grid
// limits, which a sanitizer adds nothing to, and millions of elements would slow it down.
const Shape kRangeEnds[] = {{65537, 3}, {3, 65537}, {kTransposeMaxSide, 3}, {3, kTransposeMaxSide}};

// The timing matrix: about `elements` elements, `cols` wide. Both sides are multiples of 8,
// so every row starts on a 32-byte sector, and neither is a multiple of 32 (or 64), so the
// last row and column of tiles are partial. With odd widths every 128-byte row segment
// would straddle five sectors instead of four, a tax the copy ceiling does not pay.
Shape timing_shape(size_t elements, int cols) {
    if (grader::sanitizer_mode()) return {200, 328};
    size_t full = std::max<size_t>(elements / size_t(cols) / 32 * 32, 64);
    return {int(full - 24), cols};  // ≡ 8 (mod 32)
}
constexpr int kFloatCols = 8200, kDoubleCols = 4104;  // both ≡ 8 (mod 32)

std::string shape_text(int rows, int cols) { return std::to_string(rows) + " × " + std::to_string(cols); }

// Host reference, blocked so that a matrix of hundreds of MB does not thrash the caches.
template <class T>
std::vector<T> transposed(const std::vector<T>& in, int rows, int cols) {
    std::vector<T> out(in.size());
    constexpr int kBlock = 64;
    for (int r0 = 0; r0 < rows; r0 += kBlock)
        for (int c0 = 0; c0 < cols; c0 += kBlock)
            for (int r = r0; r < std::min(rows, r0 + kBlock); ++r)
                for (int c = c0; c < std::min(cols, c0 + kBlock); ++c)
                    out[size_t(c) * rows + r] = in[size_t(r) * cols + c];
    return out;
}

// Wavefronts one warp request needs when lane L reads element (L / group) * stride of an
// array of `word_bytes`-byte elements: a bank delivers one 4-byte word per wavefront (any
// number of lanes may share that word), so the bank with the most distinct words decides.
int expected_wavefronts(int word_bytes, int stride, int group) {
    std::map<long, std::set<long>> words_in_bank;
    const int parts = word_bytes / 4;
    for (int lane = 0; lane < 32; ++lane) {
        long element = long(lane / group) * stride;
        for (int p = 0; p < parts; ++p) {
            long word = element * parts + p;
            words_in_bank[word % 32].insert(word);
        }
    }
    size_t worst = 0;
    for (const auto& bank : words_in_bank) worst = std::max(worst, bank.second.size());
    return int(worst);
}

// ---------------------------------------------------------------- teaching kernels
// 02.0: every warp reads s[(lane / group) * stride + j], j = 0..7, over and over. Adding j
// shifts all lanes by the same number of banks, so the eight reads of an iteration share
// the pattern under test while being independent of one another (more requests in flight).
constexpr int kSweepElements = 4096;  // a power of two: indices wrap with a mask
constexpr int kSweepUnroll = 8;
constexpr int kSweepIterations = 2048;

template <class Word>
__global__ void bank_sweep(int stride, int group, int iterations, Word* sink) {
    __shared__ Word s[kSweepElements];
    for (int i = threadIdx.x; i < kSweepElements; i += blockDim.x) s[i] = Word(i);
    __syncthreads();
    const volatile Word* vs = s;  // volatile: every read in the loop is really issued
    const int base = (int(threadIdx.x % 32) / group) * stride;
    Word acc = 0;
    for (int it = 0; it < iterations; ++it) {
#pragma unroll
        for (int j = 0; j < kSweepUnroll; ++j) acc ^= vs[(base + j) & (kSweepElements - 1)];
    }
    if (acc == Word(0x5eed)) sink[0] = acc;  // never true (iterations is even); keeps the reads alive
}

// 02.0: the stages of the notes, written once here so that the table compares them on the
// student's GPU. Blocks of 32 × 8 threads; each thread moves kTile / 8 × kTile / 32 elements.
// The naive kernel is the starter's of 02.1 (and, for doubles, of 02.3).
template <class T>
__global__ void naive_transpose(const T* in, T* out, int rows, int cols) {
    int c = blockIdx.x * 32 + threadIdx.x;
    for (int i = 0; i < 4; ++i) {
        int r = blockIdx.y * 32 + threadIdx.y + 8 * i;
        if (r < rows && c < cols) out[size_t(c) * rows + r] = in[size_t(r) * cols + c];
    }
}

// The yardsticks of 02.1–02.3's second lines and of the grades in the L2. Each block stages a
// 64 × 64 block of the matrix in an unpadded tile of shared memory and writes it back to the
// same block of the output. kBlockTranspose false: rows in, rows out (a copy), every
// shared-memory access conflict-free; true: the block written back transposed in place, its
// tile read along columns with the 32-way conflicts of an unpadded tiled transpose (02.1's
// technique). Both move the bytes of a tiled transpose, through DRAM (or the L2) and shared
// memory, with the same loads in flight per thread and coalesced global accesses; neither
// transposes the matrix (the blocks stay where they are), so neither answers an exercise, and
// both ship in the student release.
constexpr int kCopyTile = 64;
template <class T, bool kBlockTranspose>
__global__ void __launch_bounds__(256) tile_copy(const T* __restrict__ in, T* __restrict__ out, int rows, int cols) {
    __shared__ T tile[kCopyTile][kCopyTile];
    const int r0 = blockIdx.y * kCopyTile, c0 = blockIdx.x * kCopyTile;
    T v[kCopyTile / 8][kCopyTile / 32];  // every load is issued before the first store to the tile
#pragma unroll
    for (int i = 0; i < kCopyTile / 8; ++i)
#pragma unroll
        for (int j = 0; j < kCopyTile / 32; ++j) {
            const int r = r0 + threadIdx.y + 8 * i, c = c0 + threadIdx.x + 32 * j;
            v[i][j] = (r < rows && c < cols) ? in[size_t(r) * cols + c] : T(0);
        }
#pragma unroll
    for (int i = 0; i < kCopyTile / 8; ++i)
#pragma unroll
        for (int j = 0; j < kCopyTile / 32; ++j) tile[threadIdx.y + 8 * i][threadIdx.x + 32 * j] = v[i][j];
    __syncthreads();
#pragma unroll
    for (int i = 0; i < kCopyTile / 8; ++i)
#pragma unroll
        for (int j = 0; j < kCopyTile / 32; ++j) {
            const int dy = threadIdx.y + 8 * i, dx = threadIdx.x + 32 * j;
            if (r0 + dy < rows && c0 + dx < cols)
                out[size_t(r0 + dy) * cols + c0 + dx] = kBlockTranspose ? tile[dx][dy] : tile[dy][dx];
        }
}

template <class T>
void launch_naive(const T* in, T* out, int rows, int cols) {
    naive_transpose<<<dim3((cols + 31) / 32, (rows + 31) / 32), dim3(32, 8)>>>(in, out, rows, cols);
}
// A transpose moves values without arithmetic: every comparison of one is exact.
constexpr grader::Tolerance kExact{};
// `out`, the rows × cols matrix `in` transposed, checked on the GPU against the grader's naive
// transpose (the 02.0 table's first row), which it writes to `expected`.
template <class T>
void expect_transposed(grader::Exercise& ex, const T* in, const T* out, T* expected, int rows, int cols,
                       const std::string& context) {
    launch_naive<T>(in, expected, rows, cols);
    CUDA_CHECK(cudaGetLastError());
    ex.expect_on_device(out, expected, size_t(rows) * size_t(cols), kExact, context, static_cast<const T*>(nullptr),
                        [rows](size_t i) {  // out(c, r) = in(r, c)
                            return "out(" + std::to_string(i / size_t(rows)) + ", " + std::to_string(i % size_t(rows)) + ")";
                        });
}
template <class T, bool kBlockTranspose = false>
void launch_tile_copy(const T* in, T* out, int rows, int cols) {
    const dim3 grid((cols + kCopyTile - 1) / kCopyTile, (rows + kCopyTile - 1) / kCopyTile);
    tile_copy<T, kBlockTranspose><<<grid, dim3(32, 8)>>>(in, out, rows, cols);
}
// What tile_copy<T, true> writes: out(r, c) = in(r0 + c − c0, c0 + r − r0) for the 64 × 64
// block (r0, c0) that holds (r, c), 0 where that element lies outside the matrix.
template <class T>
std::vector<T> blocks_transposed(const std::vector<T>& in, int rows, int cols) {
    std::vector<T> out(in.size());
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) {
            const int r0 = r / kCopyTile * kCopyTile, c0 = c / kCopyTile * kCopyTile;
            const int sr = r0 + (c - c0), sc = c0 + (r - r0);
            out[size_t(r) * cols + c] = (sr < rows && sc < cols) ? in[size_t(sr) * cols + sc] : T(0);
        }
    return out;
}

// student-release: omit (tiled transposes: 02.1's and 02.2's answers)
// The tiles of the notes, which the 02.0 table compares on the student's GPU and the slow
// hints time. Each passes an exercise whose answer no starter ships (the unpadded tile 02.1,
// the padded ones 02.2 and 02.3), so the student release's grader is built without them:
// its table shows the student's own tiles in their place, its slow hints are the plain ones.
#define LESSON02_ANSWER_KERNELS 1
template <class T, int kTile, int kPad>
__global__ void __launch_bounds__(256)
    tile_transpose(const T* __restrict__ in, T* __restrict__ out, int rows, int cols) {
    __shared__ T tile[kTile][kTile + kPad];
    const int r0 = blockIdx.y * kTile, c0 = blockIdx.x * kTile;
    T v[kTile / 8][kTile / 32];
#pragma unroll
    for (int i = 0; i < kTile / 8; ++i)
#pragma unroll
        for (int j = 0; j < kTile / 32; ++j) {
            int dy = threadIdx.y + 8 * i, dx = threadIdx.x + 32 * j;
            v[i][j] = (r0 + dy < rows && c0 + dx < cols) ? in[size_t(r0 + dy) * cols + c0 + dx] : T(0);
        }
#pragma unroll
    for (int i = 0; i < kTile / 8; ++i)
#pragma unroll
        for (int j = 0; j < kTile / 32; ++j) tile[threadIdx.y + 8 * i][threadIdx.x + 32 * j] = v[i][j];
    __syncthreads();
#pragma unroll
    for (int i = 0; i < kTile / 8; ++i)
#pragma unroll
        for (int j = 0; j < kTile / 32; ++j) {
            int dy = threadIdx.y + 8 * i, dx = threadIdx.x + 32 * j;
            if (c0 + dy < cols && r0 + dx < rows) out[size_t(c0 + dy) * rows + r0 + dx] = tile[dx][dy];
        }
}
template <class T, int kTile, int kPad>
void launch_tile(const T* in, T* out, int rows, int cols) {
    dim3 grid((cols + kTile - 1) / kTile, (rows + kTile - 1) / kTile);
    tile_transpose<T, kTile, kPad><<<grid, dim3(32, 8)>>>(in, out, rows, cols);
}
// student-release: end

template <class Word>
void bank_sweep_launch(int stride, int group, Word* sink) {
    bank_sweep<Word><<<unsigned(grader::gpu().sms) * 4, 256>>>(stride, group, kSweepIterations, sink);
}

// First table of 02.0: one access pattern per row, timed in isolation, as a multiple of
// the time of the conflict-free s[lane].
void print_bank_sweep(grader::Exercise& ex) {
    struct Pattern {
        const char* label;
        int word_bytes, stride, group;
    };
    const Pattern patterns[] = {
        {"s[0]  (broadcast)", 4, 0, 1},
        {"s[lane / 2]  (multicast)", 4, 1, 2},
        {"s[lane]", 4, 1, 1},
        {"s[2 lane]", 4, 2, 1},
        {"s[3 lane]", 4, 3, 1},
        {"s[4 lane]", 4, 4, 1},
        {"s[8 lane]", 4, 8, 1},
        {"s[16 lane]", 4, 16, 1},
        {"s[32 lane]  (column of float [32][32])", 4, 32, 1},
        {"s[33 lane]  (column of float [32][33])", 4, 33, 1},
        {"d[lane]", 8, 1, 1},
        {"d[2 lane]", 8, 2, 1},
        {"d[16 lane]", 8, 16, 1},
        {"d[32 lane]  (column of double [32][32])", 8, 32, 1},
        {"d[33 lane]  (column of double [32][33])", 8, 33, 1},
    };
    grader::DeviceBuffer<unsigned long long> sink(1, "sink");
    auto launch = [&](const Pattern& p) {
        if (p.word_bytes == 4) bank_sweep_launch(p.stride, p.group, reinterpret_cast<unsigned*>(sink.data()));
        else bank_sweep_launch(p.stride, p.group, sink.data());
    };
    const grader::TimingOptions no_flush{2, 11, false};  // only shared memory is involved
    const double unit_ms = ex.time([&] { launch({"s[lane]", 4, 1, 1}); }, no_flush).median_ms;
    grader::TeachingTable::Options o;
    o.first_header = "warp reads (s: 4-byte words, d: 8-byte)";
    o.unit = "time ÷ time of s[lane]";
    o.extra_headers = {"wavefronts (predicted)"};
    o.relative_to_ms = unit_ms;
    o.timing = no_flush;
    grader::TeachingTable table(ex, o);
    for (const Pattern& p : patterns)
        table.row(p.label, (p.word_bytes == 4 ? "s_" : "d_") + std::to_string(p.stride) + "_" + std::to_string(p.group),
                  grader::Work{}, [&](int) { launch(p); }, false,
                  {std::to_string(expected_wavefronts(p.word_bytes, p.stride, p.group))});
    table.print("Shared-memory reads on this GPU (" + std::to_string(grader::gpu().sms * 4) + " blocks of 8 warps, " +
                std::to_string(kSweepUnroll * kSweepIterations) + " requests per warp):");
}

std::string wavefronts(int word_bytes, int row_length) {
    return std::to_string(expected_wavefronts(word_bytes, row_length, 1));
}

// Second table of 02.0: every transpose stage on the timing matrices, the grader's copies
// of the notes' kernels and the student's three launchers, next to the copy ceiling.
void print_transpose_stages(grader::Exercise& ex) {
    grader::TeachingTable::Options o;
    o.first_header = "stage";
    o.extra_headers = {"column read: wavefronts"};
    o.percent_of = {"copy"};
    grader::TeachingTable table(ex, o);
    table.compare_with({grader::ceilings().get(grader::ceiling::copy_gbs)});
    {
        const Shape t = timing_shape(grader::timing_elements(2 * sizeof(float)), kFloatCols);
        const size_t n = size_t(t.rows) * t.cols;
        grader::DeviceBuffer<float> in(n, "input"), out(n, "out");
        const float* i = in.data();
        float* o = out.data();
        const int r = t.rows, c = t.cols;
        const grader::Work w{2.0 * sizeof(float) * n, 0};
        table.heading("float matrix " + shape_text(r, c));
        table.row("tile copy 64 x 64, no transpose (the target)", "tile_copy_gbs", w,
                  [=](int) { launch_tile_copy(i, o, r, c); }, false, {wavefronts(4, 1)});
        table.row("64 x 64 blocks transposed in place (02.1's yardstick)", "tile_blocks_gbs", w,
                  [=](int) { launch_tile_copy<float, true>(i, o, r, c); }, false, {wavefronts(4, 64)});
        table.row("naive transpose (02.1 starter)", "naive_gbs", w, [=](int) { launch_naive(i, o, r, c); }, false, {"-"});
#ifdef LESSON02_ANSWER_KERNELS  // the grader's tiles: not in the student release
        table.row("tile 32 x 32, 4 per thread (the notes)", "tile32_gbs", w,
                  [=](int) { launch_tile<float, 32, 0>(i, o, r, c); }, false, {wavefronts(4, 32)});
        table.row("tile 32 x 33, 4 per thread", "tile32_padded_gbs", w, [=](int) { launch_tile<float, 32, 1>(i, o, r, c); },
                  false, {wavefronts(4, 33)});
        table.row("tile 64 x 64, 16 per thread (02.2 starter)", "tile64_gbs", w,
                  [=](int) { launch_tile<float, 64, 0>(i, o, r, c); }, false, {wavefronts(4, 64)});
        table.row("tile 64 x 65, 16 per thread", "tile64_padded_gbs", w, [=](int) { launch_tile<float, 64, 1>(i, o, r, c); },
                  false, {wavefronts(4, 65)});
#endif
        table.row("your transpose_tiled (02.1)", "student_02_1_gbs", w, [=](int) { transpose_tiled(i, o, r, c); }, true, {""});
        table.row("your transpose_padded (02.2)", "student_02_2_gbs", w, [=](int) { transpose_padded(i, o, r, c); }, true, {""});
    }
    {
        const Shape t = timing_shape(grader::timing_elements(2 * sizeof(double)), kDoubleCols);
        const size_t n = size_t(t.rows) * t.cols;
        grader::DeviceBuffer<double> in(n, "input"), out(n, "out");
        const double* i = in.data();
        double* o = out.data();
        const int r = t.rows, c = t.cols;
        const grader::Work w{2.0 * sizeof(double) * n, 0};
        table.heading("double matrix " + shape_text(r, c));
        table.row("double: naive transpose (02.3 starter)", "double_naive_gbs", w, [=](int) { launch_naive(i, o, r, c); },
                  false, {"-"});
        table.row("double: tile copy 64 x 64, no transpose", "double_tile_copy_gbs", w,
                  [=](int) { launch_tile_copy(i, o, r, c); }, false, {wavefronts(8, 1)});
#ifdef LESSON02_ANSWER_KERNELS
        table.row("double: tile 32 x 32", "double_tile32_gbs", w, [=](int) { launch_tile<double, 32, 0>(i, o, r, c); },
                  false, {wavefronts(8, 32)});
        table.row("double: tile 32 x 33", "double_tile32_padded_gbs", w,
                  [=](int) { launch_tile<double, 32, 1>(i, o, r, c); }, false, {wavefronts(8, 33)});
#endif
        table.row("your transpose_double (02.3)", "student_02_3_gbs", w, [=](int) { transpose_double(i, o, r, c); }, true,
                  {""});
    }
    table.print("Transpose stages on this GPU, side by side with the copy ceiling (wavefronts: per warp-wide read of a "
                "tile column; conflict-free is 1 for floats, 2 for doubles):");
}

// cuBLAS geam transposes out of place: a row-major rows × cols matrix read column-major is
// its transpose, so C = op(A)ᵀ with op = T writes the row-major transpose.
template <class T>
void cublas_transpose(const grader::Cublas& blas, const T* in, T* out, int rows, int cols) {
    const T one = 1, zero = 0;
    if constexpr (sizeof(T) == 4)
        grader::Cublas::check(cublasSgeam(blas.get(), CUBLAS_OP_T, CUBLAS_OP_N, rows, cols, &one, in, cols, &zero, out,
                                          rows, out, rows),
                              "cublasSgeam");
    else
        grader::Cublas::check(cublasDgeam(blas.get(), CUBLAS_OP_T, CUBLAS_OP_N, rows, cols, &one, in, cols, &zero, out,
                                          rows, out, rows),
                              "cublasDgeam");
}

template <class T>
using Transpose = void (*)(const T*, T*, int, int);

// The grader's version of the stage a student starts from, timed only when the student's
// kernel is too slow, and the hints for "as slow as that" and "faster, still too slow";
// `launch` null where the student release has no such kernel (the exercise's plain hint).
template <class T>
struct SlowLike {
    const char* label;
    Transpose<T> launch;
    const char* if_like;
    const char* otherwise;
};

// The timed call of `transpose` on a rows × cols matrix: fresh values before every call, and
// every call checked against the grader's naive transpose (the 02.0 table's first row),
// which moves values without arithmetic: a transpose is exact, so is the comparison.
template <class T>
struct TimedTranspose {
    const Shape nominal;
    int rows, cols;  // of the call in progress: the nominal shape, or a timed call's (vary)
    size_t n;
    grader::DeviceBuffer<T> in, out, expected;
    grader::Call call;
    TimedTranspose(grader::Exercise& ex, const std::string& what, Transpose<T> transpose, Shape s)
        : nominal(s), rows(s.rows), cols(s.cols), n(size_t(s.rows) * s.cols), in(n, "in"), out(n, "out"),
          expected(n, "the grader's transpose"),
          call(what + " " + shape_text(s.rows, s.cols), [this, transpose] { transpose(in.data(), out.data(), rows, cols); }) {
        call.input(in, "in").output(out, "out");
        call.timed_inputs([this](uint64_t key) { grader::fill_on_device(in.data(), n, key, grader::Dist::uniform); });
        call.timed_verify(
            [this, &ex] { expect_transposed<T>(ex, in.data(), out.data(), expected.data(), rows, cols, call.context()); });
    }
    // Every element read once and written once, of the nominal shape (a timed call's time is
    // scaled to it: grader/common/timed_sizes.hpp).
    grader::Work work() const { return {2.0 * sizeof(T) * double(nominal.rows) * double(nominal.cols), 0}; }

    // Gives every timed call a shape of its own: each side up to `row_span` and `col_span`
    // below the nominal one, in steps of 8 (timing_shape: rows that start on a 32-byte sector),
    // so that the partial tiles at the bottom and the right change from call to call.
    void vary(int row_span, int col_span) {
        call.timed_size([this, row_span, col_span](grader::SizeDraw& d) {
            rows = int(d.pick(size_t(nominal.rows), size_t(std::min(row_span, nominal.rows - 8)), 8));
            cols = int(d.pick(size_t(nominal.cols), size_t(std::min(col_span, nominal.cols - 8)), 8));
            n = size_t(rows) * size_t(cols);
            in.use(n);
            out.use(n);
            return grader::RunSize{double(n) / (double(nominal.rows) * double(nominal.cols)), shape_text(rows, cols)};
        });
    }
};

// The timed matrices' bands (TimedTranspose::vary): 64 rows and 64 columns of floats, 32
// columns of doubles (their rows are half as long), about 1 % of the work together.
constexpr int kRowBand = 64, kFloatColBand = 64, kDoubleColBand = 32;

// A matrix the L2 holds: input and output together half of it (what is left keeps the
// timing's own buffers and the L2's partitions from pushing it out), about square.
template <class T>
Shape l2_shape() {
    const size_t elements = size_t(grader::gpu().l2_bytes) / (4 * sizeof(T));
    const int side = int(std::sqrt(double(elements)));
    return timing_shape(elements, std::max(side / 32 * 32, 32) + 8);  // cols ≡ 8 (mod 32), as timing_shape's rows
}

// A yardstick of tile_copy's, timed as a baseline on `m`'s matrix as it stands (the nominal
// shape). It does other work than the call's (no transpose of the matrix), which the call's
// own check cannot verify (Exercise::baseline, the unchecked overload), so it is checked once
// first, where it is timed: on a small matrix with partial blocks against the host, and the
// copy on `m` itself.
template <class T, bool kBlockTranspose>
grader::Baseline tile_baseline(grader::Exercise& ex, TimedTranspose<T>& m, const std::string& where,
                               const grader::TimingOptions& options = {}) {
    const std::string name = std::string(kBlockTranspose ? "the grader's 64 × 64 blocks transposed in place"
                                                         : "the grader's copy through a 64 × 64 tile") +
                             (sizeof(T) == 8 ? " of doubles" : "") + where;
    const std::string bug = name + " (a grader bug)";
    if (ex.times_baselines()) {  // where it is timed (the yardstick program); the exercise's process takes its figure
        auto rng = ex.rng("tile yardstick");
        const Shape s{130, 200};
        const auto host = grader::draw<T>(grader::Dist::uniform, size_t(s.rows) * s.cols, rng, -1e3, 1e3);
        grader::DeviceBuffer<T> in(host, "in"), out(host.size(), "out");
        launch_tile_copy<T, kBlockTranspose>(in.data(), out.data(), s.rows, s.cols);
        CUDA_CHECK(cudaGetLastError());
        ex.expect_close(out.download(), kBlockTranspose ? blocks_transposed(host, s.rows, s.cols) : host, kExact, bug);
    }
    if (!kBlockTranspose && ex.times_baselines()) {
        grader::fill_on_device(m.in.data(), m.n, ex.rng("tile copy").next(), grader::Dist::uniform);
        launch_tile_copy<T>(m.in.data(), m.out.data(), m.rows, m.cols);
        CUDA_CHECK(cudaGetLastError());
        ex.expect_on_device(m.out.data(), m.in.data(), m.n, kExact, bug);
    }
    return ex.baseline(name, m.work(), [&] { launch_tile_copy<T, kBlockTranspose>(m.in.data(), m.out.data(), m.rows, m.cols); },
                       false, options);
}

// The bank conflicts alone (02.2, 02.3): the same transpose on a matrix the L2 holds, timed
// without flushing it and with the launch's latency hidden (TimingOptions::l2_resident),
// against two yardsticks timed the same way on the same matrix: the grader's copy through a
// conflict-free tile, and its blocks transposed in place through an unpadded tile (the
// 32-way conflicts of the starter's column reads). From DRAM, a GPU whose SMs are fast next
// to their memory (a T4, an L4, an RTX 4090) caps an unpadded tile near a padded one's speed;
// from the L2, only the SMs' shared-memory traffic binds, and a column read with 32-way
// conflicts costs 32 of its cycles on every GPU. The lower of the two lines applies
// (thresholds.txt): a share of the conflict-free copy where the L2 feeds the SMs no faster
// than they use it (every whole GPU measured), a multiple of the conflicted tile where the
// SMs alone bind and a correct tile of another shape falls further behind the copy (16 of an
// H200's SMs under --sms); the unpadded tile meets neither.
// A grade of its own, declared in thresholds.txt as "NN.N name / in the L2".
template <class T>
void grade_in_l2(grader::Exercise& ex, const char* name, Transpose<T> transpose, Transpose<T> unpadded) {
    TimedTranspose<T> m(ex, std::string(name) + ", matrix held in the L2", transpose, l2_shape<T>());
    grader::TimingOptions held;
    held.l2_resident = true;
    const grader::Baseline copy = tile_baseline<T, false>(ex, m, ", in the L2", held);
    const grader::Baseline conflicted = tile_baseline<T, true>(ex, m, ", in the L2", held);
    grader::Performance copy_line = grader::versus(copy), conflicted_line = grader::versus(conflicted);
    copy_line.l2_resident = conflicted_line.l2_resident = true;
    const grader::Performance p = grader::lower_of(copy_line, conflicted_line);
    if (unpadded)
        ex.diagnose_slow({"the speed of the grader's unpadded tile, on the same matrix in the L2",
                          [&] { unpadded(m.in.data(), m.out.data(), m.rows, m.cols); },
                          "the column reads of your tile still conflict: pad the tile by one word per row, or swizzle the "
                          "column index, so that a column spans every bank (theory: \"Padding and swizzling\")",
                          "your tile is faster than an unpadded one but still well behind the grader's copy through a "
                          "tile on data the L2 holds, where only shared memory binds: count the wavefronts of its column "
                          "reads again (theory: \"What the conflicts cost on this GPU\")"});
    ex.grade(p, m.call, "in the L2");
}

// Past 2^31 bytes a buffer (grader::kInt32Bytes), where a byte offset held in an int turns
// negative and no timed size reaches: checked once per exercise, after a passing speed grade
// (a failing one has ended the exercise), made and verified on the device, where the GPU has
// the memory (grader::largest_check_fits). Squares of odd sides, a multiple of no tile or
// block width, well inside kTransposeMaxSide and gridDim.y's 65535 blocks of the naive
// reference: 536 987 929 floats (117 017 past 2^29), 269 320 921 doubles (885 465 past 2^28).
template <class T>
constexpr int kPastInt32Side = sizeof(T) == 4 ? 23173 : 16411;
static_assert(size_t(kPastInt32Side<float>) * kPastInt32Side<float> * sizeof(float) > grader::kInt32Bytes);
static_assert(size_t(kPastInt32Side<double>) * kPastInt32Side<double> * sizeof(double) > grader::kInt32Bytes);

template <class T>
void check_past_int32(grader::Exercise& ex, const char* name, Transpose<T> transpose) {
    const int side = kPastInt32Side<T>;
    const size_t n = size_t(side) * side;
    const std::string size = shape_text(side, side) + ", 2 GiB a matrix";
    // in, out and the grader's transpose
    if (!grader::largest_check_fits(3 * n * sizeof(T), std::string(name) + " at " + size)) return;
    const std::string ctx = std::string(name) + ", " + size + " (" + grader::past_int32_cause() + ")";
    grader::DeviceBuffer<T> in(n, "in"), out(n, "out"), expected(n, "the grader's transpose");
    grader::fill_on_device(in.data(), n, ex.rng("past 2^31 bytes").next(), grader::Dist::uniform);
    grader::Call call(ctx, [&] { transpose(in.data(), out.data(), side, side); });
    call.input(in, "in").output(out, "out").verify(
        [&] { expect_transposed<T>(ex, in.data(), out.data(), expected.data(), side, side, ctx); });
    ex.check(call);
}

// Checks one transpose launcher on every shape (exact results, three input distributions)
// and grades it on the timing matrix: against the lower of the copy ceiling and a share of
// the grader's copy through a tile on the same matrix (thresholds.txt); cuBLAS's transpose
// of the same matrix is the vendor figure. `unpadded_in_l2`: first a grade on a matrix the L2
// holds (grade_in_l2), where the conflicts show on every GPU, with the unpadded tile the
// slow hint compares with there (none in the student release).
template <class T>
void check_and_grade(grader::Exercise& ex, const char* name, Transpose<T> transpose, int timing_cols,
                     const SlowLike<T>& slow_like, bool in_l2, Transpose<T> unpadded_in_l2 = nullptr) {
    // 02.1 (no grade in the L2) is the tiling step, whose technique keeps the unpadded tile's
    // conflicts: its second line is measured against a yardstick with the same conflicts.
    const bool with_conflicts = !in_l2;
    auto rng = ex.rng("inputs");
    const grader::Dist dists[] = {grader::Dist::uniform, grader::Dist::zeros, grader::Dist::mixed};
    std::vector<Shape> shapes(std::begin(kShapes), std::end(kShapes));
    if (!grader::sanitizer_mode()) shapes.insert(shapes.end(), std::begin(kRangeEnds), std::end(kRangeEnds));
    if (grader::yardstick_run()) shapes.clear();  // its checks do nothing there: spare the inputs
    int k = 0;
    for (const Shape& s : shapes) {
        const size_t n = size_t(s.rows) * s.cols;
        const grader::Dist dist = dists[k++ % 3];
        auto host = grader::draw<T>(dist, n, rng, -1e3, 1e3);
        grader::DeviceBuffer<T> in(host, "in"), out(n, "out");
        const std::string ctx = std::string(name) + ", " + shape_text(s.rows, s.cols) + ", " + describe(dist);
        grader::Call call(ctx, [&] { transpose(in.data(), out.data(), s.rows, s.cols); });
        call.input(in, "in").output(out, "out").verify([&] {
            if (n == 0) return;  // an empty matrix: nothing to compare (its guards were checked)
            ex.expect_close(out.download(), transposed(host, s.rows, s.cols), kExact, ctx);
        });
        ex.check(call);
    }
    if (in_l2 && !grader::sanitizer_mode()) grade_in_l2(ex, name, transpose, unpadded_in_l2);
    {  // the timing matrix and cuBLAS's workspace are freed before the check past 2^31 bytes
        // Not on the matrix in the L2 above: that grade compares the bank conflicts of two tiles on
        // one matrix, and a tail bug of any size shows here.
        TimedTranspose<T> m(ex, std::string(name) + ", timing matrix (a shape drawn for every timed call) of up to",
                            transpose, timing_shape(grader::timing_elements(2 * sizeof(T)), timing_cols));
        m.vary(kRowBand, sizeof(T) == 4 ? kFloatColBand : kDoubleColBand);
        const grader::Work work = m.work();
        // The vendor figure runs on the same buffers, each timed run prepared and verified as the
        // student's are (Exercise::baseline).
        grader::Cublas blas;
        const char* vendor = sizeof(T) == 4 ? "cuBLAS geam (transpose)" : "cuBLAS geam (double transpose)";
        grader::Call vendor_call =
            m.call.with_launch(vendor, [&] { cublas_transpose(blas, m.in.data(), m.out.data(), m.rows, m.cols); });
        ex.baseline(vendor, work, vendor_call);
        // The second line of thresholds.txt: a tile yardstick timed on the same matrix, with the
        // conflicts of the step's technique (02.1: blocks transposed in place through an unpadded
        // tile) or without (02.2, 02.3: the copy through a tile). Where the SMs, not the DRAM,
        // bound a tiled transpose (a GPU with much DRAM bandwidth per SM, or a partition of one
        // under --sms), a fraction of the copy ceiling would ask more than the technique gives;
        // the lower of the two lines applies. A conflict-free yardstick does not follow an
        // unpadded tile there: the two are 0.44 apart on the whole H200 and 0.20 apart on 16 of
        // its SMs (2026-12-03).
        const grader::Baseline own = with_conflicts ? tile_baseline<T, true>(ex, m, "") : tile_baseline<T, false>(ex, m, "");
        if (slow_like.launch)
            ex.diagnose_slow({slow_like.label, [&] { slow_like.launch(m.in.data(), m.out.data(), m.rows, m.cols); },
                              slow_like.if_like, slow_like.otherwise});
        ex.grade(grader::lower_of(grader::memory_bound(work.bytes), grader::versus(own)), m.call);
    }
    check_past_int32<T>(ex, name, transpose);
}

}  // namespace

GRADER_EXERCISE("02.0 bank conflicts on this GPU") {
    ex.teaching_only();
    ex.theory("What the conflicts cost on this GPU");
    print_bank_sweep(ex);
    print_transpose_stages(ex);
}

GRADER_EXERCISE("02.1 tiled transpose") {
    ex.theory("The transpose through a tile");
    ex.hint("stage a tile in shared memory so that the global reads and the global writes are both coalesced");
    check_and_grade<float>(ex, "transpose_tiled", transpose_tiled, kFloatCols,
                           {"the speed of the naive transpose", launch_naive<float>,
                            "stage a tile in shared memory so that the global reads and the global writes are both coalesced",
                            "the tile helps; now look at the tile's shared-memory traffic and the bytes each thread "
                            "keeps in flight (theory: \"The transpose through a tile\")"},
                           false);
}

GRADER_EXERCISE("02.2 padded transpose") {
    ex.theory("Padding and swizzling");
    ex.hint("pad the tile by one column (or swizzle the column index) so that a column of the tile spans all 32 banks");
#ifdef LESSON02_ANSWER_KERNELS
    const Transpose<float> unpadded = launch_tile<float, 64, 0>;
#else
    const Transpose<float> unpadded = nullptr;  // the student release: the plain hint
#endif
    check_and_grade<float>(ex, "transpose_padded", transpose_padded, kFloatCols,
                           {"the speed of the unpadded 64 × 64 tile", unpadded,
                            "pad the tile by one column (or swizzle the column index) so that a column of the tile "
                            "spans all 32 banks",
                            "the column reads look conflict-free; keep several loads in flight per thread before the "
                            "first store to the tile (theory: \"What the conflicts cost on this GPU\")"},
                           true, unpadded);
}

GRADER_EXERCISE("02.3 double transpose") {
    ex.theory("8-byte words");
    ex.hint("transpose through a shared tile of doubles whose columns spread over all 16 bank pairs (pad or swizzle)");
    check_and_grade<double>(ex, "transpose_double", transpose_double, kDoubleCols,
                            {"the speed of the naive double transpose", launch_naive<double>,
                             "transpose through a shared tile of doubles whose columns spread over all 16 bank pairs "
                             "(pad or swizzle)",
                             "the tile helps; count the wavefronts of a column read of 8-byte words again (theory: "
                             "\"8-byte words\")"},
                            true);
}
