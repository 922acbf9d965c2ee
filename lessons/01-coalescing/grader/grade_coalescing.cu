// SPDX-License-Identifier: MIT
// Lesson 01 grader: memory coalescing. Each exercise checks the contract in
// coalescing.cuh on awkward sizes and several input distributions, then grades its
// bandwidth against the copy ceiling measured on this GPU in this run, with cuBLAS timed
// on the same work as the vendor figure.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "coalescing.cuh"
#include "grader/exercise/cublas.hpp"
#include "grader/exercise/grader.hpp"

GRADER_LESSON("01", "Memory coalescing", "lessons/01-coalescing/theory.md");

namespace {

// Both graded exercises need 65 % of the copy ceiling (thresholds.txt). On an H200 the
// references reached 88-92 % and the shipped slow versions 27-40 % (see theory.md).

// Sizes that are not multiples of any block size (empty, 1, primes, just above a power of
// two), and one whose arrays end exactly on a page boundary (4096 floats = 64 × 256 bytes),
// where a read one past the end faults.
const size_t kSizes[] = {0, 1, 31, 33, 1000, 4096, 65537, 1000003};
// Each size is checked on one distribution, in turn (inputs.hpp).
const grader::Dist kDists[] = {grader::Dist::uniform, grader::Dist::zeros, grader::Dist::mixed};

// The timed calls' sizes vary from call to call (grader/common/timed_sizes.hpp), so that the
// remainder of the size against a launcher's grid, block and vector width changes too.
// 01.1: each side of the matrix up to this much below the nominal one, about 1 % of the
// work together, and every remainder modulo a warp's 32 columns and a 64-row tile.
constexpr size_t kColBand = 32, kRowBand = 64;

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

// The starter's mapping of 01.1 (threadIdx.x walks down a column), timed only when a
// student's add_matrices is too slow, to tell an uncoalesced mapping from too few bytes in flight.
// copy of starter/01-coalescing/matrix_mapping.cu: add_matrices_kernel
__global__ void add_column_walk(const float* a, const float* b, float* c, int rows, int cols) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    int col = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < rows && col < cols) {
        size_t i = size_t(row) * cols + col;
        c[i] = a[i] + b[i];
    }
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

// Packs the SoA arrays into structures on the device: the comparison gets the same particles
// without building gigabytes of structures on the host.
__global__ void pack_aos(ParticleArrays s, Particle* p, size_t n) {
    for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
        p[i] = {make_float3(s.x[i], s.y[i], s.z[i]), make_float3(s.vx[i], s.vy[i], s.vz[i]), make_float3(0, 0, 0), 1.f, 0.f,
                int(i)};
}

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

// The grader's own results for timed calls, on the GPU (call.hpp: every timed call is
// verified in full against these).
__global__ void reference_add(const float* a, const float* b, float* c, size_t n) {
    for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
        c[i] = a[i] + b[i];  // one rounding: what any correct kernel writes, bit for bit
}
// x + v·dt in double, and the magnitudes it is made of (drift_entry's bound, per element).
__global__ void reference_drift(const float* x0, const float* v, float dt, float* expected, float* scale, size_t n) {
    for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
        const double step = double(v[i]) * double(dt);
        expected[i] = float(double(x0[i]) + step);
        scale[i] = float(fabs(double(x0[i])) + fabs(step));
    }
}
unsigned grid_for(size_t n) { return unsigned(std::min<size_t>((n + 255) / 256, 65535)); }
// One axis of the structures' positions as a flat array, for the check of drift_aos against
// reference_drift (axis 0, 1, 2: x, y, z).
__global__ void aos_positions(const Particle* p, int axis, float* out, size_t n) {
    for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
        const float3 r = p[i].position;
        out[i] = axis == 0 ? r.x : axis == 1 ? r.y : r.z;
    }
}

