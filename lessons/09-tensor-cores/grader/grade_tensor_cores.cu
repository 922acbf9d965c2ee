// SPDX-License-Identifier: MIT
// Lesson 09 grader: tensor cores, on the matrix product with FP16 inputs and FP32
// accumulation. Each graded exercise checks the contract in tensor_cores.cuh against a
// float64 host sum of the same FP16 inputs (every element; adversarial inputs: magnitudes
// near FP16's largest, subnormals, exact zeros, cancellation; sizes at both ends of the
// contract's ranges), then times it on one large product against yardsticks timed in the
// same run: the grader's copy of the step's starter and cuBLAS HGEMM (thresholds.txt).
// Every timed call gets fresh inputs and is verified in full, on the GPU, against cuBLAS on
// the same inputs, and so is one product past 2^31 bytes of C, after a passing grade. The
// teaching exercise 09.0 prints every version's TFLOP/s beside cuBLAS HGEMM and the tensor
// peak measured by the supervisor.
#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <doctest/doctest.h>
#include <mma.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "grader/common/ceilings.hpp"
#include "grader/exercise/cublas.hpp"
#include "grader/exercise/device_random.cuh"
#include "grader/exercise/grader.hpp"
#include "grader/exercise/host_chunks.hpp"
#include "tensor_cores.cuh"

GRADER_LESSON("09", "Tensor cores", "lessons/09-tensor-cores/theory.md", {grader::ceiling::tensor_fp16_gflops});

