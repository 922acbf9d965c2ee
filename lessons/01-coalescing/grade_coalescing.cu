// SPDX-License-Identifier: MIT
// Lesson 01 grader: memory coalescing. Each exercise checks the contract in
// coalescing.cuh on random inputs of awkward sizes, then its bandwidth against the copy
// ceiling measured on this GPU in this run.
#include <doctest/doctest.h>

#include <cstdio>

#include "coalescing.cuh"
#include "grader/grader.hpp"

GRADER_LESSON("01", "Memory coalescing", "lessons/01-coalescing/theory.md");

namespace {

// Required fraction of the copy ceiling for the three memory-bound exercises.
constexpr double kFraction = 0.65;

// Sizes that are not multiples of any block size: 1, a prime, just above a power of two.
const size_t kSizes[] = {1, 31, 33, 1000, 65537, 1000003};

// ---------------------------------------------------------------- teaching kernels
// The notes' offset and stride experiments, timed on the student's GPU. They read
// `in` with an offset or a stride and write `out` contiguously.
__global__ void copy_offset(const float* in, float* out, size_t n, int offset) {
    size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i + offset];
}
// `mask` + 1 is the input length, a power of two: large strides wrap around instead of
// needing 32 times the memory. Each warp still sees the same strided pattern.
__global__ void copy_stride(const float* in, float* out, size_t n, int stride, size_t mask) {
    size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[(i * stride) & mask];
}

}  // namespace

GRADER_EXERCISE("01.0 offset and stride sweep") {
    if (grader::sanitizer_mode()) ex.skip("teaching table: nothing is timed under compute-sanitizer");
    ex.theory("Offsets and strides");
    const size_t m = grader::timing_elements(2 * sizeof(float));  // floats written per call
    size_t in_len = 1;
    while (in_len < m + 64) in_len *= 2;
    grader::DeviceBuffer<float> in(in_len, "sweep input"), out(m, "sweep output");
    const unsigned grid = unsigned((m + 255) / 256);
    auto gbs = [&](const grader::Timing& t) { return 2.0 * m * sizeof(float) / (t.median_ms * 1e6); };
    grader::Table table({"access", "useful GB/s", "% of copy"});
    for (int offset : {0, 1, 2, 4, 8, 16, 32}) {
        auto t = ex.time([&] { copy_offset<<<grid, 256>>>(in.data(), out.data(), m, offset); });
        table.row({"offset " + std::to_string(offset), grader::fixed(gbs(t)),
                   grader::fixed(100 * gbs(t) / grader::ceilings().copy_gbs)});
    }
    for (int stride : {1, 2, 4, 8, 16, 32}) {
        auto t = ex.time([&] { copy_stride<<<grid, 256>>>(in.data(), out.data(), m, stride, in_len - 1); });
        table.row({"stride " + std::to_string(stride), grader::fixed(gbs(t)),
                   grader::fixed(100 * gbs(t) / grader::ceilings().copy_gbs)});
        ex.figure("stride_" + std::to_string(stride) + "_gbs", gbs(t));
    }
    std::printf("      Coalescing penalty on this GPU (one float per thread, bytes used ÷ time):\n%s",
                table.str().c_str());
}

GRADER_EXERCISE("01.1 double3 shift") {
    ex.theory("The double3 trap");
    ex.hint("view in and out as 3n doubles (or double2s) so consecutive threads touch consecutive addresses");
    auto rng = ex.rng("inputs");
    const double k = rng.uniform(-4, 4);
    for (size_t n : kSizes) {
        auto host = grader::random_vector<double>(3 * n, -1e3, 1e3, rng);
        std::vector<double> expected(host);
        for (double& v : expected) v += k;
        grader::DeviceBuffer<double> in(host), out(3 * n, "out");
        auto* in3 = reinterpret_cast<const double3*>(in.data());
        auto* out3 = reinterpret_cast<double3*>(out.data());
        std::string ctx = "shift_double3, n = " + std::to_string(n);
        ex.run(ctx, [&] { shift_double3(in3, out3, n, k); });
        ex.expect_close(out.download(), expected, grader::Tolerance{}, ctx);
        ex.expect_guard(out, ctx);
        ex.expect_unchanged(in, host, ctx);
    }
    size_t n = grader::timing_elements(2 * sizeof(double3));
    auto rng_big = ex.rng("timing");
    grader::DeviceBuffer<double> in(grader::random_vector<double>(3 * n, -1, 1, rng_big)), out(3 * n, "out");
    auto* in3 = reinterpret_cast<const double3*>(in.data());
    auto* out3 = reinterpret_cast<double3*>(out.data());
    ex.run("shift_double3, timing size", [&] { shift_double3(in3, out3, n, 0.5); });
    ex.grade(grader::memory_bound(2.0 * sizeof(double3) * n, kFraction), [&] { shift_double3(in3, out3, n, 0.5); });
}