// One float rounding of the exact sum: relative error at most 2^-24.
grader::Expected sum_entry(const std::vector<float>& a, const std::vector<float>& b, size_t i) {
    const double e = double(a[i]) + double(b[i]);
    return {i, e, 0x1p-24 * std::fabs(e)};
}

// x + v·dt in float, with or without a fused multiply-add: at most two roundings, each of
// at most 2^-24 of the magnitudes involved (inputs of mixed magnitudes included).
grader::Expected drift_entry(const std::vector<float>& pos, const std::vector<float>& vel, float dt, size_t i) {
    const double step = double(vel[i]) * double(dt), e = double(pos[i]) + step;
    return {i, e, 0x1p-23 * (std::fabs(double(pos[i])) + std::fabs(step))};
}

// A drift checked on the GPU against reference_drift: drift_entry's bound, plus the rounding
// of the grader's own float result.
constexpr grader::Tolerance kDriftTolerance{0, 0x1.8p-23};

// Past 2^31 bytes a buffer (grader::kInt32Bytes), where a byte offset held in an int turns
// negative and no timed size reaches: checked once per exercise, after a passing speed grade
// (a failing one has ended the exercise), made and verified on the device, where the GPU
// has the memory (grader::largest_check_fits). A square of odd sides, a multiple of no block,
// tile or vector width: 536 987 929 floats, the last 117 017 of them past 2^31 bytes.
constexpr int kPastInt32Side = 23173;
static_assert(size_t(kPastInt32Side) * kPastInt32Side * sizeof(float) > grader::kInt32Bytes);
// 01.2: 2^29 + 4099 particles, odd, the last 4099 past 2^31 bytes in each of the four arrays.
constexpr size_t kPastInt32Particles = (grader::kInt32Bytes / sizeof(float)) + 4099;

void check_add_past_int32(grader::Exercise& ex) {
    const int side = kPastInt32Side;
    const size_t n = size_t(side) * side;
    const std::string size = std::to_string(side) + " × " + std::to_string(side) + ", 2 GiB a matrix";
    // One input passed as a and b alike (the launcher only reads them, so they may alias, and
    // 2 GiB less lets an 8 GB card run the check), c, and the grader's sum: three matrices.
    if (!grader::largest_check_fits(3 * n * sizeof(float), "add_matrices at " + size)) return;
    const std::string ctx = "add_matrices, " + size + " (" + grader::past_int32_cause() + ")";
    auto rng = ex.rng("past 2^31 bytes");
    grader::DeviceBuffer<float> a(n, "a"), c(n, "c"), expected(n, "the grader's sum");
    grader::fill_on_device(a.data(), n, rng.next(), grader::Dist::uniform);
    grader::Call call(ctx, [&] { add_matrices(a.data(), a.data(), c.data(), side, side); });
    call.input(a, "a = b").output(c, "c").verify([&] {
        reference_add<<<grid_for(n), 256>>>(a.data(), a.data(), expected.data(), n);
        ex.expect_on_device(c.data(), expected.data(), n, {0, 0x1p-24}, ctx);
    });
    ex.check(call);
}