namespace {

struct Dims {
    int M, N, K;
};

// ---------------------------------------------------------------- inputs
// The input distributions of the untimed checks (theory: "How close is correct"). Each is
// drawn in float and rounded to FP16 on the host, so the host reference sums exactly the
// halves the kernel reads.
enum class Inputs {
    uniform,      // [−1, 1)
    zeros,        // uniform, a quarter of them exact zeros (half of those −0)
    large,        // magnitudes 2^10 … 65504 (FP16's largest): products near 2^32, sums far past FP16's range
    subnormal,    // A all FP16 subnormals (2^-24 … 2^-14); B half subnormals, half normal (2^-14 … 2^4)
    cancelling,   // pairs along K whose products cancel exactly: the sum is 0, Σ|a b| is not
};
constexpr Inputs kInputs[] = {Inputs::uniform, Inputs::zeros, Inputs::large, Inputs::subnormal, Inputs::cancelling};

const char* describe(Inputs d) {
    switch (d) {
        case Inputs::uniform: return "uniform inputs in [-1, 1)";
        case Inputs::zeros: return "inputs with exact zeros";
        case Inputs::large: return "inputs near FP16's largest (65504)";
        case Inputs::subnormal: return "inputs with FP16 subnormals";
        case Inputs::cancelling: return "inputs whose products cancel in pairs along K";
    }
    return "";
}

// A (M × K) and B (K × N) for one check, drawn in chunks on several threads, each chunk from
// its own generator seeded from `rng` (grader/exercise/host_chunks.hpp): the range ends have
// 16.7 M elements, which one thread took 0.4 s to draw (a 2026 x86 core). For `cancelling`,
// A(i, 2t + 1) = A(i, 2t) and B(2t + 1, j) = −B(2t, j), so every pair of products along K
// cancels exactly.
void draw_inputs(Inputs d, Dims s, grader::Rng& rng, std::vector<__half>& A, std::vector<__half>& B) {
    const auto value = [d](grader::Rng& r, bool second_draw) -> float {
        const double u = r.uniform(0, 1), sign = r.uniform(0, 1) < 0.5 ? -1.0 : 1.0;
        switch (d) {
            case Inputs::uniform: return float(r.uniform(-1, 1));
            case Inputs::zeros:
                if (u < 0.25) return u < 0.125 ? 0.f : -0.f;
                return float(r.uniform(-1, 1));
            case Inputs::large: return float(sign * std::min(65504.0, std::exp2(10 + 6 * u)));
            case Inputs::subnormal:  // every product has a subnormal factor: flushing them loses all of C
                if (!second_draw || u < 0.5) return float(sign * std::exp2(-24 + 10 * r.uniform(0, 1)));
                return float(sign * std::exp2(-14 + 36 * (u - 0.5)));
            case Inputs::cancelling: return float(second_draw ? r.uniform(-1, 1) : sign * std::exp2(-4 + 8 * u));
        }
        return 0.f;
    };
    const auto draw = [&](std::vector<__half>& x, size_t n, bool second_draw) {
        x.resize(n);
        grader::for_each_seeded_chunk(n, rng, [&](size_t begin, size_t end, grader::Rng& r) {
            for (size_t i = begin; i < end; ++i) x[i] = __float2half(value(r, second_draw));
        });
    };
    draw(A, size_t(s.M) * s.K, false);
    draw(B, size_t(s.K) * s.N, true);
    if (d != Inputs::cancelling) return;
    for (int k = 0; k + 1 < s.K; k += 2) {
        for (int i = 0; i < s.M; ++i) A[size_t(i) * s.K + k + 1] = A[size_t(i) * s.K + k];
        for (int j = 0; j < s.N; ++j) B[size_t(k + 1) * s.N + j] = __hneg(B[size_t(k) * s.N + j]);
    }
}

// ---------------------------------------------------------------- shapes
// Steps 1 and 3 take multiples of 16 (tensor_cores.cuh): empty ones (M or N 0: nothing is
// launched; K 0: C is all zeros), one fragment, a K loop of several steps, edge block tiles
// of every kind, and the tops of the ranges with the other sides at 16.
const Dims kShapes16[] = {{0, 16, 16},  {16, 0, 16},    {144, 80, 0},    {16, 16, 16},   {16, 16, 48},
                          {48, 16, 80}, {16, 144, 48},  {144, 272, 528}, {272, 144, 144}, {400, 528, 1040}};
// Step 2 takes any size: sides that are multiples of nothing, around the 16 of a fragment,
// the 8 halves of a 16-byte chunk and the 128 of a block tile, and the multiples of 16 too.
const Dims kShapesAny[] = {{0, 5, 7},      {5, 0, 7},       {130, 67, 0},    {1, 1, 1},      {1, 1, 77},
                           {3, 5, 7},      {1, 67, 33},     {67, 1, 33},     {17, 15, 9},    {33, 65, 17},
                           {65, 33, 129},  {16, 16, 16},    {128, 128, 128}, {127, 129, 131}, {144, 136, 40},
                           {300, 200, 513}, {509, 1031, 777}};
// Under compute-sanitizer only the first shapes run (racecheck follows every shared access).
constexpr size_t kSanitizerShapes = 8;
const Dims kRangeEnds16[] = {{kHgemmMaxMN, 16, 16}, {16, kHgemmMaxMN, 16}, {16, 16, kHgemmMaxK}};
const Dims kRangeEndsAny[] = {{kHgemmMaxMN, 3, 5}, {3, kHgemmMaxMN, 5}, {2, 3, kHgemmMaxK}};

// The timed product: every side 16 × 257, an odd multiple of 16 (every step takes multiples
// of 16; an odd one keeps row pitches off large powers of two, at which the rows of A, B and C
// share cache sets: the fragment kernels' times spread by 74–86 % across calls at 5120 × 5120
// × 4096, GPU self-test of 6900fb8). A and B 34 MB each, C 68 MB: together well past the L2
// of the GPUs the course runs on; 139 GFLOP per call.
Dims timing_dims() { return grader::sanitizer_mode() ? Dims{272, 144, 160} : Dims{4112, 4112, 4112}; }
// Each timed call's sides are drawn from these or 32 less (one step of 32, so that they stay
// odd multiples of 16), so the edge block tiles and the last step along K move from call to
// call (grader/common/timed_sizes.hpp); the work changes by 2.3 % at most, more than the 1 %
// other lessons keep to, since a smaller step would give up the odd multiples, and far less
// than the thresholds' margins.
constexpr size_t kSideBand = 32, kDepthBand = 32, kBandStep = 32;

double flops(Dims d) { return 2.0 * d.M * d.N * d.K; }
// Minimal traffic: A and B (halves) read once, C (floats) written once.
double bytes(Dims d) {
    return 2.0 * (double(d.M) * d.K + double(d.K) * d.N) + 4.0 * double(d.M) * d.N;
}

std::string dims_text(Dims d) {
    return "M × N × K = " + std::to_string(d.M) + " × " + std::to_string(d.N) + " × " + std::to_string(d.K);
}

// ---------------------------------------------------------------- tolerance
// How far a correct result may be from the exact one (theory: "How close is correct"). A
// product of two halves is exact in FP32 (11 + 11 significant bits ≤ 24, exponents within
// range: 2^-48 … 2^32), so the only error is the accumulation's. A tensor core adds a block of
// b products and the running sum in one step: it aligns all b + 1 addends to the largest and
// truncates what falls below its 24 bits (Fasi, Higham, Mikaitis and Pranesh, "Numerical
// behavior of NVIDIA tensor cores", 2021), so each of the b smaller addends loses less than
// one unit of the largest, u = 2^-23 of it, and the result's rounding one more unit: a block
// errs by at most (b + 1) u (|c| + Σ_block |a b|). Over ⌈K / b⌉ blocks the running sums are at
// most Σ_k |a b| each, so the total is at most (b + 1) ⌈K / b⌉ u Σ_k |a b|, and
// (b + 1) ⌈K / b⌉ ≤ (K + b − 1)(1 + 1/b) ≤ 2K + 32 for every block size b from 1 (a truncating
// sum, one addend at a time) to 32. Hence γ_{2K+32} Σ_k |a b|, γ_n = n u / (1 − n u), whatever
// the hardware's block and the kernel's order. Subnormal inputs erred more than that model
// allows (below); the reading taken here, undocumented by NVIDIA: alignment goes by exponents,
// and a subnormal half has the exponent of 2^-14 with a significand below 1, so a product with
// a subnormal factor may be cut at 2^-23 of where 2^-14 would put it, up to 2^10 above its
// value. So in the magnitudes a subnormal counts as 2^-14 (aligned_magnitude). On an H200, inputs with FP16
// subnormals beside normal values erred by up to 2.0 × γ_{K+2} Σ_k |a b| (K = 16; GPU
// self-test of 6900fb8, which failed correct kernels with that tighter bound), 36 units of
// 2^-23, where this bound allows 64 or more; an FP16 accumulator misses it by far (theory page).
double aligned_magnitude(__half x) {
    const double m = std::fabs(double(__half2float(x)));
    return m == 0 ? 0 : std::max(m, 0x1p-14);
}
double fp32_gamma_truncating(double n) {
    const double nu = n * 0x1p-23;
    return nu / (1 - nu);
}
double allowed_error(int K, double magnitude) { return fp32_gamma_truncating(2.0 * K + 32) * magnitude; }

using grader::Expected;

double h2d(__half x) { return double(__half2float(x)); }

// Element i of C, as messages name it: C(row, column).
std::string element_name(size_t i, Dims d) {
    return "C(" + std::to_string(i / size_t(d.N)) + ", " + std::to_string(i % size_t(d.N)) + ")";
}

// Checks every element of C against the float64 reference, a few rows at a time on several
// threads: the range ends have 16.7 M elements, whose table of expected values alone would
// take 400 MB. FAIL (wrong) naming the first wrong elements.
void expect_gemm(grader::Exercise& ex, const std::vector<float>& got, const std::vector<__half>& A,
                 const std::vector<__half>& B, Dims d, const std::string& context) {
    std::vector<double> bf(B.size()), bm(B.size());
    grader::for_each_chunk(B.size(), [&](size_t begin, size_t end, size_t) {
        for (size_t i = begin; i < end; ++i) bf[i] = h2d(B[i]), bm[i] = aligned_magnitude(B[i]);
    });
    const size_t rows_per_part = std::max<size_t>(1, (size_t(1) << 16) / size_t(d.N));
    std::mutex m;
    grader::Comparison all;
    grader::for_each_part(size_t(d.M), rows_per_part, [&](size_t first, size_t last, size_t) {
        std::vector<double> sum(d.N), magnitude(d.N);
        std::vector<Expected> part;
        part.reserve((last - first) * d.N);
        for (size_t i = first; i < last; ++i) {
            std::fill(sum.begin(), sum.end(), 0.0);
            std::fill(magnitude.begin(), magnitude.end(), 0.0);
            for (int k = 0; k < d.K; ++k) {
                const double a = h2d(A[i * d.K + k]), ma = aligned_magnitude(A[i * d.K + k]);
                const double* b = &bf[size_t(k) * d.N];
                const double* mb = &bm[size_t(k) * d.N];
                for (int j = 0; j < d.N; ++j) {
                    sum[j] += a * b[j];  // exact: 22 significant bits and exponents ≥ −48, summed in 53
                    magnitude[j] += ma * mb[j];
                }
            }
            for (int j = 0; j < d.N; ++j) part.push_back({i * d.N + j, sum[j], allowed_error(d.K, magnitude[j])});
        }
        const grader::Comparison c = grader::compare_entries(got, part);
        std::lock_guard<std::mutex> lock(m);
        all.checked += c.checked, all.wrong += c.wrong, all.nan += c.nan, all.unwritten += c.unwritten;
        all.first.insert(all.first.end(), c.first.begin(), c.first.end());
    });
    if (all.ok()) return;
    std::sort(all.first.begin(), all.first.end(),
              [](const grader::Mismatch& x, const grader::Mismatch& y) { return x.index < y.index; });
    if (all.first.size() > 5) all.first.resize(5);
    ex.reject(grader::Reason::wrong, context + ": " + all.describe([&](size_t i) { return element_name(i, d); }));
}

Expected expected_entry(const std::vector<__half>& A, const std::vector<__half>& B, Dims d, int i, int j) {
    double sum = 0, magnitude = 0;
    for (int k = 0; k < d.K; ++k) {
        const __half a = A[size_t(i) * d.K + k], b = B[size_t(k) * d.N + j];
        sum += h2d(a) * h2d(b);
        magnitude += aligned_magnitude(a) * aligned_magnitude(b);
    }
    return {size_t(i) * d.N + j, sum, allowed_error(d.K, magnitude)};
}

// How far C may be from cuBLAS's result on the same inputs, relative to cuBLAS's |A|·|B|
// (timed calls and the checks past 2^31 bytes, whose uniform inputs are subnormal with odds
// of 2^-14 each, so that S is the sum of |a b| but for a few terms): both are within γ S of the exact product (S = Σ_k |A(i, k)| |B(k, j)|), so
// they may differ by 2γ S, and cuBLAS's S is itself a float sum of non-negative terms, within
// γ S of S: S ≤ S_computed / (1 − γ). Hence 2γ / (1 − γ) times the computed magnitude.
double timed_tolerance(int K) {
    const double gamma = allowed_error(K, 1.0);
    return 2 * gamma / (1 - gamma);
}

// ---------------------------------------------------------------- device helpers
// |x| of every half of A and of B (exact), for cuBLAS's |A|·|B|.
__global__ void absolute_values(const __half* a, __half* abs_a, size_t na, const __half* b, __half* abs_b, size_t nb) {
    for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < na + nb; i += size_t(gridDim.x) * blockDim.x) {
        if (i < na) abs_a[i] = __habs(a[i]);
        else abs_b[i - na] = __habs(b[i - na]);
    }
}

