// SPDX-License-Identifier: MIT
// Lesson 03 grader: tiling, on the matrix product. Each graded exercise checks the contract
// in tiling.cuh against a float64 host reference (every element, on small and medium
// shapes and at the ends of the contract's ranges), then grades its speed as a fraction of
// cuBLAS SGEMM timed on the same product in the same run; every timed call gets fresh
// inputs and is verified in full, on the GPU, against cuBLAS on the same inputs, and so is
// one product past 2^31 bytes of C, after a passing grade. The teaching exercise 03.0
// prints every stage's GFLOP/s next to cuBLAS and the FP32 FMA peak.
#include <cublas_v2.h>
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <iterator>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "grader/exercise/cublas.hpp"
#include "grader/exercise/grader.hpp"
#include "grader/exercise/host_chunks.hpp"
#include "tiling.cuh"

GRADER_LESSON("03", "Tiling: matrix multiplication", "lessons/03-tiling/theory.md");

namespace {

// Each graded exercise's fraction of cuBLAS SGEMM, and why it sits where it does:
// thresholds.txt.

struct Dims {
    int M, N, K;
};

// Shapes checked element by element: empty ones (M or N 0: C is empty; K 0: C is all
// zeros, over several 128 × 128 tiles), degenerate ones, sizes around the tile sizes, exact
// multiples of 32 and 128, and skewed medium ones. Under compute-sanitizer only the first
// kSanitizerShapes run (racecheck instruments every shared-memory access); they still take
// a K loop of tiles up to 64 deep through three iterations or more (K = 131).
const Dims kShapes[] = {{0, 5, 7},      {5, 0, 7},       {130, 67, 0},    {1, 1, 1},       {1, 1, 77},
                        {3, 5, 7},      {1, 67, 33},     {67, 1, 33},     {33, 65, 17},    {65, 33, 129},
                        {128, 128, 128}, {127, 129, 131}, {300, 200, 513}, {509, 1031, 777}};
constexpr int kSanitizerShapes = 12;
// The tops of the contract's ranges (tiling.cuh), each with the other sides small: M and N
// at kSgemmMaxMN, where a launcher that gives gridDim.y (at most 65535 blocks) fewer than 8
// rows or columns of C per block fails, and K at kSgemmMaxK. Not under compute-sanitizer:
// they test grid limits and long K loops, which a sanitizer adds nothing to, and racecheck
// would follow every shared-memory access of 65536 tile steps along K.
const Dims kRangeEnds[] = {{kSgemmMaxMN, 3, 5}, {3, kSgemmMaxMN, 5}, {2, 3, kSgemmMaxK}};

// The timed product. Every side is 4 more than a multiple of 8: no tile of 8 or more
// divides it, yet rows start on 16-byte boundaries, so vector loads stay possible. Large
// enough to fill an H200 (1056 tiles of 128 × 128), small enough that the naive kernel
// takes well under a second per call (128 GFLOP at a few hundred GFLOP/s).
Dims timing_dims() { return grader::sanitizer_mode() ? Dims{257, 263, 129} : Dims{3996, 4100, 3900}; }
// Each timed call's product has sides of its own, up to this much below those, in steps of 4
// (rows still start on 16-byte boundaries): the partial tiles at the edges of C and the last
// step along K change from call to call (grader/common/timed_sizes.hpp). Less than a tile: the work
// grows with all three sides, and these keep its change under 1 %.
constexpr size_t kSideBand = 16, kDepthBand = 8, kBandStep = 4;

double flops(Dims d) { return 2.0 * d.M * d.N * d.K; }
// Minimal traffic: A and B read once, C written once.
double bytes(Dims d) { return 4.0 * (double(d.M) * d.K + double(d.K) * d.N + double(d.M) * d.N); }

std::string dims_text(Dims d) {
    return "M × N × K = " + std::to_string(d.M) + " × " + std::to_string(d.N) + " × " + std::to_string(d.K);
}

// How far a correct FP32 result may be from the exact one (theory: "How close is correct").
// Summing K products in any order, with or without fused multiply-adds, errs by at most
// γ_K Σ|a b|, γ_K = K u / (1 − K u), u = 2^-24; two more roundings of slack.
double allowed_error(int K, double magnitude) { return grader::fp32_gamma(K + 2.0) * magnitude; }

// One element of C as the float64 reference sees it.
using grader::Expected;

// C(i, j) = Σ_k A(i, k) B(k, j), or Σ_k A(i, k) B(j, k) when `bt` (B stored N × K).
Expected expected_entry(const std::vector<float>& A, const std::vector<float>& B, Dims d, bool bt, int i, int j) {
    double sum = 0, magnitude = 0;
    for (int k = 0; k < d.K; ++k) {
        double p = double(A[size_t(i) * d.K + k]) * double(bt ? B[size_t(j) * d.K + k] : B[size_t(k) * d.N + j]);
        sum += p;
        magnitude += std::fabs(p);
    }
    return {size_t(i) * d.N + j, sum, allowed_error(d.K, magnitude)};
}

// Every element, in an order that streams through B (for A·B) instead of striding down it;
// rows on several threads (the largest shape took about 1 s of every exercise on one core).
std::vector<Expected> full_reference(const std::vector<float>& A, const std::vector<float>& B, Dims d, bool bt) {
    std::vector<Expected> out(size_t(d.M) * d.N);
    grader::for_each_part(size_t(d.M), 8, [&](size_t first, size_t last, size_t) {
        std::vector<double> sum(d.N), magnitude(d.N);
        for (size_t i = first; i < last; ++i) {
            if (bt) {
                for (int j = 0; j < d.N; ++j) out[i * d.N + j] = expected_entry(A, B, d, true, int(i), j);
                continue;
            }
            std::fill(sum.begin(), sum.end(), 0.0);
            std::fill(magnitude.begin(), magnitude.end(), 0.0);
            for (int k = 0; k < d.K; ++k) {
                const double a = A[i * d.K + k];
                const float* b = &B[size_t(k) * d.N];
                for (int j = 0; j < d.N; ++j) {
                    sum[j] += a * b[j];
                    magnitude[j] += std::fabs(a * b[j]);
                }
            }
            for (int j = 0; j < d.N; ++j) out[i * d.N + j] = {i * d.N + j, sum[j], allowed_error(d.K, magnitude[j])};
        }
    });
    return out;
}

// Elements of cuBLAS's timed product checked against the host (time_cublas): the four
// corners, 32 of the last row and 32 of the last column (the edge tiles), and 188 anywhere.
std::vector<std::pair<int, int>> sample_entries(Dims d, grader::Rng& rng) {
    std::vector<std::pair<int, int>> s = {{0, 0}, {0, d.N - 1}, {d.M - 1, 0}, {d.M - 1, d.N - 1}};
    for (int n = 0; n < 32; ++n) s.push_back({d.M - 1, int(rng.integer(0, d.N - 1))});
    for (int n = 0; n < 32; ++n) s.push_back({int(rng.integer(0, d.M - 1)), d.N - 1});
    for (int n = 0; n < 188; ++n) s.push_back({int(rng.integer(0, d.M - 1)), int(rng.integer(0, d.N - 1))});
    return s;
}

// Element i of C, as messages name it: C(row, column).
std::string element_name(size_t i, Dims d) {
    return "C(" + std::to_string(i / size_t(d.N)) + ", " + std::to_string(i % size_t(d.N)) + ")";
}

// FAIL (wrong) unless every listed element of C is within its bound.
void expect_gemm(grader::Exercise& ex, const std::vector<float>& got, const std::vector<Expected>& expected, Dims d,
                 const std::string& context) {
    ex.expect_entries(got, expected, context, [&](size_t i) { return element_name(i, d); });
}

// How far C may be from cuBLAS's result on the same inputs, relative to cuBLAS's |A|·|B|
// (timed calls). Both the student's C and cuBLAS's are correct FP32 products, each within
// allowed_error(K, S) = γ_{K+2}·S of the exact product, S = Σ_k |A(i, k)| |B(k, j)| (the
// bound of expected_entry, which time_cublas also holds cuBLAS to), so they may differ by
// 2 γ_{K+2} S. The grader's S is itself a float product, |A|·|B| by cuBLAS: a sum of K
// non-negative terms, within γ_{K+2}·S of S, so S ≤ S_computed / (1 − γ_{K+2}). Hence
// 2γ/(1 − γ) times the computed magnitude. The comparison itself runs in double
// (device_compare.cu); its roundings, 2^-53 relative, are far inside the two roundings of
// slack that γ_{K+2} keeps over γ_K.
double timed_tolerance(int K) {
    const double gamma = allowed_error(K, 1.0);
    return 2 * gamma / (1 - gamma);
}

// |x| of every element of A and of B: cuBLAS's |A|·|B| is then the magnitude S of each
// element of C (timed_tolerance).
__global__ void absolute_values(const float* a, float* abs_a, size_t na, const float* b, float* abs_b, size_t nb) {
    for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < na + nb; i += size_t(gridDim.x) * blockDim.x) {
        if (i < na) abs_a[i] = fabsf(a[i]);
        else abs_b[i - na] = fabsf(b[i - na]);
    }
}