void check_drift_past_int32(grader::Exercise& ex, float dt) {
    const size_t n = kPastInt32Particles;
    const char* axis[] = {"x", "y", "z"};
    const std::string size = "n = 2^29 + 4099, 2 GiB an array";
    // The three positions, one velocity array passed as vx, vy and vz alike (the launcher only
    // reads them, so they may alias, and 4 GiB less lets a 24 GB card run the check), the
    // grader's copies of the three positions, and its drift and bound of one axis: nine arrays.
    if (!grader::largest_check_fits(9 * n * sizeof(float), "drift_soa at " + size)) return;
    auto rng = ex.rng("past 2^31 bytes");
    std::vector<grader::DeviceBuffer<float>> d;
    d.reserve(4);
    for (int k = 0; k < 4; ++k) {
        d.emplace_back(n, k < 3 ? "position" : "velocity");
        grader::fill_on_device(d[k].data(), n, rng.next(), grader::Dist::uniform);
    }
    grader::DeviceBuffer<float> expected(n, "the grader's positions"), scale(n, "magnitudes");
    const std::string ctx = "drift_soa, " + size + " (" + grader::past_int32_cause() + ")";
    grader::Call call(ctx, [&] {
        drift_soa(ParticleArrays{d[0].data(), d[1].data(), d[2].data(), d[3].data(), d[3].data(), d[3].data()}, n, dt);
    });
    for (int a = 0; a < 3; ++a) call.in_out(d[a], axis[a]);
    call.input(d[3], "vx = vy = vz");
    call.verify([&] {
        for (int a = 0; a < 3; ++a) {
            reference_drift<<<grid_for(n), 256>>>(call.initial(d[a]), d[3].data(), dt, expected.data(), scale.data(), n);
            ex.expect_on_device(d[a].data(), expected.data(), n, kDriftTolerance, ctx + ", " + axis[a], scale.data());
        }
    });
    ex.check(call);
}

}  // namespace

GRADER_EXERCISE("01.0 coalescing on this GPU") {
    ex.teaching_only();
    ex.theory("Offsets and strides");
    const double copy = grader::ceilings().get(grader::ceiling::copy_gbs);
    const size_t m = grader::timing_elements(2 * sizeof(float));  // floats written per call
    size_t in_len = 1;
    while (in_len < m + 64) in_len *= 2;
    grader::DeviceBuffer<float> in(in_len, "sweep input"), out(m, "sweep output");
    const unsigned grid = unsigned((m + 255) / 256);
    const grader::Work floats{2.0 * m * sizeof(float), 0};
    grader::TeachingTable table(ex, {"access (one float per thread)", "useful GB/s", {}, {}, {"copy"}});
    table.compare_with({copy});
    for (int offset : {0, 1, 2, 4, 8, 16, 32})
        table.row("offset " + std::to_string(offset), "offset_" + std::to_string(offset) + "_gbs", floats,
                  [&](int) { copy_offset<<<grid, 256>>>(in.data(), out.data(), m, offset); });
    for (int stride : {1, 2, 4, 8, 16, 32})
        table.row("stride " + std::to_string(stride), "stride_" + std::to_string(stride) + "_gbs", floats,
                  [&](int) { copy_stride<<<grid, 256>>>(in.data(), out.data(), m, stride, in_len - 1); });
    // The double3 exercise of the notes, on the same buffers viewed as doubles.
    const size_t n3 = m / 6;
    auto* in3 = reinterpret_cast<const double3*>(in.data());
    auto* out3 = reinterpret_cast<double3*>(out.data());
    const grader::Work d3{2.0 * n3 * sizeof(double3), 0};
    table.row("double3, one struct per thread", "double3_per_thread_gbs", d3,
              [&](int) { shift_double3_per_thread<<<unsigned((n3 + 255) / 256), 256>>>(in3, out3, n3, 1.0); });
    table.row("double3 as flat doubles", "double3_flat_gbs", d3, [&](int) {
        shift_flat<<<unsigned((3 * n3 + 255) / 256), 256>>>(reinterpret_cast<const double*>(in3),
                                                            reinterpret_cast<double*>(out3), 3 * n3, 1.0);
    });
    table.print("Coalescing on this GPU: useful bytes ÷ time, against the copy ceiling measured now");
}