// Fresh halves for a timed call, uniform in [−1, 1) from (key, i) (grader/exercise/device_random.cuh).
__global__ void fill_halves(__half* data, size_t n, uint64_t key) {
    for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
        data[i] = __float2half(float(-1 + 2 * grader::unit_interval(grader::hash64(key, i))));
}

// The halves as floats, for the FP32 rows of the 09.0 table (exact).
__global__ void halves_to_floats(const __half* in, float* out, size_t n) {
    for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
        out[i] = __half2float(in[i]);
}

unsigned grid_for(size_t n) { return unsigned(std::max<size_t>(1, std::min<size_t>((n + 255) / 256, size_t(grader::gpu().sms) * 16))); }

void fill_on_device(__half* data, size_t n, uint64_t key) {
    if (n == 0) return;
    fill_halves<<<grid_for(n), 256>>>(data, n, key);
    CUDA_CHECK(cudaGetLastError());
}

// ---------------------------------------------------------------- the starters' kernels
// The kernels the starters ship, written once here: the yardstick each step's threshold is a
// multiple of (thresholds.txt), the comparison timed when a student's step is too slow, and
// rows of the 09.0 table. Grader code: students never edit or link it.
namespace starter1 {
constexpr int kTile = 32;
// copy of starter/09-tensor-cores/1_fragments.cu: hgemm_cuda_cores_kernel
__global__ void __launch_bounds__(kTile * kTile)
    hgemm_cuda_cores_kernel(const __half* __restrict__ A, const __half* __restrict__ B, float* __restrict__ C, int M,
                            int N, int K) {
    __shared__ float As[kTile][kTile];
    __shared__ float Bs[kTile][kTile];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * kTile + ty, col = blockIdx.x * kTile + tx;
    float acc = 0.f;
    for (int k0 = 0; k0 < K; k0 += kTile) {
        As[ty][tx] = (row < M && k0 + tx < K) ? __half2float(A[size_t(row) * K + k0 + tx]) : 0.f;
        Bs[ty][tx] = (k0 + ty < K && col < N) ? __half2float(B[size_t(k0 + ty) * N + col]) : 0.f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < kTile; ++k) acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < M && col < N) C[size_t(row) * N + col] = acc;
}
void launch(const __half* A, const __half* B, float* C, int M, int N, int K) {
    if (M <= 0 || N <= 0) return;
    hgemm_cuda_cores_kernel<<<dim3((N + kTile - 1) / kTile, (M + kTile - 1) / kTile), dim3(kTile, kTile)>>>(A, B, C, M,
                                                                                                            N, K);
}
}  // namespace starter1