// ---------------------------------------------------------------- the starters' kernels
// The two naive kernels the starter ships, written once here: rows of the 03.0 table, and
// the comparison timed when a student's 03.1 or 03.4 is too slow.
constexpr int kWidth = 32, kHeight = 8;  // the starters' block

// copy of starter/03-tiling/1_coalesced.cu: sgemm_naive_kernel
__global__ void naive_uncoalesced(const float* A, const float* B, float* C, int M, int N, int K) {
    const int row = blockIdx.x * kWidth + threadIdx.x;
    const int col = blockIdx.y * kHeight + threadIdx.y;
    if (row >= M || col >= N) return;
    float acc = 0.f;
    for (int k = 0; k < K; ++k) acc += A[size_t(row) * K + k] * B[size_t(k) * N + col];
    C[size_t(row) * N + col] = acc;
}
// copy of starter/03-tiling/4_abt_tiled.cu: sgemm_abt_naive_kernel
__global__ void naive_abt(const float* A, const float* B, float* C, int M, int N, int K) {
    const int col = blockIdx.x * kWidth + threadIdx.x;
    const int row = blockIdx.y * kHeight + threadIdx.y;
    if (row >= M || col >= N) return;
    float acc = 0.f;
    for (int k = 0; k < K; ++k) acc += A[size_t(row) * K + k] * B[size_t(col) * K + k];
    C[size_t(row) * N + col] = acc;
}
void launch_naive(const float* A, const float* B, float* C, int M, int N, int K) {
    naive_uncoalesced<<<dim3((M + 31) / 32, (N + 7) / 8), dim3(32, 8)>>>(A, B, C, M, N, K);
}
void launch_naive_abt(const float* A, const float* B, float* C, int M, int N, int K) {
    naive_abt<<<dim3((N + 31) / 32, (M + 7) / 8), dim3(32, 8)>>>(A, B, C, M, N, K);
}