GRADER_EXERCISE("01.1 matrix mapping") {
    ex.theory("Thread-to-element mapping");
    ex.hint("let threadIdx.x select the column, so a warp reads 32 consecutive floats of one row");
    auto rng = ex.rng("inputs");
    // 64 × 96: the matrices end exactly on a page boundary, where a read one past the end faults.
    // 65537 × 3 and 3 × 65537: past the 65535 blocks gridDim.y and gridDim.z allow, whichever
    // of rows and columns a launcher maps there (the contract allows both).
    const int shapes[][2] = {{1, 1},     {0, 5},     {5, 0},         {1, 37},     {37, 1},   {33, 65},
                             {64, 96},   {500, 300}, {1023, 1025},   {2049, 777}, {65537, 3}, {3, 65537}};
    int k = 0;
    for (const auto& shape : shapes) {
        if (grader::yardstick_run()) break;  // its checks do nothing there: spare the inputs
        const int rows = shape[0], cols = shape[1];
        const size_t n = size_t(rows) * cols;
        const grader::Dist dist = kDists[k++ % 3];
        auto ha = grader::draw<float>(dist, n, rng), hb = grader::draw<float>(dist, n, rng);
        grader::DeviceBuffer<float> a(ha, "a"), b(hb, "b"), c(n, "c");
        const std::string ctx = "add_matrices, " + std::to_string(rows) + " × " + std::to_string(cols) + ", " + describe(dist);
        grader::Call call(ctx, [&] { add_matrices(a.data(), b.data(), c.data(), rows, cols); });
        call.input(a, "a").input(b, "b").output(c, "c").verify([&] {
            ex.expect_each(c.download(), n, [&](size_t i) { return sum_entry(ha, hb, i); }, ctx);
        });
        ex.check(call);
    }
    // Not square and not a multiple of any tile: 3 × 4 bytes per element. Each timed call has
    // a shape of its own, up to kRowBand rows and kColBand columns less (the buffers are made
    // for the largest and used for the current shape).
    const size_t elements = grader::timing_elements(3 * sizeof(float));
    const int max_cols = 8191, max_rows = int(std::max<size_t>(1, elements / max_cols));
    const size_t n_max = size_t(max_rows) * max_cols;
    int rows = max_rows, cols = max_cols;
    const auto n = [&] { return size_t(rows) * size_t(cols); };
    grader::DeviceBuffer<float> a(n_max, "a"), b(n_max, "b"), c(n_max, "c"), expected(n_max, "the grader's sum");
    const grader::Work work{3.0 * sizeof(float) * n_max, 0};
    grader::Call call("add_matrices, timed, up to " + std::to_string(max_rows) + " × " + std::to_string(max_cols),
                      [&] { add_matrices(a.data(), b.data(), c.data(), rows, cols); });
    call.input(a, "a").input(b, "b").output(c, "c");
    call.timed_size([&](grader::SizeDraw& d) {
        rows = int(d.pick(size_t(max_rows), std::min(kRowBand, size_t(max_rows) - 1)));
        cols = int(d.pick(size_t(max_cols), kColBand));
        for (grader::DeviceBuffer<float>* m : {&a, &b, &c}) m->use(n());
        return grader::RunSize{double(n()) / double(n_max), std::to_string(rows) + " × " + std::to_string(cols)};
    });
    call.timed_inputs([&](uint64_t key) {
        grader::fill_on_device(a.data(), n(), key, grader::Dist::uniform);
        grader::fill_on_device(b.data(), n(), grader::rekey(key, 1), grader::Dist::uniform);
    });
    call.timed_verify([&] {
        reference_add<<<grid_for(n()), 256>>>(a.data(), b.data(), expected.data(), n());
        ex.expect_on_device(c.data(), expected.data(), n(), {0, 0x1p-24}, call.context());
    });
    // cuBLAS on the same buffers, each timed run prepared and verified as the student's are.
    grader::Cublas blas;
    const float one = 1.f;
    grader::Call geam = call.with_launch("cuBLAS geam (C = A + B)", [&] {
        grader::Cublas::check(cublasSgeam(blas.get(), CUBLAS_OP_N, CUBLAS_OP_N, cols, rows, &one, a.data(), cols, &one,
                                          b.data(), cols, c.data(), cols),
                              "cublasSgeam");
    });
    ex.baseline("cuBLAS geam (C = A + B)", work, geam);
    ex.diagnose_slow({"the speed of a mapping whose threadIdx.x walks down a column",
                      [&] {
                          const dim3 naive_block(16, 16), naive_grid((rows + 15) / 16, (cols + 15) / 16);
                          add_column_walk<<<naive_grid, naive_block>>>(a.data(), b.data(), c.data(), rows, cols);
                      },
                      "let threadIdx.x select the column, so that a warp reads 32 consecutive floats of one row",
                      "the accesses look coalesced, but too few bytes are in flight: give each thread several "
                      "independent loads issued before their first use, and launch enough blocks to fill every SM "
                      "(theory: \"Bytes in flight\")"});
    ex.grade(grader::memory_bound(work.bytes), call);
    check_add_past_int32(ex);
}