namespace starter2 {
namespace wmma = nvcuda::wmma;
constexpr int kFrag = 16;
constexpr int kWarpsM = 2, kWarpsN = 4;
constexpr int kThreads = 32 * kWarpsM * kWarpsN;
// copy of starter/09-tensor-cores/2_shared_tiles.cu: hgemm_fragments_kernel
__global__ void __launch_bounds__(kThreads) hgemm_fragments_kernel(const __half* __restrict__ A,
                                                                   const __half* __restrict__ B, float* __restrict__ C,
                                                                   int M, int N, int K) {
    const int warp = threadIdx.x / 32;
    const int i0 = (blockIdx.y * kWarpsM + warp / kWarpsN) * kFrag;
    const int j0 = (blockIdx.x * kWarpsN + warp % kWarpsN) * kFrag;
    if (i0 >= M || j0 >= N) return;
    wmma::fragment<wmma::accumulator, kFrag, kFrag, kFrag, float> acc;
    wmma::fill_fragment(acc, 0.f);
    wmma::fragment<wmma::matrix_a, kFrag, kFrag, kFrag, __half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, kFrag, kFrag, kFrag, __half, wmma::row_major> b;
    for (int k0 = 0; k0 < K; k0 += kFrag) {
        wmma::load_matrix_sync(a, A + size_t(i0) * K + k0, K);
        wmma::load_matrix_sync(b, B + size_t(k0) * N + j0, N);
        wmma::mma_sync(acc, a, b, acc);
    }
    wmma::store_matrix_sync(C + size_t(i0) * N + j0, acc, N, wmma::mem_row_major);
}
// The timed product's sides are multiples of 16, where the starter runs this kernel.
void launch(const __half* A, const __half* B, float* C, int M, int N, int K) {
    if (M <= 0 || N <= 0) return;
    const dim3 grid((N + kFrag * kWarpsN - 1) / (kFrag * kWarpsN), (M + kFrag * kWarpsM - 1) / (kFrag * kWarpsM));
    hgemm_fragments_kernel<<<grid, kThreads>>>(A, B, C, M, N, K);
}
}  // namespace starter2

namespace starter3 {
namespace wmma = nvcuda::wmma;
constexpr int kFrag = 16;
constexpr int kBM = 128, kBN = 128, kBK = 32;
constexpr int kWarpsM = 2, kWarpsN = 4;
constexpr int kWM = kBM / kWarpsM, kWN = kBN / kWarpsN;
constexpr int kFM = kWM / kFrag, kFN = kWN / kFrag;
constexpr int kThreads = 32 * kWarpsM * kWarpsN;
constexpr int kPad = 8;
constexpr int kLda = kBK + kPad, kLdb = kBN + kPad;
constexpr int kLdc = kFrag + 4;
constexpr int kChunk = 8;
// copy of starter/09-tensor-cores/3_pipeline.cu: load_chunk
__device__ void load_chunk(__half* dst, const __half* src, int rows, int cols, int r, int c, bool aligned) {
    const __half* p = src + size_t(r) * cols + c;
    if (r < rows && c + kChunk <= cols && aligned) {
        *reinterpret_cast<uint4*>(dst) = *reinterpret_cast<const uint4*>(p);
        return;
    }
#pragma unroll
    for (int e = 0; e < kChunk; ++e) dst[e] = (r < rows && c + e < cols) ? p[e] : __float2half(0.f);
}
// copy of starter/09-tensor-cores/3_pipeline.cu: hgemm_shared_kernel
__global__ void __launch_bounds__(kThreads) hgemm_shared_kernel(const __half* __restrict__ A,
                                                                const __half* __restrict__ B, float* __restrict__ C,
                                                                int M, int N, int K) {
    __shared__ __align__(32) __half As[kBM][kLda];
    __shared__ __align__(32) __half Bs[kBK][kLdb];
    __shared__ __align__(32) float staging[kWarpsM * kWarpsN][kFrag][kLdc];
    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    const int wm = warp / kWarpsN, wn = warp % kWarpsN;
    const int row0 = blockIdx.y * kBM, col0 = blockIdx.x * kBN;
    const bool a_aligned = K % kChunk == 0, b_aligned = N % kChunk == 0;

    wmma::fragment<wmma::accumulator, kFrag, kFrag, kFrag, float> acc[kFM][kFN];
#pragma unroll
    for (int i = 0; i < kFM; ++i)
#pragma unroll
        for (int j = 0; j < kFN; ++j) wmma::fill_fragment(acc[i][j], 0.f);

    for (int k0 = 0; k0 < K; k0 += kBK) {
#pragma unroll
        for (int p = 0; p < kBM * kBK / kChunk / kThreads; ++p) {
            const int q = tid + p * kThreads, r = q / (kBK / kChunk), c = q % (kBK / kChunk) * kChunk;
            load_chunk(&As[r][c], A, M, K, row0 + r, k0 + c, a_aligned);
        }
#pragma unroll
        for (int p = 0; p < kBK * kBN / kChunk / kThreads; ++p) {
            const int q = tid + p * kThreads, r = q / (kBN / kChunk), c = q % (kBN / kChunk) * kChunk;
            load_chunk(&Bs[r][c], B, K, N, k0 + r, col0 + c, b_aligned);
        }
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < kBK; kk += kFrag) {
            wmma::fragment<wmma::matrix_a, kFrag, kFrag, kFrag, __half, wmma::row_major> a[kFM];
            wmma::fragment<wmma::matrix_b, kFrag, kFrag, kFrag, __half, wmma::row_major> b[kFN];
#pragma unroll
            for (int i = 0; i < kFM; ++i) wmma::load_matrix_sync(a[i], &As[wm * kWM + i * kFrag][kk], kLda);
#pragma unroll
            for (int j = 0; j < kFN; ++j) wmma::load_matrix_sync(b[j], &Bs[kk][wn * kWN + j * kFrag], kLdb);
#pragma unroll
            for (int i = 0; i < kFM; ++i)
#pragma unroll
                for (int j = 0; j < kFN; ++j) wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
        }
        __syncthreads();
    }