// cuBLAS SGEMM on row-major matrices. cuBLAS is column-major, and a row-major matrix read
// column-major is its transpose: for C = A·B it computes Cᵀ = Bᵀ·Aᵀ (B first), for
// C = A·Bᵀ it computes Cᵀ = B·Aᵀ.
//! [cublas_row_major]
void cublas_gemm(const grader::Cublas& blas, const float* A, const float* B, float* C, Dims d, bool bt) {
    const float one = 1.f, zero = 0.f;
    if (bt)
        grader::Cublas::check(cublasSgemm(blas.get(), CUBLAS_OP_T, CUBLAS_OP_N, d.N, d.M, d.K, &one, B, d.K, A, d.K, &zero, C, d.N),
                              "cublasSgemm");
    else
        grader::Cublas::check(cublasSgemm(blas.get(), CUBLAS_OP_N, CUBLAS_OP_N, d.N, d.M, d.K, &one, B, d.N, A, d.K, &zero, C, d.N),
                              "cublasSgemm");
}
//! [cublas_row_major]

// The grader's result on the device, that C is checked against in full: cuBLAS's C on the
// same inputs, and |A|·|B| (each element's magnitude, timed_tolerance) from |A| and |B|.
// Every timed call is verified with it, and the product past 2^31 bytes.
struct CublasReference {
    grader::DeviceBuffer<float> expected, magnitude, abs_a, abs_b;

