// SPDX-License-Identifier: MIT
// Lesson 04 grader: 2D convolution (cross-correlation, zero padding). Each graded exercise
// sets filters of every odd width 1 … 15 through its set_filter function and checks every
// pixel of awkward images against a float64 host reference (fewer, smaller ones under
// compute-sanitizer), then times the launcher on an image far larger than the L2 and
// grades it as a fraction of this GPU's roofline for the minimal work; every timed call
// gets a fresh image and filter and is verified, every pixel, against the grader's own
// result computed on the GPU (versions::reference); after a passing grade, one image past
// 2^31 bytes a buffer is checked against that result too. Exercise 04.0 times
// the notes' four kernels (versions.cuh), the student's launchers and, where installed,
// NPP, at k = 1, 3, 7 and 15, and prints which contrast pairs separate on this GPU.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <iterator>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "convolution.cuh"
#include "grader/exercise/grader.hpp"
#include "grader/exercise/host_chunks.hpp"
#include "shared_poison.cuh"
#include "versions.cuh"

#ifdef LESSON04_HAVE_NPP
#include <nppdefs.h>
#include <nppi_filtering_functions.h>
#endif

GRADER_LESSON("04", "Convolution", "lessons/04-convolution/theory.md");

namespace {

// ---------------------------------------------------------------- what is timed
// Each exercise is timed at one filter width and graded against the roofline of this GPU
// for its minimal work; the fractions, and how they were set, are in thresholds.txt.
struct Grading {
    int k;          // filter width of the timed calls (also a row of the 04.0 table)
    bool overlaps;  // true: the threshold cannot separate the pair on current GPUs (thresholds.txt)
};
constexpr Grading kConstantGrading{7, true};    // 04.1
constexpr Grading kTiledGrading{7, true};       // 04.2
constexpr Grading kCacheHaloGrading{7, true};   // 04.3
constexpr Grading kFastGrading{7, false};       // 04.4

// ---------------------------------------------------------------- checked shapes
struct Shape {
    int rows, cols;
};
// Empty, single pixels and lines, images smaller than the filter, two whose size is a
// multiple of 64 floats (they end flush with the unmapped page after the buffer: any read
// past the end faults), sizes just above and below powers of two, medium ones, and the
// contract's most rows and most columns, 65536: past the 65535 blocks gridDim.y and
// gridDim.z allow, whichever of rows and columns a launcher maps there.
const Shape kShapes[] = {{0, 9},     {9, 0},     {1, 1},     {1, 77},     {77, 1},    {2, 3},    {5, 5},
                         {14, 9},    {64, 17},   {33, 128},  {33, 65},    {65, 33},   {127, 129}, {300, 200},
                         {37, 66},   {1000, 777}, {65536, 3}, {3, 65536}};
// Filter widths checked on every shape; the others (each compiled separately by a
// template-dispatching launcher) on a few: among them one whose columns are a multiple of 4
// (where a launcher may take a float4 path).
const int kMainWidths[] = {1, 3, 7, 15};
const Shape kFewShapes[] = {{14, 9}, {33, 65}, {70, 132}, {131, 257}};
// compute-sanitizer runs kernels far slower (racecheck instruments every shared access).
constexpr long kSanitizerMaxPixels = 20000;
// Images, and filters, take turns over these distributions (grader/exercise/inputs.hpp).
const grader::Dist kDists[] = {grader::Dist::uniform, grader::Dist::zeros, grader::Dist::mixed};
// The widths of the teaching table (each graded width is added).
const int kTableWidths[] = {1, 3, 7, 15};

struct Image {
    int rows = 0, cols = 0;
    size_t pixels() const { return size_t(rows) * size_t(cols); }
};

// The timed image: input and output together at least the library's timing size (16 × the
// L2 and 256 MiB). 8188 = 4 × 2047 columns: no tile of 8 or more divides it, yet rows start
// on 16-byte boundaries, so vector loads stay possible; rows ≡ 3 (mod 8), so the tiles of
// the last row are partial too.
Image timing_image() {
    constexpr int kCols = 8188;
    int rows = int(grader::timing_elements(2 * sizeof(float)) / kCols);
    rows -= (rows % 8 + 5) % 8;
    return {std::max(rows, 3), kCols};
}

std::string image_text(const Image& im) { return std::to_string(im.rows) + " × " + std::to_string(im.cols); }

// Each timed call's image has a shape of its own, up to this many rows and columns fewer
// (columns in steps of 4, so that rows still start on 16-byte boundaries): the partial tiles
// at the bottom and the right change from call to call (grader/common/timed_sizes.hpp), and the
// work by under 1 %.
constexpr size_t kRowBand = 64, kColBand = 32, kColStep = 4;

// ---------------------------------------------------------------- the reference
struct Filter {
    int k = 1;
    std::vector<float> w;  // k × k, row-major
};

Filter draw_filter(int k, grader::Dist dist, grader::Rng& rng) { return {k, grader::draw<float>(dist, size_t(k) * k, rng)}; }

// The filter's distribution in a message ("" for uniform weights, the usual case).
std::string filter_text(grader::Dist d) {
    if (d == grader::Dist::zeros) return ", weights with exact zeros";
    if (d == grader::Dist::mixed) return ", weights of mixed magnitudes";
    return "";
}

// How far a correct FP32 result may be from the exact one (theory.md, "How close is
// correct"): a sum of n = k² products, in any order, with or without fused multiply-adds,
// errs by at most γ_n Σ|w x|, γ_n = n u / (1 − n u), u = 2^-24; two roundings of slack.
double allowed_error(int k, double magnitude) { return grader::fp32_gamma(double(k) * k + 2) * magnitude; }

struct Pixel {
    int y, x;
};

// out(y, x) in float64, with its own bound; `index` says where the result holds it.
grader::Expected reference_pixel(const std::vector<float>& img, const Image& im, const Filter& f, Pixel p, size_t index) {
    const int r = (f.k - 1) / 2;
    // Only the taps that fall inside the image: the padding adds exact zeros.
    const int i0 = std::max(0, r - p.y), i1 = std::min(f.k, im.rows - p.y + r);
    const int j0 = std::max(0, r - p.x), j1 = std::min(f.k, im.cols - p.x + r);
    double sum = 0, magnitude = 0;
    for (int i = i0; i < i1; ++i) {
        const size_t row = size_t(p.y - r + i) * im.cols;
        for (int j = j0; j < j1; ++j) {
            const double t = double(f.w[size_t(i) * f.k + j]) * double(img[row + size_t(p.x - r + j)]);
            sum += t;
            magnitude += std::fabs(t);
        }
    }
    return {index, sum, allowed_error(f.k, magnitude)};
}

// Every pixel, indexed as in the image; rows shared among a few threads (host_chunks.hpp),
// each pixel computed as on one: the 1000 × 777 and 65536-line shapes at k = 15 made most of
// an exercise's 0.5–0.7 s of checks on one core (#19).
std::vector<grader::Expected> reference_image(const std::vector<float>& img, const Image& im, const Filter& f) {
    std::vector<grader::Expected> e(im.pixels());
    const size_t rows_per_part = std::max<size_t>(1, (size_t(1) << 16) / std::max(1, im.cols));
    grader::for_each_part(size_t(im.rows), rows_per_part, [&](size_t y0, size_t y1, size_t) {
        for (int y = int(y0); y < int(y1); ++y)
            for (int x = 0; x < im.cols; ++x) {
                const size_t i = size_t(y) * im.cols + x;
                e[i] = reference_pixel(img, im, f, {y, x}, i);
            }
    });
    return e;
}

// Listed pixels, indexed by their place in the list.
std::vector<grader::Expected> reference_at(const std::vector<float>& img, const Image& im, const Filter& f,
                                           const std::vector<Pixel>& px) {
    std::vector<grader::Expected> e;
    e.reserve(px.size());
    for (size_t n = 0; n < px.size(); ++n) e.push_back(reference_pixel(img, im, f, px[n], n));
    return e;
}

// Rows and columns that partial tiles and edge handling touch: the first r + 1, the last
// `band`, and `random` more anywhere (clamped to the image).
std::vector<int> edge_lines(int n, int r, int band, int random, grader::Rng& rng) {
    std::set<int> s;
    for (int i = 0; i <= r && i < n; ++i) s.insert(i);
    for (int i = std::max(0, n - band); i < n; ++i) s.insert(i);
    for (int i = 0; i < random && n > 0; ++i) s.insert(int(rng.integer(0, n - 1)));
    return {s.begin(), s.end()};
}

// The teaching table's check: a grid of edge and random rows × edge and random columns.
std::vector<Pixel> light_sample(const Image& im, int k, grader::Rng& rng) {
    const int r = (k - 1) / 2;
    std::vector<Pixel> px;
    const std::vector<int> cols = edge_lines(im.cols, r, r + 1, 128, rng);
    for (int y : edge_lines(im.rows, r, r + 1, 12, rng))
        for (int x : cols) px.push_back({y, x});
    return px;
}

// The values of `out` at the listed pixels, downloading only the rows they lie in.
std::vector<float> fetch(const grader::DeviceBuffer<float>& out, const Image& im, const std::vector<Pixel>& px) {
    std::map<int, std::vector<float>> rows;
    for (const Pixel& p : px) rows.emplace(p.y, std::vector<float>());
    for (auto& [y, row] : rows) {
        row.resize(size_t(im.cols));
        out.memory().download(row.data(), row.size() * sizeof(float), size_t(y) * im.cols * sizeof(float));
    }
    std::vector<float> got;
    got.reserve(px.size());
    for (const Pixel& p : px) got.push_back(rows[p.y][size_t(p.x)]);
    return got;
}

// FAIL (wrong) unless every listed pixel is within its bound; names pixels out(y, x).
void expect_pixels(grader::Exercise& ex, const std::vector<float>& got, const std::vector<grader::Expected>& expected,
                   const std::function<Pixel(size_t)>& pixel_of, const std::string& context) {
    ex.expect_entries(got, expected, context, [&](size_t i) {
        const Pixel p = pixel_of(i);
        return "out(" + std::to_string(p.y) + ", " + std::to_string(p.x) + ")";
    });
}

// Whether a table row's output matches the float64 reference on a light sample of pixels;
// `interior_only` keeps only pixels whose window lies inside the image (NPP pads differently).
// Also the one check of NPP's result before 04.4 times it.
bool table_row_right(grader::Exercise& ex, const Image& im, const std::vector<float>& host, grader::DeviceBuffer<float>& out,
                     const Filter& f, bool interior_only) {
    auto rng = ex.rng("table check k" + std::to_string(f.k));
    std::vector<Pixel> px = light_sample(im, f.k, rng);
    const int r = (f.k - 1) / 2;
    if (interior_only)
        px.erase(std::remove_if(px.begin(), px.end(),
                                [&](Pixel p) { return p.y < r || p.x < r || p.y >= im.rows - r || p.x >= im.cols - r; }),
                 px.end());
    return grader::compare_entries(fetch(out, im, px), reference_at(host, im, f, px)).ok();
}

// ---------------------------------------------------------------- NPP (timing only)
#ifdef LESSON04_HAVE_NPP
// NPP's border-aware filter on the same image: an extra, vendor figure. Not the same
// function as the contract: NPP computes a convolution (it reads the coefficients in
// reverse order, so they are passed reversed here and its interior pixels should match the
// contract's), and of its border modes it supports only replicate, not zero padding.
class NppFilter {
public:
    explicit NppFilter(const Filter& f) : k_(f.k), kernel_(reversed(f.w), "NPP filter") {
        int device = 0, value = 0;
        CUDA_CHECK(cudaGetDevice(&device));
        ctx_.hStream = 0;  // the legacy default stream, which the grader times
        ctx_.nCudaDeviceId = device;
        CUDA_CHECK(cudaDeviceGetAttribute(&ctx_.nMultiProcessorCount, cudaDevAttrMultiProcessorCount, device));
        CUDA_CHECK(cudaDeviceGetAttribute(&ctx_.nMaxThreadsPerMultiProcessor, cudaDevAttrMaxThreadsPerMultiProcessor, device));
        CUDA_CHECK(cudaDeviceGetAttribute(&ctx_.nMaxThreadsPerBlock, cudaDevAttrMaxThreadsPerBlock, device));
        CUDA_CHECK(cudaDeviceGetAttribute(&value, cudaDevAttrMaxSharedMemoryPerBlock, device));
        ctx_.nSharedMemPerBlock = size_t(value);
        CUDA_CHECK(cudaDeviceGetAttribute(&ctx_.nCudaDevAttrComputeCapabilityMajor, cudaDevAttrComputeCapabilityMajor, device));
        CUDA_CHECK(cudaDeviceGetAttribute(&ctx_.nCudaDevAttrComputeCapabilityMinor, cudaDevAttrComputeCapabilityMinor, device));
        ctx_.nStreamFlags = 0;  // the default stream's
    }
    // NPP_SUCCESS (0), a warning (> 0) or an error (< 0).
    NppStatus operator()(const float* in, float* out, const Image& im) const {
        const int step = im.cols * int(sizeof(float));
        const NppiSize size{im.cols, im.rows};
        const int r = (k_ - 1) / 2;
        return nppiFilterBorder_32f_C1R_Ctx(in, step, size, NppiPoint{0, 0}, out, step, size, kernel_.data(), NppiSize{k_, k_},
                                            NppiPoint{r, r}, NPP_BORDER_REPLICATE, ctx_);
    }

private:
    static std::vector<float> reversed(std::vector<float> w) {
        std::reverse(w.begin(), w.end());
        return w;
    }
    int k_;
    grader::DeviceBuffer<float> kernel_;
    NppStreamContext ctx_{};
};
constexpr const char* kNppName = "NPP nppiFilterBorder_32f_C1R (replicate border)";
#else
constexpr const char* kNoNpp = "NPP (the CUDA toolkit's image library) is not installed with this toolkit: no NPP row.";
#endif

// ---------------------------------------------------------------- the exercises
using SetFilter = void (*)(const float*, int);
using Conv = void (*)(const float*, float*, int, int);

struct Step {
    const char* number;   // "04.1"
    const char* setter;   // its set_filter function
    const char* name;     // its launcher
    SetFilter set;
    Conv conv;
    Grading grading;
    const char* section;  // of theory.md
    const char* hint;
    Conv starter_like;          // the grader's copy of the kernel the starter ships
    const char* starter_row;    // that kernel's key in the 04.0 table
    const char* like_label;
    const char* otherwise;
    const char* key;            // the student's row in the 04.0 table
    const char* reference_row;  // the row of the version the exercise asks for (04.4: the student's)
};

const Step kSteps[] = {
    {"04.1", "set_filter_constant", "conv_constant", set_filter_constant, conv_constant, kConstantGrading, "Constant memory",
     "declare the filter __constant__ and copy it there with cudaMemcpyToSymbol in set_filter_constant",
     versions::global, "global", "the speed of the untiled kernel with its filter in global memory (the 04.1 starter)",
     "the weights are not what holds the kernel back: compare your row with the others in the 04.0 table",
     "student_04_1", "constant"},
    {"04.2", "set_filter_tiled", "conv_tiled", set_filter_tiled, conv_tiled, kTiledGrading, "Halo tiles in shared memory",
     "load each block's output tile plus a halo of (k - 1) / 2 pixels into shared memory (0 outside the image), "
     "__syncthreads(), and sum the k × k windows from there",
     versions::constant, "constant", "the speed of the untiled kernel (the 04.2 starter)",
     "the tile is there but something else costs time: check the block shape, the load loop (coalesced, every "
     "cell once) and bank conflicts in the inner loop",
     "student_04_2", "halo_tile"},
    {"04.3", "set_filter_cache_halo", "conv_cache_halo", set_filter_cache_halo, conv_cache_halo, kCacheHaloGrading,
     "Halo through the caches",
     "load each block's own tile into shared memory, one pixel per thread, and read halo pixels from global memory",
     versions::constant, "constant", "the speed of the untiled kernel (the 04.3 starter)",
     "the inner tile is there but something else costs time: check the block shape and that each thread tests "
     "only what it must in the k × k loop",
     "student_04_3", "cache_halo"},
    {"04.4", "set_filter_fast", "conv_fast", set_filter_fast, conv_fast, kFastGrading, "Register blocking",
     "make k a template parameter (dispatch in the launcher) so the loops unroll, let each thread compute a block "
     "of outputs in registers (several rows × 4 adjacent columns), so each value read from shared memory feeds many "
     "multiply-adds, and issue all of a thread's tile loads before storing any",
#ifdef LESSON04_ANSWER_KERNELS
     versions::halo_tile, "halo_tile", "the speed of the halo-tile kernel (the 04.4 starter)",
#else  // the student release: no reference's kernel to compare with (versions.cuh), the plain hint
     nullptr, "halo_tile", nullptr,
#endif
     "faster than the halo tile, but not enough: are the tile loads in flight together (load a thread's share "
     "into registers first, then store it to shared memory; float4 loads where cols % 4 == 0)? Does each thread "
     "compute a wide enough tile (rows × 4 columns, read from shared memory with float4 loads)? Then check "
     "registers and spills (-Xptxas -v) and that the weights are compile-time indices into __constant__ memory; "
     "compare your row with \"register strips, one tile load in flight\" in the 04.0 table",
     "student_04_4", "student_04_4"},
};

// Hands the filter to the student's set_filter (a copy: the original stays the grader's).
void set_student_filter(grader::Exercise& ex, const Step& s, const Filter& f) {
    std::vector<float> given = f.w;
    ex.run(std::string(s.setter) + "(k = " + std::to_string(f.k) + ")", [&] { s.set(given.data(), f.k); });
}

// Every filter width, every shape; each image against its float64 reference, pixel by pixel.
void check_step(grader::Exercise& ex, const Step& s) {
    if (grader::yardstick_run()) return;  // its checks do nothing there: spare the float64 references
    auto rng = ex.rng("inputs");
    size_t turn = 0;
    for (int k = 1; k <= kMaxFilterWidth; k += 2) {
        const grader::Dist filter_dist = kDists[(k / 2) % 3];
        const Filter f = draw_filter(k, filter_dist, rng);
        set_student_filter(ex, s, f);
        const bool main = std::find(std::begin(kMainWidths), std::end(kMainWidths), k) != std::end(kMainWidths);
        const Shape* first = main ? std::begin(kShapes) : std::begin(kFewShapes);
        const Shape* last = main ? std::end(kShapes) : std::end(kFewShapes);
        for (const Shape* sh = first; sh != last; ++sh) {
            const Image im{sh->rows, sh->cols};
            if (grader::sanitizer_mode() && long(im.pixels()) > kSanitizerMaxPixels) continue;
            const grader::Dist dist = kDists[turn++ % 3];
            std::vector<float> host = grader::draw<float>(dist, im.pixels(), rng);
            grader::DeviceBuffer<float> in(host, "image"), out(im.pixels(), "out");
            const std::string ctx = std::string(s.name) + ", " + image_text(im) + ", k = " + std::to_string(k) + ", " +
                                    grader::describe(dist) + filter_text(filter_dist);
            // Shared memory full of NaN first, so that an unwritten cell cannot pass for a zero.
            grader::Call call(ctx, [&] {
                fill_shared_memory_with_nan();
                s.conv(in.data(), out.data(), im.rows, im.cols);
            });
            call.input(in, "image").output(out, "out").verify([&] {
                if (im.pixels() == 0) return;  // nothing to compare; the guards still are
                expect_pixels(ex, out.download(), reference_image(host, im, f),
                              [&](size_t i) { return Pixel{int(i / im.cols), int(i % im.cols)}; }, ctx);
            });
            ex.check(call);
        }
    }
}

// The timed calls' filter: k × k weights uniform in [−1, 1), drawn from the call's key.
Filter timed_filter(int k, uint64_t key) {
    Filter f{k, std::vector<float>(size_t(k) * k)};
    for (size_t i = 0; i < f.w.size(); ++i) f.w[i] = float(-1 + 2 * grader::unit_interval(grader::hash64(key, i)));
    return f;
}

// How far a timed call's pixel may be from the grader's float result e, relative to the
// float magnitude m the grader sums with it (versions::reference). With M = Σ|w x| exact: a
// correct result is within γ_{k²+2}·M of the exact sum (allowed_error), e within γ_{k²}·M
// (k² fused multiply-adds in a row), and m, k² non-negative terms summed the same way, is at
// least (1 − γ_{k²})·M; so |got − e| ≤ (γ_{k²+2} + γ_{k²}) / (1 − γ_{k²}) · m.
double timed_relative_bound(int k) {
    const double g = grader::fp32_gamma(double(k) * k);
    return (grader::fp32_gamma(double(k) * k + 2) + g) / (1 - g);
}
// That bound as the tolerance of every comparison with versions::reference on the device.
grader::Tolerance device_tolerance(int k) { return {0, timed_relative_bound(k)}; }

// Element i of a result with `cols` columns, as a message names it.
std::string pixel_name(size_t i, int cols) {
    return "out(" + std::to_string(i / size_t(cols)) + ", " + std::to_string(i % size_t(cols)) + ")";
}

void grade_speed(grader::Exercise& ex, const Step& s) {
    const Image nominal = timing_image();
    Image im = nominal;  // the image of the call in progress
    const int k = s.grading.k;
    const size_t n = nominal.pixels();
    grader::DeviceBuffer<float> in(n, "image"), out(n, "out");
    grader::DeviceBuffer<float> expected(n, "the grader's result"), magnitude(n, "the grader's magnitudes");
    // Every timed call gets a fresh image and a fresh filter (call.hpp), the filter handed to
    // the student's set_filter before the call, outside the timed region, as the contract
    // says; the grader's versions get it too (the reference and the slow diagnosis).
    const auto draw = [&](uint64_t key) {
        grader::fill_on_device(in.data(), im.pixels(), key, grader::Dist::uniform);
        const Filter f = timed_filter(k, grader::rekey(key, 1));
        set_student_filter(ex, s, f);
        versions::set_filter(f.w.data(), k);
        return f;
    };
    [[maybe_unused]] const Filter first = draw(grader::fresh_key());  // what the baselines are timed on
    // Minimal work: each input pixel read once, each output pixel written once, one
    // multiply and one add per tap.
    const grader::Work work{8.0 * double(n), 2.0 * k * k * double(n)};
    grader::Call call(std::string(s.name) + ", timed image (a shape drawn for every timed call) of up to " + image_text(nominal) +
                          ", k = " + std::to_string(k),
                      [&] { s.conv(in.data(), out.data(), im.rows, im.cols); });
    call.input(in, "image").output(out, "out");
    call.timed_size([&](grader::SizeDraw& d) {
        im.rows = int(d.pick(size_t(nominal.rows), std::min(kRowBand, size_t(nominal.rows) - 1)));
        im.cols = int(d.pick(size_t(nominal.cols), kColBand, kColStep));
        in.use(im.pixels());
        out.use(im.pixels());
        return grader::RunSize{double(im.pixels()) / double(n), image_text(im)};
    });
    call.timed_inputs([&](uint64_t key) { draw(key); });
    call.timed_verify([&] {
        versions::reference(in.data(), expected.data(), magnitude.data(), im.rows, im.cols);
        ex.expect_on_device(out.data(), expected.data(), im.pixels(), device_tolerance(k), call.context(), magnitude.data(),
                            [&](size_t i) { return pixel_name(i, im.cols); });
    });
#ifdef LESSON04_HAVE_NPP
    if (std::string(s.number) == "04.4" && !grader::sanitizer_mode()) {
        const NppFilter npp(first);
        grader::DeviceBuffer<float> npp_out(n, "NPP output");
        const NppStatus status = npp(in.data(), npp_out.data(), im);
        CUDA_CHECK(cudaDeviceSynchronize());
        if (status < 0) {
            std::printf("      %s failed with NppStatus %d: no vendor figure\n", kNppName, int(status));
        } else {
            // NPP replicates the border where the contract pads with zeros, so it cannot pass the
            // call's verification: its result on the first image is checked once instead, before
            // it is timed, on a sample of the pixels whose window lies inside the image, against
            // the float64 reference (as its row of the 04.0 table is). A difference is the
            // grader's bug (say, the filter handed to NPP): stop, do not time it.
            // Where NPP is timed (Exercise::times_baselines): the exercise's process takes its figure.
            if (ex.times_baselines() && !table_row_right(ex, im, in.download(), npp_out, first, /*interior_only=*/true))
                throw std::runtime_error(std::string(kNppName) +
                                         " disagrees with the float64 reference on interior pixels of the timed image: "
                                         "a bug of the grader, not of the submission");
            ex.baseline(kNppName, work, [&] { npp(in.data(), npp_out.data(), im); });
        }
    }
#endif
    if (s.starter_like)
        ex.diagnose_slow({s.like_label, [&] { s.starter_like(in.data(), out.data(), im.rows, im.cols); }, s.hint, s.otherwise});
    if (s.grading.overlaps)
        ex.threshold_overlaps_previous("on the GPUs the course was tested on, this version and the one it starts from "
                                       "are too close to be told apart by speed, so the technique itself is checked in your compiled "
                                       "code; compare their speeds in the 04.0 table");
    ex.grade(grader::roofline(work.bytes, work.flops), call);
}

// Past 2^31 bytes the image and the output alike (grader::kInt32Bytes), where a byte offset
// held in an int turns negative and no timed size reaches: checked once per exercise, after
// a passing speed grade (a failing one has ended the exercise), made and verified on the
// device, where the GPU has the memory (grader::largest_check_fits). A square of odd sides,
// a multiple of no tile or vector width, within the contract's 65536 a side and 2^31 pixels:
// 536 987 929 pixels, the last 117 017 (just over five rows) past 2^31 bytes. At the graded
// width, so that a launcher dispatching on k runs the kernel its speed was graded with.
constexpr int kPastInt32Side = 23173;
static_assert(size_t(kPastInt32Side) * kPastInt32Side * sizeof(float) > grader::kInt32Bytes);
static_assert(kPastInt32Side <= 65536 && size_t(kPastInt32Side) * kPastInt32Side < grader::kInt32Bytes);

void check_past_int32(grader::Exercise& ex, const Step& s) {
    const Image im{kPastInt32Side, kPastInt32Side};
    const size_t n = im.pixels();
    const int k = s.grading.k;
    const std::string size = image_text(im) + ", 2 GiB a buffer, k = " + std::to_string(k);
    // The image, out, and the grader's result and magnitudes.
    if (!grader::largest_check_fits(4 * n * sizeof(float), std::string(s.name) + " at " + size)) return;
    const std::string ctx = std::string(s.name) + ", " + size + " (" + grader::past_int32_cause() + ")";
    auto rng = ex.rng("past 2^31 bytes");
    grader::DeviceBuffer<float> in(n, "image"), out(n, "out");
    grader::DeviceBuffer<float> expected(n, "the grader's result"), magnitude(n, "the grader's magnitudes");
    grader::fill_on_device(in.data(), n, rng.next(), grader::Dist::uniform);
    const Filter f = draw_filter(k, grader::Dist::uniform, rng);
    set_student_filter(ex, s, f);
    versions::set_filter(f.w.data(), k);
    grader::Call call(ctx, [&] {
        fill_shared_memory_with_nan();
        s.conv(in.data(), out.data(), im.rows, im.cols);
    });
    call.input(in, "image").output(out, "out").verify([&] {
        versions::reference(in.data(), expected.data(), magnitude.data(), im.rows, im.cols);
        ex.expect_on_device(out.data(), expected.data(), n, device_tolerance(k), ctx, magnitude.data(),
                            [&](size_t i) { return pixel_name(i, im.cols); });
    });
    ex.check(call);
}

void grade_step(grader::Exercise& ex, const Step& s) {
    ex.theory(s.section);
    ex.hint(s.hint);
    check_step(ex, s);
    grade_speed(ex, s);  // returns only after a passing grade, its buffers freed
    check_past_int32(ex, s);
}

}  // namespace