GRADER_EXERCISE("01.2 matrix mapping") {
    ex.theory("Thread-to-element mapping");
    ex.hint("let threadIdx.x select the column, so a warp reads 32 consecutive floats of one row");
    auto rng = ex.rng("inputs");
    const int shapes[][2] = {{1, 1}, {1, 37}, {37, 1}, {33, 65}, {500, 300}, {1023, 1025}, {2049, 777}};
    for (const auto& shape : shapes) {
        const int rows = shape[0], cols = shape[1];
        size_t n = size_t(rows) * cols;
        auto ha = grader::random_vector<float>(n, -1, 1, rng), hb = grader::random_vector<float>(n, -1, 1, rng);
        std::vector<double> expected(n);
        for (size_t i = 0; i < n; ++i) expected[i] = double(ha[i]) + double(hb[i]);
        grader::DeviceBuffer<float> a(ha), b(hb), c(n, "c");
        std::string ctx = "add_matrices, " + std::to_string(rows) + " × " + std::to_string(cols);
        ex.run(ctx, [&] { add_matrices(a.data(), b.data(), c.data(), rows, cols); });
        // One float rounding of the exact sum: relative error at most 2^-24.
        ex.expect_close(c.download(), expected, grader::Tolerance{0, 6e-8}, ctx);
        ex.expect_guard(c, ctx);
        ex.expect_unchanged(a, ha, ctx);
        ex.expect_unchanged(b, hb, ctx);
    }
    // Not square and not a multiple of any tile: 3 × 4 bytes per element.
    size_t elements = grader::timing_elements(3 * sizeof(float));
    int cols = 8191, rows = int(std::max<size_t>(1, elements / cols));
    size_t n = size_t(rows) * cols;
    auto rng_big = ex.rng("timing");
    grader::DeviceBuffer<float> a(grader::random_vector<float>(n, -1, 1, rng_big)),
        b(grader::random_vector<float>(n, -1, 1, rng_big)), c(n, "c");
    ex.run("add_matrices, timing size", [&] { add_matrices(a.data(), b.data(), c.data(), rows, cols); });
    ex.grade(grader::memory_bound(3.0 * sizeof(float) * n, kFraction),
             [&] { add_matrices(a.data(), b.data(), c.data(), rows, cols); });
}

namespace {
// Host reference for one drift step, in double.
std::vector<double> drifted(const std::vector<float>& pos, const std::vector<float>& vel, float dt) {
    std::vector<double> out(pos.size());
    for (size_t i = 0; i < pos.size(); ++i) out[i] = double(pos[i]) + double(vel[i]) * double(dt);
    return out;
}
}  // namespace

GRADER_EXERCISE("01.3 AoS vs SoA") {
    ex.theory("AoS and SoA");
    ex.hint("read only the six arrays you need, with consecutive threads on consecutive particles");
    auto rng = ex.rng("inputs");
    const float dt = float(rng.uniform(0.001, 0.1));
    // x + vx·dt in float, with or without a fused multiply-add: within two roundings.
    const grader::Tolerance tol{1e-6, 2.5e-7};
    for (size_t n : kSizes) {
        std::vector<std::vector<float>> h(6);
        for (auto& v : h) v = grader::random_vector<float>(n, -1, 1, rng);
        std::vector<grader::DeviceBuffer<float>> d;
        for (auto& v : h) d.emplace_back(v);
        ParticleArrays p{d[0].data(), d[1].data(), d[2].data(), d[3].data(), d[4].data(), d[5].data()};
        std::string ctx = "drift_soa, n = " + std::to_string(n);
        ex.run(ctx, [&] { drift_soa(p, n, dt); });
        const char* axis[] = {"x", "y", "z"};
        for (int a = 0; a < 3; ++a) {
            ex.expect_close(d[a].download(), drifted(h[a], h[a + 3], dt), tol, ctx + ", " + axis[a]);
            ex.expect_guard(d[a], ctx + ", " + axis[a]);
            ex.expect_unchanged(d[a + 3], h[a + 3], ctx + ", v" + axis[a]);
        }
    }
    size_t n = grader::timing_elements(9 * sizeof(float));
    auto rng_big = ex.rng("timing");
    std::vector<grader::DeviceBuffer<float>> d;
    for (int a = 0; a < 6; ++a) d.emplace_back(grader::random_vector<float>(n, -1, 1, rng_big));
    ParticleArrays p{d[0].data(), d[1].data(), d[2].data(), d[3].data(), d[4].data(), d[5].data()};
    const double bytes = 9.0 * sizeof(float) * n;
    ex.run("drift_soa, timing size", [&] { drift_soa(p, n, 1e-3f); });
    if (!grader::sanitizer_mode()) {
        // The array of structures, same particles, same useful bytes: the comparison point.
        d.clear();
        grader::DeviceBuffer<Particle> aos(n, "particles (AoS)");
        CUDA_CHECK(cudaMemset(aos.data(), 0, aos.bytes()));
        ex.run("drift_aos", [&] { drift_aos(aos.data(), n, 1e-3f); });
        double aos_gbs = bytes / (ex.time([&] { drift_aos(aos.data(), n, 1e-3f); }).median_ms * 1e6);
        ex.figure("aos_gbs", aos_gbs);
        std::printf("      drift_aos (given) on the same particles: %.0f GB/s of useful bytes (%.0f %% of copy)\n", aos_gbs,
                    100 * aos_gbs / grader::ceilings().copy_gbs);
        for (int a = 0; a < 6; ++a) d.emplace_back(grader::random_vector<float>(n, -1, 1, rng_big));
        p = ParticleArrays{d[0].data(), d[1].data(), d[2].data(), d[3].data(), d[4].data(), d[5].data()};
    }
    ex.grade(grader::memory_bound(bytes, kFraction), [&] { drift_soa(p, n, 1e-3f); });
}