    // Room for every product up to `d`.
    explicit CublasReference(Dims d)
        : expected(size_t(d.M) * d.N, "cuBLAS's C"), magnitude(size_t(d.M) * d.N, "|A|·|B|"),
          abs_a(size_t(d.M) * d.K, "|A|"), abs_b(size_t(d.K) * d.N, "|B|") {}

    // FAIL (wrong) unless C, the product `d` of A and B, is within timed_tolerance of cuBLAS's.
    void expect(grader::Exercise& ex, const grader::Cublas& blas, const float* a, const float* b, const float* c, Dims d,
                bool bt, const std::string& context) {
        const size_t na = size_t(d.M) * d.K, nb = size_t(d.K) * d.N;
        const unsigned grid = unsigned(std::min<size_t>((na + nb + 255) / 256, size_t(grader::gpu().sms) * 16));
        absolute_values<<<grid, 256>>>(a, abs_a.data(), na, b, abs_b.data(), nb);
        CUDA_CHECK(cudaGetLastError());
        cublas_gemm(blas, a, b, expected.data(), d, bt);
        cublas_gemm(blas, abs_a.data(), abs_b.data(), magnitude.data(), d, bt);
        const size_t nc = size_t(d.M) * d.N;
        ex.expect_on_device(c, expected.data(), nc, {0, timed_tolerance(d.K)}, context, magnitude.data(),
                            [&](size_t i) { return element_name(i, d); });
    }
};

// Times cuBLAS on the timed product (into `c`, the grader's) after checking a sample of its
// result against the host, so that a slip in the column-major call can pass neither for a
// fast ceiling nor for the result timed calls are verified against. The check runs where
// cuBLAS is timed: in the yardstick program, on the same product (Exercise::times_baselines).
grader::Baseline time_cublas(grader::Exercise& ex, const grader::Cublas& blas, const grader::DeviceBuffer<float>& a,
                             const grader::DeviceBuffer<float>& b, grader::DeviceBuffer<float>& c, Dims d, bool bt,
                             const char* name) {
    if (ex.times_baselines()) {
        cublas_gemm(blas, a.data(), b.data(), c.data(), d, bt);
        CUDA_CHECK(cudaDeviceSynchronize());
        auto rng = ex.rng("cublas check");
        const auto ha = a.download(), hb = b.download(), got = c.download();
        for (auto [i, j] : sample_entries(d, rng)) {
            Expected e = expected_entry(ha, hb, d, bt, i, j);
            if (!(std::fabs(double(got[e.index]) - e.value) <= e.bound))
                throw std::logic_error("grader self-check: cuBLAS disagrees with the host reference at C(" +
                                       std::to_string(i) + ", " + std::to_string(j) + ")");
        }
    }
    return ex.baseline(name, {bytes(d), flops(d)}, [&] { cublas_gemm(blas, a.data(), b.data(), c.data(), d, bt); });
}

using Launcher = void (*)(const float*, const float*, float*, int, int, int);