GRADER_EXERCISE("04.0 convolution on this GPU") {
    ex.teaching_only();  // INFO, not graded; skipped under compute-sanitizer
    ex.theory("The teaching table");
    const Image im = timing_image();
    auto rng = ex.rng("table");
    const std::vector<float> host = grader::draw<float>(grader::Dist::uniform, im.pixels(), rng);
    grader::DeviceBuffer<float> in(host, "image"), out(im.pixels(), "out");
    const float* I = in.data();
    float* O = out.data();
    const int rows = im.rows, cols = im.cols;
    std::set<int> widths(std::begin(kTableWidths), std::end(kTableWidths));
    for (const Step& s : kSteps) widths.insert(s.grading.k);
    // % of the roofline per row key and width, for the contrast pairs below.
    std::map<std::pair<std::string, int>, double> pct;
    const double copy = grader::ceilings().get(grader::ceiling::copy_gbs);
    const double fma = grader::ceilings().get(grader::ceiling::fma_gflops);
    grader::TeachingTable::Options o;
    o.unit = "GFLOP/s";
    o.show_ms = o.show_gbs = true;
    o.percent_of = {"roofline"};
    o.timing = {1, 5, true};  // 10 versions × 4 widths: few runs each
    o.before_check = [&] { out.poison(); };
    grader::TeachingTable table(ex, o);
    for (int k : widths) {
        const Filter f = draw_filter(k, grader::Dist::uniform, rng);
        versions::set_filter(f.w.data(), k);
        for (const Step& s : kSteps) set_student_filter(ex, s, f);
        const double intensity = k * k / 4.0;  // 2k² flops per 8 bytes
        const double roof = std::min(copy * intensity, fma);
        char text[200];
        std::snprintf(text, sizeof text, "k = %d: %.2f flop/byte, %s side of the ridge, roofline %.0f GFLOP/s", k, intensity,
                      copy * intensity < fma ? "memory" : "compute", roof);
        table.heading(text);
        table.compare_with({roof});
        const grader::Work work{8.0 * double(im.pixels()), 2.0 * k * k * double(im.pixels())};
        // Times one version; returns its % of the roofline (0 when wrong).
        auto row = [&](const std::string& label, const std::string& key, const std::function<void()>& launch, bool student,
                       bool interior_only = false) {
            return 100 / roof * table.row("  " + label, key + "_k" + std::to_string(k) + "_gflops", work,
                                          [&](int) { launch(); }, student, {},
                                          [&] { return table_row_right(ex, im, host, out, f, interior_only); });
        };
        pct[{"global", k}] = row("filter in global memory (04.1 starter)", "global",
                                 [&] { versions::global(I, O, rows, cols); }, false);
        pct[{"constant", k}] = row("filter in __constant__ (04.1 reference; 04.2, 04.3 starter)", "constant",
                                   [&] { versions::constant(I, O, rows, cols); }, false);
#ifdef LESSON04_ANSWER_KERNELS
        pct[{"halo_tile", k}] = row("halo tile in shared memory (04.2 reference; 04.4 starter)", "halo_tile",
                                    [&] { versions::halo_tile(I, O, rows, cols); }, false);
        pct[{"cache_halo", k}] = row("inner tile, halo through L1 (04.3 reference)", "cache_halo",
                                     [&] { versions::cache_halo(I, O, rows, cols); }, false);
        row("register strips, one tile load in flight (grader's)", "strips_one_load",
            [&] { versions::strips_one_load(I, O, rows, cols); }, false);
#endif
        for (const Step& s : kSteps)
            pct[{s.key, k}] = row("your " + std::string(s.name) + " (" + s.number + ")", s.key,
                                  [&] { s.conv(I, O, rows, cols); }, true);
#ifdef LESSON04_HAVE_NPP
        const NppFilter npp(f);
        const NppStatus status = npp(I, O, im);
        CUDA_CHECK(cudaDeviceSynchronize());
        if (status < 0) std::printf("      k = %d: %s failed with NppStatus %d: no NPP row\n", k, kNppName, int(status));
        else row(kNppName, "npp", [&] { npp(I, O, im); }, false, true);
#endif
    }
    const double ridge = fma / copy;
    table.print("2D convolution of a " + image_text(im) + " image on this GPU (median of up to 5 runs, L2 flushed; GB/s and "
                "GFLOP/s of the minimal work: 8 bytes and 2k² flops per pixel):");
#ifndef LESSON04_HAVE_NPP
    std::printf("      %s\n", kNoNpp);
#else
    std::printf("      NPP computes a convolution with replicate borders: its row is timing only (the grader passes the\n"
                "      filter reversed; \"wrong\" there means its interior pixels did not match the contract's).\n");
#endif
    std::printf("      Ridge point: FMA peak %.0f GFLOP/s / copy %.0f GB/s = %.1f flop/byte. A k × k filter does k²/4 flop\n"
                "      per byte of its minimal traffic, so on this GPU widths below k = %.1f are memory-bound and wider\n"
                "      ones compute-bound (theory.md, \"Operations per byte and the roofline\").\n",
                fma, copy, ridge, 2 * std::sqrt(ridge));
    std::printf("      Contrast pairs at the graded width, %% of the roofline: the version each exercise starts from ->\n"
                "      the version it asks for (04.4: yours), and your version:\n");
#ifndef LESSON04_ANSWER_KERNELS
    std::printf("        (not in the student release, which holds no answer: the references' rows and the pairs that need them)\n");
#endif
    for (const Step& s : kSteps) {
        const int k = s.grading.k;
        if (!pct.count({s.starter_row, k}) || !pct.count({s.reference_row, k})) continue;  // a row left out
        const double from = pct[{s.starter_row, k}], to = pct[{s.reference_row, k}];
        std::printf("        %s %-16s k = %-2d %5.1f %% -> %5.1f %% (x %.2f); yours %5.1f %%\n", s.number, s.name, k, from, to,
                    from > 0 ? to / from : 0.0, pct[{s.key, k}]);
    }
}

GRADER_EXERCISE("04.1 filter in constant memory") { grade_step(ex, kSteps[0]); }
GRADER_EXERCISE("04.2 halo tiles in shared memory") { grade_step(ex, kSteps[1]); }
GRADER_EXERCISE("04.3 halo through the caches") { grade_step(ex, kSteps[2]); }
GRADER_EXERCISE("04.4 register blocking") { grade_step(ex, kSteps[3]); }