    float(*s)[kLdc] = staging[warp];
#pragma unroll
    for (int i = 0; i < kFM; ++i)
#pragma unroll
        for (int j = 0; j < kFN; ++j) {
            wmma::store_matrix_sync(&s[0][0], acc[i][j], kLdc, wmma::mem_row_major);
            __syncwarp();
            const int r0 = row0 + wm * kWM + i * kFrag, c0 = col0 + wn * kWN + j * kFrag;
            for (int e = lane; e < kFrag * kFrag; e += 32) {
                const int r = r0 + e / kFrag, c = c0 + e % kFrag;
                if (r < M && c < N) C[size_t(r) * N + c] = s[e / kFrag][e % kFrag];
            }
            __syncwarp();
        }
}
void launch(const __half* A, const __half* B, float* C, int M, int N, int K) {
    if (M <= 0 || N <= 0) return;
    hgemm_shared_kernel<<<dim3((N + kBN - 1) / kBN, (M + kBM - 1) / kBM), kThreads>>>(A, B, C, M, N, K);
}
}  // namespace starter3

// student-release: omit (lesson 03's FP32 reference, a row of the 09.0 table; the table builds and runs without it)
namespace lesson03 {
constexpr int kBM = 128, kBN = 128, kBK = 16;
constexpr int kTM = 8, kTN = 8;
constexpr int kThreads = (kBM / kTM) * (kBN / kTN);
constexpr int kPadA = 4;
// copy of solutions/03-tiling/3_coarsened.cu: sgemm_coarsened_kernel
__global__ void __launch_bounds__(kThreads, 2)
    sgemm_coarsened_kernel(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M,
                           int N, int K) {
    __shared__ __align__(16) float As[kBK][kBM + kPadA];
    __shared__ __align__(16) float Bs[kBK][kBN];
    const int tid = threadIdx.x;
    const int tx = tid % (kBN / kTN), ty = tid / (kBN / kTN);
    const int row0 = blockIdx.y * kBM, col0 = blockIdx.x * kBN;
    float acc[kTM][kTN] = {};
    for (int k0 = 0; k0 < K; k0 += kBK) {
#pragma unroll
        for (int p = 0; p < kBM * kBK / kThreads; ++p) {
            const int m = tid / 8 + 32 * (p / 2), k = tid % 8 + 8 * (p % 2);
            const int r = row0 + m, kk = k0 + k;
            As[k][m] = (r < M && kk < K) ? A[size_t(r) * K + kk] : 0.f;
        }
#pragma unroll
        for (int p = 0; p < kBK * kBN / kThreads; ++p) {
            const int k = tid / kBN + (kThreads / kBN) * p, n = tid % kBN;
            const int kk = k0 + k, c = col0 + n;
            Bs[k][n] = (kk < K && c < N) ? B[size_t(kk) * N + c] : 0.f;
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < kBK; ++k) {
            const float4 a0 = *reinterpret_cast<const float4*>(&As[k][4 * ty]);
            const float4 a1 = *reinterpret_cast<const float4*>(&As[k][kBM / 2 + 4 * ty]);
            const float4 b0 = *reinterpret_cast<const float4*>(&Bs[k][4 * tx]);
            const float4 b1 = *reinterpret_cast<const float4*>(&Bs[k][kBN / 2 + 4 * tx]);
            const float a[kTM] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
            const float b[kTN] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
            for (int i = 0; i < kTM; ++i)
#pragma unroll
                for (int j = 0; j < kTN; ++j) acc[i][j] += a[i] * b[j];
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < kTM; ++i) {
        const int r = row0 + (i < 4 ? 4 * ty + i : kBM / 2 + 4 * ty + i - 4);
#pragma unroll
        for (int j = 0; j < kTN; ++j) {
            const int c = col0 + (j < 4 ? 4 * tx + j : kBN / 2 + 4 * tx + j - 4);
            if (r < M && c < N) C[size_t(r) * N + c] = acc[i][j];
        }
    }
}
void launch(const float* A, const float* B, float* C, int M, int N, int K) {
    sgemm_coarsened_kernel<<<dim3((N + kBN - 1) / kBN, (M + kBM - 1) / kBM), kThreads>>>(A, B, C, M, N, K);
}
}  // namespace lesson03
// student-release: end

// ---------------------------------------------------------------- cuBLAS
// cuBLAS on row-major matrices: it is column-major, and a row-major matrix read column-major
// is its transpose, so for C = A·B it computes Cᵀ = Bᵀ·Aᵀ (B first). HGEMM: FP16 inputs,
// FP32 compute and output, on the tensor cores (cublasGemmEx).
void cublas_hgemm(const grader::Cublas& blas, const __half* A, const __half* B, float* C, Dims d) {
    const float one = 1.f, zero = 0.f;
    grader::Cublas::check(cublasGemmEx(blas.get(), CUBLAS_OP_N, CUBLAS_OP_N, d.N, d.M, d.K, &one, B, CUDA_R_16F, d.N, A,
                                       CUDA_R_16F, d.K, &zero, C, CUDA_R_32F, d.N, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
                          "cublasGemmEx");
}
void cublas_sgemm(const grader::Cublas& blas, const float* A, const float* B, float* C, Dims d) {
    const float one = 1.f, zero = 0.f;
    grader::Cublas::check(
        cublasSgemm(blas.get(), CUBLAS_OP_N, CUBLAS_OP_N, d.N, d.M, d.K, &one, B, d.N, A, d.K, &zero, C, d.N),
        "cublasSgemm");
}

// Elements of cuBLAS's product checked against the host before it is timed or trusted as
// the timed calls' oracle: the four corners, 32 of the last row, 32 of the last column, 188 anywhere.
std::vector<std::pair<int, int>> sample_entries(Dims d, grader::Rng& rng) {
    std::vector<std::pair<int, int>> s = {{0, 0}, {0, d.N - 1}, {d.M - 1, 0}, {d.M - 1, d.N - 1}};
    for (int n = 0; n < 32; ++n) s.push_back({d.M - 1, int(rng.integer(0, d.N - 1))});
    for (int n = 0; n < 32; ++n) s.push_back({int(rng.integer(0, d.M - 1)), d.N - 1});
    for (int n = 0; n < 188; ++n) s.push_back({int(rng.integer(0, d.M - 1)), int(rng.integer(0, d.N - 1))});
    return s;
}

// Throws (a grader bug) unless cuBLAS HGEMM's product of a and b agrees with the host at a sample.
void check_cublas(grader::Exercise& ex, const grader::Cublas& blas, const grader::DeviceBuffer<__half>& a,
                  const grader::DeviceBuffer<__half>& b, grader::DeviceBuffer<float>& c, Dims d) {
    if (grader::sanitizer_mode()) return;
    cublas_hgemm(blas, a.data(), b.data(), c.data(), d);
    CUDA_CHECK(cudaDeviceSynchronize());
    auto rng = ex.rng("cublas check");
    const auto ha = a.download(), hb = b.download();
    for (auto [i, j] : sample_entries(d, rng)) {
        const Expected e = expected_entry(ha, hb, d, i, j);
        float got = 0;  // one element at a time: past 2^31 bytes, C is 2 GiB
        CUDA_CHECK(cudaMemcpy(&got, c.data() + e.index, sizeof got, cudaMemcpyDeviceToHost));
        if (!(std::fabs(double(got) - e.value) <= e.bound))
            throw std::logic_error("grader self-check: cuBLAS HGEMM disagrees with the host reference at C(" +
                                   std::to_string(i) + ", " + std::to_string(j) + ")");
    }
}

// FAIL (wrong) unless C is within timed_tolerance of cuBLAS's product of the same A and B:
// two cuBLAS products (C, and |A|·|B| for each element's bound) and one pass over A and B,
// all on the device. The buffers are those of one call, sized for d.
void expect_like_cublas(grader::Exercise& ex, const grader::Cublas& blas, const __half* a, const __half* b,
                        __half* abs_a, __half* abs_b, const float* c, float* expected, float* magnitude, Dims d,
                        const std::string& context) {
    const size_t na = size_t(d.M) * d.K, nb = size_t(d.K) * d.N;
    absolute_values<<<grid_for(na + nb), 256>>>(a, abs_a, na, b, abs_b, nb);
    CUDA_CHECK(cudaGetLastError());
    cublas_hgemm(blas, a, b, expected, d);
    cublas_hgemm(blas, abs_a, abs_b, magnitude, d);
    ex.expect_on_device(c, expected, size_t(d.M) * d.N, {0, timed_tolerance(d.K)}, context, magnitude,
                        [d](size_t i) { return element_name(i, d); });
}

using Launcher = void (*)(const __half*, const __half*, float*, int, int, int);

// The untimed checks: every shape, on each input distribution in turn.
void check_shapes(grader::Exercise& ex, const char* name, Launcher gemm, bool any_size) {
    if (grader::yardstick_run()) return;  // its checks do nothing there: spare the inputs and the host sums
    auto rng = ex.rng("inputs");
    std::vector<Dims> shapes;
    if (any_size) shapes.assign(std::begin(kShapesAny), std::end(kShapesAny));
    else shapes.assign(std::begin(kShapes16), std::end(kShapes16));
    const size_t regular = shapes.size();  // the range ends come after these
    if (grader::sanitizer_mode()) shapes.resize(std::min(shapes.size(), kSanitizerShapes));
    else if (any_size) shapes.insert(shapes.end(), std::begin(kRangeEndsAny), std::end(kRangeEndsAny));
    else shapes.insert(shapes.end(), std::begin(kRangeEnds16), std::end(kRangeEnds16));
    constexpr size_t kKinds = sizeof kInputs / sizeof kInputs[0];
    for (size_t s = 0; s < shapes.size(); ++s) {
        const Dims d = shapes[s];
        // The medium shapes (4 to 64 M products: several block tiles and steps along K, yet a
        // host reference of a fraction of a second) get every distribution, the others one
        // each in turn; the largest ones, and the range ends, one. The range ends are there for
        // their sides (the grid's limits, the longest rows and columns), which no distribution
        // changes; most of them hold 4 to 64 M products too, and all five distributions there
        // took 1.8 s of 09.2's 2.4 (H200, 2026-12-06).
        const size_t products = size_t(d.M) * d.N * d.K;
        const bool every = s < regular && products >= (size_t(1) << 22) && products <= (size_t(1) << 26);
        for (size_t k = 0; k < (every ? kKinds : 1); ++k) {
            const Inputs dist = kInputs[(s + k) % kKinds];
            std::vector<__half> ha, hb;
            draw_inputs(dist, d, rng, ha, hb);
            grader::DeviceBuffer<__half> a(ha, "A"), b(hb, "B");
            grader::DeviceBuffer<float> c(size_t(d.M) * d.N, "C");
            const std::string ctx = std::string(name) + ", " + dims_text(d) + ", " + describe(dist);
            grader::Call call(ctx, [&] { gemm(a.data(), b.data(), c.data(), d.M, d.N, d.K); });
            call.input(a, "A").input(b, "B").output(c, "C").verify([&] {
                if (size_t(d.M) * d.N == 0) return;  // C is empty: nothing to compare (its guards were checked)
                expect_gemm(ex, c.download(), ha, hb, d, ctx);
            });
            ex.check(call);
        }
    }
}

// The timed product, its buffers and the grader's reference on them.
struct Timed {
    grader::Exercise& ex;
    Dims nominal = timing_dims(), t = nominal;  // t: the product of the call in progress
    size_t na() const { return size_t(t.M) * t.K; }
    size_t nb() const { return size_t(t.K) * t.N; }
    size_t nc() const { return size_t(t.M) * t.N; }
    grader::DeviceBuffer<__half> a{na(), "A"}, b{nb(), "B"}, abs_a{na(), "|A|"}, abs_b{nb(), "|B|"};
    grader::DeviceBuffer<float> c{nc(), "C"}, expected{nc(), "cuBLAS's C"}, magnitude{nc(), "|A|·|B|"};
    grader::Cublas blas;
    grader::Call call;

    Timed(grader::Exercise& e, const char* name, Launcher gemm)
        : ex(e),
          call(std::string(name) + ", timed product (sides drawn for every timed call) of up to " + dims_text(nominal),
               [this, gemm] { gemm(a.data(), b.data(), c.data(), t.M, t.N, t.K); }) {
        fill(grader::fresh_key());
        check_cublas(ex, blas, a, b, expected, nominal);
        call.input(a, "A").input(b, "B").output(c, "C").timed_inputs([this](uint64_t key) { fill(key); });
        call.timed_size([this](grader::SizeDraw& d) {
            t.M = int(d.pick(size_t(nominal.M), kSideBand, kBandStep));
            t.N = int(d.pick(size_t(nominal.N), kSideBand, kBandStep));
            t.K = int(d.pick(size_t(nominal.K), kDepthBand, kBandStep));
            a.use(na());
            b.use(nb());
            c.use(nc());
            return grader::RunSize{flops(t) / flops(nominal), dims_text(t)};
        });
        // Every timed call, in full.
        call.timed_verify([this] {
            expect_like_cublas(ex, blas, a.data(), b.data(), abs_a.data(), abs_b.data(), c.data(), expected.data(),
                               magnitude.data(), t, call.context());
        });
    }
    void fill(uint64_t key) {
        fill_on_device(a.data(), na(), key);
        fill_on_device(b.data(), nb(), grader::rekey(key, 1));
    }
    grader::Work work() const { return {bytes(nominal), flops(nominal)}; }
    // cuBLAS HGEMM on the call's buffers: the oracle of timed_verify, so timed as a bare launch
    // (checked against the host sample above).
    grader::Baseline hgemm() {
        return ex.baseline("cuBLAS HGEMM (cublasGemmEx, FP16 in, FP32 out)", work(),
                           [this] { cublas_hgemm(blas, a.data(), b.data(), c.data(), t); });
    }
    // A grader copy of a starter's kernel on the call's own buffers, every run verified.
    grader::Baseline starter(const std::string& name, Launcher launch) {
        grader::Call own = call.with_launch(name, [this, launch] { launch(a.data(), b.data(), c.data(), t.M, t.N, t.K); });
        return ex.baseline(name, work(), own, false);
    }
};

// Checks and grades one step: `starter` is the grader's copy of the step's starter (the
// yardstick of the step's threshold and the slow diagnosis's comparison).
void check_and_grade(grader::Exercise& ex, const char* name, Launcher gemm, bool any_size, const char* starter_name,
                     Launcher starter, bool with_vendor_line, const char* if_like, const char* otherwise) {
    check_shapes(ex, name, gemm, any_size);
    Timed timed(ex, name, gemm);
    const grader::Baseline vendor = timed.hgemm();
    const grader::Baseline before = timed.starter(starter_name, starter);
    Timed* tp = &timed;
    ex.diagnose_slow({"the speed of the step's starter",
                      [tp, starter] { starter(tp->a.data(), tp->b.data(), tp->c.data(), tp->t.M, tp->t.N, tp->t.K); },
                      if_like, otherwise});
    if (with_vendor_line) ex.grade(grader::lower_of(grader::versus(before), grader::versus(vendor)), timed.call);
    else ex.grade(grader::versus(before), timed.call);
}

// Past 2^31 bytes C (grader::kInt32Bytes), where a byte offset held in an int turns negative
// and no timed size reaches (the timed C is 68 MB): checked once per exercise, after a passing
// speed grade (a failing one has ended the exercise), made and verified on the device like a
// timed call, where the GPU has the memory (grader::largest_check_fits). A and B stay small
// (1.5 MB): the work grows with K, and K = 32 already takes two fragment steps along it.
// Steps 1 and 3: sides 16 × 1449, odd multiples of 16, so of no block tile; 537 497 856
// floats of C, the last 626 944 past 2^31 bytes. Step 2 takes any size: odd sides, a multiple
// of no tile or vector width, and a last step along K of one column; 536 987 929 floats of C,
// the last 117 017 past.
constexpr Dims kPastInt32Dims16{23184, 23184, 32}, kPastInt32DimsAny{23173, 23173, 33};
constexpr bool past_int32_in_contract(Dims d, int multiple) {
    return size_t(d.M) * d.N * sizeof(float) > grader::kInt32Bytes && d.M <= kHgemmMaxMN && d.N <= kHgemmMaxMN &&
           d.K <= kHgemmMaxK && size_t(d.M) * d.N < (size_t(1) << 31) && d.M % multiple == 0 && d.N % multiple == 0 &&
           d.K % multiple == 0;
}
static_assert(past_int32_in_contract(kPastInt32Dims16, 16) && past_int32_in_contract(kPastInt32DimsAny, 1));

void check_past_int32(grader::Exercise& ex, const char* name, Launcher gemm, Dims d) {
    const size_t na = size_t(d.M) * d.K, nb = size_t(d.K) * d.N, nc = size_t(d.M) * d.N;
    const std::string size = dims_text(d) + ", 2 GiB of C";
    // C, cuBLAS's C and |A|·|B|; A, B and their absolute values.
    const size_t need = 3 * nc * sizeof(float) + 2 * (na + nb) * sizeof(__half);
    if (!grader::largest_check_fits(need, std::string(name) + " at " + size)) return;
    const std::string ctx = std::string(name) + ", " + size + " (" + grader::past_int32_cause() + ")";
    auto rng = ex.rng("past 2^31 bytes");
    grader::DeviceBuffer<__half> a(na, "A"), b(nb, "B"), abs_a(na, "|A|"), abs_b(nb, "|B|");
    grader::DeviceBuffer<float> c(nc, "C"), expected(nc, "cuBLAS's C"), magnitude(nc, "|A|·|B|");
    fill_on_device(a.data(), na, rng.next());
    fill_on_device(b.data(), nb, rng.next());
    grader::Cublas blas;
    check_cublas(ex, blas, a, b, expected, d);  // the oracle, at a sample, on these sides too
    grader::Call call(ctx, [&] { gemm(a.data(), b.data(), c.data(), d.M, d.N, d.K); });
    call.input(a, "A").input(b, "B").output(c, "C").verify([&] {
        expect_like_cublas(ex, blas, a.data(), b.data(), abs_a.data(), abs_b.data(), c.data(), expected.data(),
                           magnitude.data(), d, ctx);
    });
    ex.check(call);
}

bool has_cp_async() { return grader::gpu().cc_major >= 8; }

}  // namespace

GRADER_EXERCISE("09.0 tensor cores on this GPU") {
    ex.teaching_only();
    ex.theory("The yardsticks");
    const Dims t = timing_dims();
    const size_t na = size_t(t.M) * t.K, nb = size_t(t.K) * t.N, nc = size_t(t.M) * t.N;
    grader::DeviceBuffer<__half> a(na, "A"), b(nb, "B");
    grader::DeviceBuffer<float> af(na, "A as floats"), bf(nb, "B as floats"), c(nc, "C");
    const uint64_t key = grader::fresh_key();
    fill_on_device(a.data(), na, key);
    fill_on_device(b.data(), nb, grader::rekey(key, 1));
    halves_to_floats<<<grid_for(na), 256>>>(a.data(), af.data(), na);
    halves_to_floats<<<grid_for(nb), 256>>>(b.data(), bf.data(), nb);
    CUDA_CHECK(cudaGetLastError());
    const __half* A = a.data();
    const __half* B = b.data();
    float* C = c.data();
    const int M = t.M, N = t.N, K = t.K;
    const grader::Work w{bytes(t), flops(t)};
    grader::TeachingTable::Options o;
    o.first_header = "version";
    o.unit = "GFLOP/s";
    o.show_ms = true;
    o.percent_of = {"cuBLAS HGEMM", "tensor peak"};
    o.timing = {1, 5, true};  // few runs: the FP32 rows take tens of ms each
    grader::TeachingTable table(ex, o);
    const double peak = grader::ceilings().get(grader::ceiling::tensor_fp16_gflops);
    grader::Cublas blas;
    table.compare_with({0, peak});
    const double hgemm = table.row("cuBLAS HGEMM (FP16 in, FP32 compute and out)", "cublas_hgemm_gflops", w,
                                   [&](int) { cublas_hgemm(blas, A, B, C, t); });
    table.compare_with({hgemm, peak});
    table.row("cuBLAS SGEMM on the inputs as floats (no tensor cores)", "cublas_sgemm_gflops", w,
              [&](int) { cublas_sgemm(blas, af.data(), bf.data(), C, t); });
    // student-release: omit
    table.row("lesson 03's coarsened FP32 kernel, on the inputs as floats", "lesson03_coarsened_gflops", w,
              [&](int) { lesson03::launch(af.data(), bf.data(), C, M, N, K); });
    // student-release: end
    table.row("FP32 CUDA cores on the halves (09.1 starter)", "starter_09_1_gflops", w,
              [&](int) { starter1::launch(A, B, C, M, N, K); });
    table.row("your hgemm_fragments (09.1)", "student_09_1_gflops", w, [&](int) { hgemm_fragments(A, B, C, M, N, K); }, true);
    table.row("your hgemm_shared (09.2)", "student_09_2_gflops", w, [&](int) { hgemm_shared(A, B, C, M, N, K); }, true);
    if (has_cp_async())
        table.row("your hgemm_pipelined (09.3)", "student_09_3_gflops", w, [&](int) { hgemm_pipelined(A, B, C, M, N, K); },
                  true);
    char caption[200];
    std::snprintf(caption, sizeof caption,
                  "%s (%.0f GFLOP per call) on this GPU; tensor peak (FP16 WMMA, FP32 accumulation) measured now: %.0f GFLOP/s",
                  dims_text(t).c_str(), flops(t) / 1e9, peak);
    table.print(caption);
}

GRADER_EXERCISE("09.1 fragments") {
    ex.theory("Step 1: fragments");
    ex.hint("give each warp a 16 × 16 tile of C and compute it with wmma::load_matrix_sync and wmma::mma_sync");
    check_and_grade(ex, "hgemm_fragments", hgemm_fragments, false, "FP32 CUDA cores (09.1 starter, grader copy)",
                    starter1::launch, false,
                    "the product still runs on the CUDA cores: load wmma fragments of A and B and multiply them with "
                    "wmma::mma_sync (theory: \"Step 1: fragments\")",
                    "the kernel is faster than the starter but not enough: check that every warp issues mma_sync on "
                    "whole 16 × 16 × 16 fragments and that the block's warps share rows and columns of C");
    check_past_int32(ex, "hgemm_fragments", hgemm_fragments, kPastInt32Dims16);
}

GRADER_EXERCISE("09.2 block tiles in shared memory") {
    ex.theory("Step 2: block tiles in shared memory");
    ex.hint("stage 128 × 32 and 32 × 128 tiles of A and B in padded shared memory and load the fragments from there");
    check_and_grade(ex, "hgemm_shared", hgemm_shared, true, "fragments from global memory (09.2 starter, grader copy)",
                    starter2::launch, true,
                    "every warp still loads its own fragments from global memory: stage block tiles of A and B in "
                    "shared memory and load the fragments from there (theory: \"Step 2: block tiles in shared memory\")",
                    "the tiles are shared, but the fragment loads may conflict: pad each row of the tiles by 8 halves, "
                    "and give each warp several fragments of C (64 × 32) so that each fragment of A and B is reused");
    check_past_int32(ex, "hgemm_shared", hgemm_shared, kPastInt32DimsAny);
}

GRADER_EXERCISE("09.3 cp.async pipeline") {
    ex.theory("Step 3: a cp.async pipeline");
    if (!has_cp_async())
        ex.skip("cp.async (asynchronous copies from global to shared memory) needs sm_80 or newer; this GPU is " +
                grader::gpu().arch());
    ex.hint("copy the tiles with cp.async into 3 stages of shared memory and wait with cp.async.wait_group 1");
    check_and_grade(ex, "hgemm_pipelined", hgemm_pipelined, false, "block tiles, loads and math in turn (09.3 starter, grader copy)",
                    starter3::launch, true,
                    "the loads and the math still take turns: copy the next tiles with cp.async into other stages of "
                    "shared memory while the warps multiply the current one (theory: \"Step 3: a cp.async pipeline\")",
                    "the copies overlap, but not enough: wait with cp.async.wait_group 1 or more (not 0), so that "
                    "a group stays in flight while the warps multiply, and use 3 stages or more");
    check_past_int32(ex, "hgemm_pipelined", hgemm_pipelined, kPastInt32Dims16);
}