// Checks one launcher on every shape (three input distributions).
void check_shapes(grader::Exercise& ex, const char* name, Launcher gemm, bool bt) {
    auto rng = ex.rng("inputs");
    const grader::Dist dists[] = {grader::Dist::uniform, grader::Dist::zeros, grader::Dist::mixed};
    std::vector<Dims> shapes(std::begin(kShapes), grader::sanitizer_mode() ? kShapes + kSanitizerShapes : std::end(kShapes));
    if (!grader::sanitizer_mode()) shapes.insert(shapes.end(), std::begin(kRangeEnds), std::end(kRangeEnds));
    if (grader::yardstick_run()) shapes.clear();  // its checks do nothing there: spare the inputs
    for (size_t s = 0; s < shapes.size(); ++s) {
        const Dims d = shapes[s];
        const grader::Dist dist = dists[s % 3];
        auto ha = grader::draw<float>(dist, size_t(d.M) * d.K, rng), hb = grader::draw<float>(dist, size_t(d.K) * d.N, rng);
        grader::DeviceBuffer<float> a(ha, "A"), b(hb, "B"), c(size_t(d.M) * d.N, "C");
        const std::string ctx = std::string(name) + ", " + dims_text(d) + ", " + describe(dist);
        grader::Call call(ctx, [&] { gemm(a.data(), b.data(), c.data(), d.M, d.N, d.K); });
        call.input(a, "A").input(b, "B").output(c, "C").verify([&] {
            if (size_t(d.M) * d.N == 0) return;  // C is empty: nothing to compare (its guards were checked)
            expect_gemm(ex, c.download(), full_reference(ha, hb, d, bt), d, ctx);
        });
        ex.check(call);
    }
}

// Grades one launcher on the timed product, against cuBLAS on the same product.
// `slow_like`, when given, is the grader's copy of the starter's kernel, timed only when the
// student's is too slow.
void grade_speed(grader::Exercise& ex, const char* name, Launcher gemm, bool bt, const char* vendor, Launcher slow_like,
                 const char* if_like, const char* otherwise) {
    const Dims nominal = timing_dims();
    Dims t = nominal;  // the product of the call in progress
    const auto na = [&] { return size_t(t.M) * t.K; };
    const auto nb = [&] { return size_t(t.K) * t.N; };
    const auto nc = [&] { return size_t(t.M) * t.N; };
    grader::DeviceBuffer<float> a(na(), "A"), b(nb(), "B"), c(nc(), "C");
    CublasReference reference(nominal);
    const auto fill = [&](uint64_t key) {
        grader::fill_on_device(a.data(), na(), key, grader::Dist::uniform);
        grader::fill_on_device(b.data(), nb(), grader::rekey(key, 1), grader::Dist::uniform);
    };
    fill(grader::fresh_key());  // for the baseline and its check
    grader::Cublas blas;
    const grader::Baseline vendor_ms = time_cublas(ex, blas, a, b, reference.expected, nominal, bt, vendor);
    grader::Call call(std::string(name) + ", timed product (sides drawn for every timed call) of up to " + dims_text(nominal),
                      [&] { gemm(a.data(), b.data(), c.data(), t.M, t.N, t.K); });
    call.input(a, "A").input(b, "B").output(c, "C").timed_inputs(fill);
    call.timed_size([&](grader::SizeDraw& d) {
        t.M = int(d.pick(size_t(nominal.M), kSideBand, kBandStep));
        t.N = int(d.pick(size_t(nominal.N), kSideBand, kBandStep));
        t.K = int(d.pick(size_t(nominal.K), kDepthBand, kBandStep));
        a.use(na());
        b.use(nb());
        c.use(nc());
        return grader::RunSize{flops(t) / flops(nominal), dims_text(t)};
    });
    // Every timed call, in full: two cuBLAS products (C, and |A|·|B| for each element's bound)
    // and one pass over A and B, about twice cuBLAS's time per call.
    call.timed_verify([&] { reference.expect(ex, blas, a.data(), b.data(), c.data(), t, bt, call.context()); });
    if (slow_like)
        ex.diagnose_slow({"the speed of the starter's kernel", [&] { slow_like(a.data(), b.data(), c.data(), t.M, t.N, t.K); },
                          if_like, otherwise});
    ex.grade(grader::versus(vendor_ms), call);
}

