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

// Required fraction of the copy ceiling for both graded exercises. On an H200 the
// references reached 98-100 % and the shipped slow versions 29-44 % (see theory.md).
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

// The notes' double3 exercise, both ways: one double3 per thread (three 8-byte loads 24
// bytes apart across the warp) and the same bytes as a flat array of doubles.
__global__ void shift_double3_per_thread(const double3* in, double3* out, size_t n, double k) {
    size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) {
        double3 v = in[i];
        out[i] = make_double3(v.x + k, v.y + k, v.z + k);
    }
}
__global__ void shift_flat(const double* in, double* out, size_t m, double k) {
    size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < m) out[i] = in[i] + k;
}

// The array-of-structures layout exercise 01.2 is compared with: 48 bytes per particle,
// of which a drift step reads 24 and writes 12.
struct Particle {
    float3 position;
    float3 velocity;
    float3 force;
    float mass;
    float charge;
    int id;
};

//! [aos]
__global__ void drift_aos(Particle* p, size_t n, float dt) {
    size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) {
        p[i].position.x += p[i].velocity.x * dt;
        p[i].position.y += p[i].velocity.y * dt;
        p[i].position.z += p[i].velocity.z * dt;
    }
}
//! [aos]

}  // namespace

GRADER_EXERCISE("01.0 coalescing on this GPU") {
    ex.teaching_only();
    ex.theory("Offsets and strides");
    const double copy = grader::ceilings().copy_gbs;
    const size_t m = grader::timing_elements(2 * sizeof(float));  // floats written per call
    size_t in_len = 1;
    while (in_len < m + 64) in_len *= 2;
    grader::DeviceBuffer<float> in(in_len, "sweep input"), out(m, "sweep output");
    const unsigned grid = unsigned((m + 255) / 256);
    auto gbs = [&](const grader::Timing& t) { return 2.0 * m * sizeof(float) / (t.median_ms * 1e6); };
    grader::Table table({"access (one float per thread)", "useful GB/s", "% of copy"});
    for (int offset : {0, 1, 2, 4, 8, 16, 32}) {
        auto t = ex.time([&] { copy_offset<<<grid, 256>>>(in.data(), out.data(), m, offset); });
        table.row({"offset " + std::to_string(offset), grader::fixed(gbs(t)), grader::fixed(100 * gbs(t) / copy)});
    }
    for (int stride : {1, 2, 4, 8, 16, 32}) {
        auto t = ex.time([&] { copy_stride<<<grid, 256>>>(in.data(), out.data(), m, stride, in_len - 1); });
        table.row({"stride " + std::to_string(stride), grader::fixed(gbs(t)), grader::fixed(100 * gbs(t) / copy)});
        ex.figure("stride_" + std::to_string(stride) + "_gbs", gbs(t));
    }
    // The double3 exercise of the notes, on the same buffers viewed as doubles.
    const size_t n3 = m / 6;
    auto* in3 = reinterpret_cast<const double3*>(in.data());
    auto* out3 = reinterpret_cast<double3*>(out.data());
    auto d3 = ex.time([&] { shift_double3_per_thread<<<unsigned((n3 + 255) / 256), 256>>>(in3, out3, n3, 1.0); });
    auto flat = ex.time([&] {
        shift_flat<<<unsigned((3 * n3 + 255) / 256), 256>>>(reinterpret_cast<const double*>(in3),
                                                            reinterpret_cast<double*>(out3), 3 * n3, 1.0);
    });
    auto d3_gbs = [&](const grader::Timing& t) { return 2.0 * n3 * sizeof(double3) / (t.median_ms * 1e6); };
    table.row({"double3, one struct per thread", grader::fixed(d3_gbs(d3)), grader::fixed(100 * d3_gbs(d3) / copy)});
    table.row({"double3 as flat doubles", grader::fixed(d3_gbs(flat)), grader::fixed(100 * d3_gbs(flat) / copy)});
    ex.figure("double3_per_thread_gbs", d3_gbs(d3));
    ex.figure("double3_flat_gbs", d3_gbs(flat));
    std::printf("      Coalescing on this GPU: useful bytes ÷ time, against the copy ceiling %.0f GB/s\n%s", copy,
                table.str().c_str());
}

GRADER_EXERCISE("01.1 matrix mapping") {
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

GRADER_EXERCISE("01.2 AoS vs SoA") {
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
        // The array of structures, as many particles, same useful bytes: the comparison point.
        std::vector<Particle> host(n);
        for (Particle& q : host) {
            q.position = make_float3(rng_big.uniform(-1, 1), rng_big.uniform(-1, 1), rng_big.uniform(-1, 1));
            q.velocity = make_float3(rng_big.uniform(-1, 1), rng_big.uniform(-1, 1), rng_big.uniform(-1, 1));
            q.force = make_float3(0.f, 0.f, 0.f);
            q.mass = 1.f, q.charge = 0.f, q.id = 0;
        }
        grader::DeviceBuffer<Particle> aos(host, "particles (AoS)");
        const unsigned grid = unsigned((n + 255) / 256);
        double aos_gbs = bytes / (ex.time([&] { drift_aos<<<grid, 256>>>(aos.data(), n, 1e-3f); }).median_ms * 1e6);
        ex.figure("naive_figure", aos_gbs);
        std::printf("      the same step on an array of 48-byte structures: %.0f GB/s of useful bytes (%.0f %% of copy)\n", aos_gbs,
                    100 * aos_gbs / grader::ceilings().copy_gbs);
    }
    ex.grade(grader::memory_bound(bytes, kFraction), [&] { drift_soa(p, n, 1e-3f); });
}