GRADER_EXERCISE("01.2 AoS vs SoA") {
    ex.theory("AoS and SoA");
    ex.hint("read only the six arrays you need, with consecutive threads on consecutive particles");
    auto rng = ex.rng("inputs");
    const float dt = float(rng.uniform(0.001, 0.1));
    const char* axis[] = {"x", "y", "z"};
    // One drift step on six arrays: positions in place, velocities const.
    // Untimed (timed = false): one call on inputs drawn on the host, checked there. Timed: the
    // arrays are made on the device, afresh before every call, for n particles at most, and
    // each call drifts `used` of them, up to a band_span() fewer (grader/common/timed_sizes.hpp).
    auto check_drift = [&](size_t n, grader::Dist dist, const std::string& ctx, bool timed, grader::Rng& r) {
        std::vector<std::vector<float>> h(timed ? 0 : 6);
        for (auto& v : h) v = grader::draw<float>(dist, n, r);
        std::vector<grader::DeviceBuffer<float>> d;
        d.reserve(6);
        for (int k = 0; k < 6; ++k) {
            d.emplace_back(n, k < 3 ? "position" : "velocity");
            if (timed) grader::fill_on_device(d[k].data(), n, grader::fresh_key(), dist);
            else d[k].upload(h[k]);
        }
        // Where the arrays lie now: a timed call's used part moves (DeviceBuffer::use).
        const auto arrays = [&] {
            return ParticleArrays{d[0].data(), d[1].data(), d[2].data(), d[3].data(), d[4].data(), d[5].data()};
        };
        size_t used = n;
        const float step = timed ? 1e-3f : dt;
        grader::Call call(ctx, [&, step] { drift_soa(arrays(), used, step); });
        for (int a = 0; a < 3; ++a) call.in_out(d[a], axis[a]).input(d[a + 3], std::string("v") + axis[a]);
        call.verify([&, step] {
            for (int a = 0; a < 3; ++a)
                ex.expect_each(d[a].download(), n, [&](size_t i) { return drift_entry(h[a], h[a + 3], step, i); },
                               ctx + ", " + axis[a]);
        });
        if (!timed) return ex.check(call);
        // Timed calls: six fresh arrays each, checked against the grader's drift on the GPU.
        std::vector<grader::DeviceBuffer<float>> expected, scale;
        for (int a = 0; a < 3; ++a) expected.emplace_back(n, "the grader's positions"), scale.emplace_back(n, "magnitudes");
        call.timed_size([&, n](grader::SizeDraw& draw) {
            used = draw.pick(n, grader::band_span(n));
            for (grader::DeviceBuffer<float>& array : d) array.use(used);
            return grader::RunSize{double(used) / double(n), "n = " + std::to_string(used)};
        });
        call.timed_inputs([&](uint64_t key) {
            for (int k = 0; k < 6; ++k) grader::fill_on_device(d[k].data(), used, grader::rekey(key, k), dist);
        });
        call.timed_verify([&, step] {
            for (int a = 0; a < 3; ++a) {
                reference_drift<<<grid_for(used), 256>>>(call.initial(d[a]), d[a + 3].data(), step, expected[a].data(),
                                                         scale[a].data(), used);
                ex.expect_on_device(d[a].data(), expected[a].data(), used, kDriftTolerance, ctx + ", " + axis[a],
                                    scale[a].data());
            }
        });
        grader::Cublas blas;
        const grader::Work work{9.0 * sizeof(float) * n, 0};
        // cuBLAS on the same arrays, each timed run prepared and verified as the student's are:
        // x += step · v in place is the drift step itself, and axpy rounds it once (a fused
        // multiply-add) or twice, as drift_entry's bound allows a correct drift_soa.
        grader::Call axpy = call.with_launch("cuBLAS axpy × 3", [&] {
            for (int a = 0; a < 3; ++a)
                grader::Cublas::check(cublasSaxpy(blas.get(), int(used), &step, d[a + 3].data(), 1, d[a].data(), 1),
                                      "cublasSaxpy");
        });
        ex.baseline("cuBLAS axpy × 3", work, axpy);
        if (!grader::sanitizer_mode()) {
            // The array of structures, as many particles, same useful bytes: the comparison point.
            grader::DeviceBuffer<Particle> aos(n, "particles (AoS)");
            const unsigned grid = unsigned((n + 255) / 256);
            // Fresh arrays of all n particles: the timed runs before left guard bytes in the part
            // a shorter run did not use. Packed and checked where the structures are timed
            // (Exercise::times_baselines): the exercise's process takes the supervisor's figure.
            if (ex.times_baselines()) {
                for (int k = 0; k < 6; ++k) grader::fill_on_device(d[k].data(), n, grader::fresh_key(), dist);
                pack_aos<<<std::min(grid, 65535u), 256>>>(arrays(), aos.data(), n);
                CUDA_CHECK(cudaGetLastError());
                // Another layout than the call's arrays, so it cannot go through the call: one
                // step is checked here, before it is timed, against the grader's drift of the
                // arrays it was packed from (a difference is the grader's bug: stop, do not time it).
                drift_aos<<<grid, 256>>>(aos.data(), n, step);
                CUDA_CHECK(cudaGetLastError());
                grader::DeviceBuffer<float> got(n, "positions of the structures");
                for (int a = 0; a < 3; ++a) {
                    reference_drift<<<grid_for(n), 256>>>(d[a].data(), d[a + 3].data(), step, expected[a].data(),
                                                          scale[a].data(), n);
                    aos_positions<<<grid_for(n), 256>>>(aos.data(), a, got.data(), n);
                    CUDA_CHECK(cudaGetLastError());
                    const grader::Comparison c =
                        grader::compare_on_device(got.data(), expected[a].data(), n, kDriftTolerance, scale[a].data());
                    if (!c.ok())
                        throw std::runtime_error("the array of 48-byte structures drifted differently from the grader's "
                                                 "reference, " + std::string(axis[a]) + ": " + c.describe() +
                                                 ": a bug of the grader, not of the submission");
                }
            }
            const grader::Baseline b =
                ex.baseline("array of 48-byte structures", work, [&] { drift_aos<<<grid, 256>>>(aos.data(), n, step); }, false);
            std::printf("      the same step on an array of 48-byte structures: %.0f GB/s of useful bytes (%.0f %% of copy)\n",
                        b.figure(), 100 * b.figure() / grader::ceilings().get(grader::ceiling::copy_gbs));
        }
        ex.grade(grader::memory_bound(work.bytes), call);
    };
    int k = 0;
    for (size_t n : kSizes) {
        if (grader::yardstick_run()) break;  // its checks do nothing there: spare the inputs
        const grader::Dist dist = kDists[k++ % 3];
        check_drift(n, dist, "drift_soa, n = " + std::to_string(n) + ", " + describe(dist), false, rng);
    }
    const size_t n = grader::timing_elements(9 * sizeof(float));
    check_drift(n, grader::Dist::uniform, "drift_soa, timed, n up to " + std::to_string(n), true, rng);
    check_drift_past_int32(ex, dt);
}