// Past 2^31 bytes C (grader::kInt32Bytes), where a byte offset held in an int turns negative
// and no timed product reaches (C is 66 MB there): checked once per exercise, after a
// passing speed grade (a failing one has ended the exercise), made and verified on the
// device, against cuBLAS, where the GPU has the memory (grader::largest_check_fits). C is a
// square of odd sides, a multiple of no tile or vector width: 536 987 929 floats, the last
// 117 017 of them past 2^31 bytes. The work grows with K, so K is small, yet more than one
// tile of 32 deep with a partial last one; A and B stay at 3.4 MB each.
constexpr Dims kPastInt32{23173, 23173, 37};
static_assert(size_t(kPastInt32.M) * kPastInt32.N * sizeof(float) > grader::kInt32Bytes);

void check_past_int32(grader::Exercise& ex, const char* name, Launcher gemm, bool bt) {
    const Dims d = kPastInt32;
    const size_t na = size_t(d.M) * d.K, nb = size_t(d.K) * d.N, nc = size_t(d.M) * d.N;
    const std::string size = dims_text(d) + ", 2 GiB C";
    // A, B and C, and the reference's C, |A|·|B|, |A| and |B|.
    const size_t need = (2 * (na + nb) + 3 * nc) * sizeof(float);
    if (!grader::largest_check_fits(need, std::string(name) + " at " + size)) return;
    const std::string ctx = std::string(name) + ", " + size + " (" + grader::past_int32_cause() + ")";
    auto rng = ex.rng("past 2^31 bytes");
    grader::DeviceBuffer<float> a(na, "A"), b(nb, "B"), c(nc, "C");
    grader::fill_on_device(a.data(), na, rng.next(), grader::Dist::uniform);
    grader::fill_on_device(b.data(), nb, rng.next(), grader::Dist::uniform);
    CublasReference reference(d);
    grader::Cublas blas;
    grader::Call call(ctx, [&] { gemm(a.data(), b.data(), c.data(), d.M, d.N, d.K); });
    call.input(a, "A").input(b, "B").output(c, "C").verify([&] {
        reference.expect(ex, blas, a.data(), b.data(), c.data(), d, bt, ctx);
    });
    ex.check(call);
}

// Checks one launcher on every shape, grades it on the timed product (its buffers freed on
// return, before the largest check's are made), then checks it past 2^31 bytes.
void check_and_grade(grader::Exercise& ex, const char* name, Launcher gemm, bool bt, const char* vendor,
                     Launcher slow_like = nullptr, const char* if_like = "", const char* otherwise = "") {
    check_shapes(ex, name, gemm, bt);
    grade_speed(ex, name, gemm, bt, vendor, slow_like, if_like, otherwise);
    check_past_int32(ex, name, gemm, bt);
}

}  // namespace

GRADER_EXERCISE("03.0 stage table") {
    ex.teaching_only();
    ex.theory("The ceiling: cuBLAS");
    const Dims t = timing_dims();
    auto rng = ex.rng("inputs");
    // The same K × N elements serve as B (K × N) for A·B and as B (N × K) for A·Bᵀ.
    grader::DeviceBuffer<float> a(grader::draw<float>(grader::Dist::uniform, size_t(t.M) * t.K, rng), "A"),
        b(grader::draw<float>(grader::Dist::uniform, size_t(t.K) * t.N, rng), "B"), c(size_t(t.M) * t.N, "C");
    const float* A = a.data();
    const float* B = b.data();
    float* C = c.data();
    const int M = t.M, N = t.N, K = t.K;
    const grader::Work w{bytes(t), flops(t)};
    grader::TeachingTable::Options o;
    o.first_header = "stage";
    o.unit = "GFLOP/s";
    o.show_ms = true;
    o.percent_of = {"cuBLAS", "FMA peak"};
    o.timing = {1, 5, true};  // few runs: the naive kernels take a good fraction of a second each on some GPUs
    grader::TeachingTable table(ex, o);
    const double peak = grader::ceilings().get(grader::ceiling::fma_gflops);
    grader::Cublas blas;
    // Each group starts with its cuBLAS row, which the others are compared with.
    table.compare_with({0, peak});
    const double ab = table.row("cuBLAS SGEMM, C = A·B", "cublas_gflops", w, [&](int) { cublas_gemm(blas, A, B, C, t, false); });
    table.compare_with({ab, peak});
    table.row("naive, threadIdx.x on rows (03.1 starter)", "naive_gflops", w, [&](int) { launch_naive(A, B, C, M, N, K); });
    table.row("your sgemm_coalesced (03.1)", "student_03_1_gflops", w, [&](int) { sgemm_coalesced(A, B, C, M, N, K); }, true);
    table.row("your sgemm_shared (03.2)", "student_03_2_gflops", w, [&](int) { sgemm_shared(A, B, C, M, N, K); }, true);
    table.row("your sgemm_coarsened (03.3)", "student_03_3_gflops", w, [&](int) { sgemm_coarsened(A, B, C, M, N, K); }, true);
    table.compare_with({0, peak});
    const double abt = table.row("cuBLAS SGEMM, C = A·Bᵀ", "cublas_abt_gflops", w, [&](int) { cublas_gemm(blas, A, B, C, t, true); });
    table.compare_with({abt, peak});
    table.row("naive A·Bᵀ (03.4 starter)", "naive_abt_gflops", w, [&](int) { launch_naive_abt(A, B, C, M, N, K); });
    table.row("your sgemm_abt (03.4)", "student_03_4_gflops", w, [&](int) { sgemm_abt(A, B, C, M, N, K); }, true);
    char caption[160];
    std::snprintf(caption, sizeof caption, "%s (%.1f GFLOP per call) on this GPU; FP32 FMA peak measured now: %.0f GFLOP/s",
                  dims_text(t).c_str(), flops(t) / 1e9, peak);
    table.print(caption);
}

GRADER_EXERCISE("03.1 coalesced mapping") {
    ex.theory("Thread mapping");
    ex.hint(
        "let threadIdx.x select the column of C, so that a warp reads consecutive floats of B and writes consecutive "
        "floats of C");
    check_and_grade(ex, "sgemm_coalesced", sgemm_coalesced, false, "cuBLAS SGEMM", launch_naive,
                    "let threadIdx.x select the column of C, so that a warp reads consecutive floats of B and writes "
                    "consecutive floats of C",
                    "the mapping looks coalesced; check the block shape (32 threads along a row of C, several rows "
                    "per block) and that each thread keeps its running sum in a register (theory: \"Thread mapping\")");
}

GRADER_EXERCISE("03.2 shared-memory tiles") {
    ex.theory("Shared-memory tiles");
    ex.hint("load T × T tiles of A and B into shared memory once per step along K and take all T products from there");
    check_and_grade(ex, "sgemm_shared", sgemm_shared, false, "cuBLAS SGEMM");
}

GRADER_EXERCISE("03.3 thread coarsening") {
    ex.theory("Thread coarsening");
    ex.hint(
        "give each thread a patch of C (e.g. 8 × 8) in registers and reuse each value read from shared memory for a "
        "whole row or column of it");
    check_and_grade(ex, "sgemm_coarsened", sgemm_coarsened, false, "cuBLAS SGEMM");
}

GRADER_EXERCISE("03.4 tiled A times B transposed") {
    ex.theory("A times B transposed");
    ex.hint("load the tile of B along its rows (coalesced) and transpose it through a padded shared-memory tile");
    check_and_grade(ex, "sgemm_abt", sgemm_abt, true, "cuBLAS SGEMM (B transposed)", launch_naive_abt,
                    "load the tile of B along its rows (coalesced) and transpose it through a padded shared-memory tile",
                    "B is read coalesced now; check the shared-memory tile for bank conflicts (pad it) and the reuse "
                    "each loaded value gets (theory: \"A times B transposed\")");
}
