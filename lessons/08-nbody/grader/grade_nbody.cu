// SPDX-License-Identifier: MIT
// Lesson 08 grader: N-body accelerations. Every exercise is checked against a float64 host
// reference on small sizes and five kinds of bodies, against the grader's own result on the
// GPU at the contract's largest n (and, for 08.3, at sizes that take every path of the
// reference's choice of threads per body), then drives a grader-run leapfrog integration
// whose energy and momentum must behave as the theory page derives, then is timed: 08.1
// and 08.2 at n = 65536 against this GPU's FP32 FMA peak, 08.3 at 128 bodies per SM against the
// grader's one-thread-per-body kernel, every timed call on fresh bodies and checked in full
// on the GPU. Exercise 08.0 prints the teaching tables: layouts, tiles, the inner loop's
// instructions, threads per body.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include "grader/exercise/grader.hpp"
#include "grader/exercise/host_chunks.hpp"
#include "nbody.cuh"
#include "nbody_variants.cuh"

GRADER_LESSON("08", "N-body", "lessons/08-nbody/theory.md");

namespace {

// ---------------------------------------------------------------- thresholds
// What each exercise must reach, and why: lessons/08-nbody/thresholds.txt.
// Tiling changes where one load per interaction comes from and not the instruction count; on
// the H200 it still ran 1.53 × the naive kernel (the cost of the global-load path, theory page
// "Tiles in shared memory"), so 08.1 is graded on speed. Set true only for a GPU where the
// 08.0 table shows tiled_runtime_recip_sqrt below 1.21 × naive_recip_sqrt: no threshold then
// fits both margins, and the verdict says that the naive kernel may pass too.
constexpr bool kTilingOverlapsNaive = false;  // H200: tiled 1.53 × naive

// The timed sizes: 2^16 bodies as in the published figures (GPU Gems 3, the CUDA samples);
// for 08.3, 128 bodies per SM this process may use (split_timed_n). Correctness is checked
// on sizes that are multiples of nothing; these only have to be large.
constexpr int kTimedN = 65536;

// 08.3's premise is a small n next to the GPU: one thread per body makes half a block of 256
// per SM, so half the SMs get none and the rest run one block's warps. A fixed n gives that
// only on one size of GPU: with n = 16384 on 16, 34 or 66 SMs of an H100 (--sms), one thread
// per body already filled every SM and the reference gained 0.99–1.24× over it, against
// 2.3× on the whole GPU. So n follows the SM count (16896 on 132 SMs, 3584 on a 28-SM RTX
// 3060), never below 2048 bodies.
int split_timed_n() { return std::min(kTimedN, std::max(2048, 128 * grader::gpu().sms)); }
// The largest n of the contract (nbody.cuh), checked for every exercise: twice the timed
// size, past 46341 (where n² leaves the range of int) and within the range where the
// magnitude sums' slack holds (kMagnitudeSlack, below).
constexpr int kLargestN = 131072;

// Work of one call: n² interactions at 20 flops (the convention of GPU Gems 3, ch. 31, and
// of the CUDA samples' nbody); 16 bytes read and 16 written per body.
constexpr double kFlopsPerInteraction = 20;
grader::Work work(int n) { return {32.0 * n, kFlopsPerInteraction * double(n) * double(n)}; }

// ---------------------------------------------------------------- tolerance
// A correct FP32 kernel errs per component by at most γ_{n+32} Σ_j |m_j (r_j − r_i)_c| / s³
// (theory page, "How close is correct"): each term carries at most 26 roundings of
// u = 2⁻²⁴ (32 leave room for other correct ways to write it), and any order of summing n
// terms adds γ_{n−1} of the sum of their magnitudes.
constexpr double kU = 0x1p-24;
constexpr int kTermRoundings = 32;
double gamma_n(int n) { return grader::fp32_gamma(double(n + kTermRoundings)); }
// The grader's magnitude sums (variants::magnitudes, variants::checked) are float sums of
// positive terms, within (n + 20) u of the exact ones: 1 % covers them up to n ≈ 160000,
// past the contract's largest n (kLargestN).
constexpr double kMagnitudeSlack = 1.01;

// ---------------------------------------------------------------- bodies

enum class Bodies { cube, plummer, coincident, zero_masses, mixed };
const Bodies kAllBodies[] = {Bodies::cube, Bodies::plummer, Bodies::coincident, Bodies::zero_masses, Bodies::mixed};

const char* bodies_name(Bodies b) {
    switch (b) {
        case Bodies::cube: return "uniform cube";
        case Bodies::plummer: return "Plummer cluster";
        case Bodies::coincident: return "coincident bodies";
        case Bodies::zero_masses: return "zero masses";
        case Bodies::mixed: return "mixed magnitudes";
    }
    return "bodies";
}

std::string format(const char* fmt, ...) {
    char buf[1024];
    va_list args;
    va_start(args, fmt);
    std::vsnprintf(buf, sizeof buf, fmt, args);
    va_end(args);
    return buf;
}

struct Vec {
    double x = 0, y = 0, z = 0;
};
double norm(Vec v) { return std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z); }

constexpr double kPi = 3.14159265358979323846;

Vec random_direction(grader::Rng& rng) {
    const double c = rng.uniform(-1, 1), phi = rng.uniform(0, 2 * kPi), s = std::sqrt(1 - c * c);
    return {s * std::cos(phi), s * std::sin(phi), c};
}

// A body of the Plummer sphere of unit mass and scale radius (G = 1), position and velocity
// (Aarseth, Hénon & Wielen 1974): radius from the inverse of the cumulative mass (cut at
// 10 scale radii), speed q · v_escape with q drawn by rejection from q² (1 − q²)^{7/2}.
void plummer_body(grader::Rng& rng, Vec& r, Vec& v) {
    double radius;
    do radius = 1 / std::sqrt(std::pow(rng.uniform(1e-12, 1), -2.0 / 3) - 1);
    while (radius > 10);
    const Vec d = random_direction(rng);
    r = {radius * d.x, radius * d.y, radius * d.z};
    double q;
    do q = rng.uniform(0, 1);
    while (rng.uniform(0, 0.1) > q * q * std::pow(1 - q * q, 3.5));
    const double speed = q * std::sqrt(2.0) * std::pow(1 + radius * radius, -0.25);
    const Vec e = random_direction(rng);
    v = {speed * e.x, speed * e.y, speed * e.z};
}

float4 at(Vec r, double m) { return make_float4(float(r.x), float(r.y), float(r.z), float(m)); }

std::vector<float4> draw_bodies(Bodies kind, int n, grader::Rng& rng) {
    std::vector<float4> b(static_cast<size_t>(n));
    auto in_cube = [&] { return Vec{rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1)}; };
    auto mass = [&] { return rng.uniform(0.5, 1.5) / n; };
    switch (kind) {
        case Bodies::cube:
            for (float4& x : b) x = at(in_cube(), mass());
            break;
        case Bodies::plummer:
            for (float4& x : b) {
                Vec r, v;
                plummer_body(rng, r, v);
                x = at(r, mass());  // unequal masses: a kernel that drops m_j fails
            }
            break;
        case Bodies::coincident: {
            // About four bodies on each site, and the first and last bodies on the same one.
            std::vector<Vec> sites(size_t(std::max(1, n / 4)));
            for (Vec& s : sites) s = in_cube();
            for (float4& x : b) x = at(sites[size_t(rng.integer(0, int64_t(sites.size()) - 1))], mass());
            b.back() = make_float4(b[0].x, b[0].y, b[0].z, b.back().w);
            break;
        }
        case Bodies::zero_masses:
            for (float4& x : b) x = at(in_cube(), rng.next() % 4 == 0 ? (rng.next() & 1 ? 0.0 : -0.0) : mass());
            break;
        case Bodies::mixed:
            // Distances from 10⁻³ to 10³ and masses over twelve orders of magnitude.
            for (float4& x : b) {
                const Vec c = in_cube();
                const double scale = std::exp2(rng.uniform(-10, 10));
                x = at({c.x * scale, c.y * scale, c.z * scale}, std::exp2(rng.uniform(-20, 20)) / n);
            }
            break;
    }
    return b;
}

// ---------------------------------------------------------------- the float64 reference

// The exact acceleration of body i (from the float inputs, in double) and, per component,
// Σ_j |m_j (r_j − r_i)_c| / s³, the scale of its rounding error.
struct Exact {
    double a[3] = {0, 0, 0}, magnitude[3] = {0, 0, 0};
};
Exact exact_at(const std::vector<float4>& p, size_t i, float eps2) {
    Exact e;
    const float4 me = p[i];
    for (const float4& o : p) {
        const double d[3] = {double(o.x) - me.x, double(o.y) - me.y, double(o.z) - me.z};
        const double s2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + double(eps2);
        const double w = double(o.w) / (s2 * std::sqrt(s2));
        for (int c = 0; c < 3; ++c) e.a[c] += w * d[c], e.magnitude[c] += std::fabs(w * d[c]);
    }
    return e;
}

// The expected x, y, z of the listed bodies, as entries 3i + c of the flattened result. The
// bodies are shared among a few threads (host_chunks.hpp), each body's sum taken as on one:
// n = 4099 over five kinds of bodies made most of an exercise's 0.5–1.0 s of checks (#19).
std::vector<grader::Expected> expected_for(const std::vector<float4>& p, float eps2, const std::vector<size_t>& bodies) {
    const double tol = gamma_n(int(p.size()));
    std::vector<grader::Expected> out(3 * bodies.size());
    const size_t per_part = std::max<size_t>(1, (size_t(1) << 20) / std::max<size_t>(1, p.size()));  // ~1M interactions
    grader::for_each_part(bodies.size(), per_part, [&](size_t b0, size_t b1, size_t) {
        for (size_t b = b0; b < b1; ++b) {
            const size_t i = bodies[b];
            const Exact e = exact_at(p, i, eps2);
            for (int c = 0; c < 3; ++c) out[3 * b + size_t(c)] = {3 * i + size_t(c), e.a[c], tol * e.magnitude[c]};
        }
    });
    return out;
}

std::vector<float> flatten_xyz(const std::vector<float4>& acc) {
    std::vector<float> out;
    out.reserve(3 * acc.size());
    for (const float4& a : acc) out.insert(out.end(), {a.x, a.y, a.z});
    return out;
}

std::string component(size_t k) { return "acc[" + std::to_string(k / 3) + "]." + "xyz"[k % 3]; }

void expect_accelerations(grader::Exercise& ex, const std::vector<float4>& got, const std::vector<float4>& p, float eps2,
                          const std::vector<size_t>& bodies, const std::string& ctx) {
    ex.expect_entries(flatten_xyz(got), expected_for(p, eps2, bodies), ctx, component);
}

std::vector<size_t> every_body(size_t n) {
    std::vector<size_t> all(n);
    for (size_t i = 0; i < n; ++i) all[i] = i;
    return all;
}

// Momentum: Σ_i m_i a_i is exactly zero (each pair's terms cancel, Newton's third law).
// Its float value may differ by Σ_i m_i · (allowed error of a_i), per component.
void expect_momentum(grader::Exercise& ex, const std::vector<float4>& got, const std::vector<float4>& p,
                     const std::vector<float4>& magnitude, const std::string& ctx) {
    const double tol = kMagnitudeSlack * gamma_n(int(p.size()));
    double sum[3] = {0, 0, 0}, bound[3] = {0, 0, 0};
    for (size_t i = 0; i < p.size(); ++i) {
        const double m = p[i].w, a[3] = {got[i].x, got[i].y, got[i].z};
        const double g[3] = {magnitude[i].x, magnitude[i].y, magnitude[i].z};
        for (int c = 0; c < 3; ++c) sum[c] += m * a[c], bound[c] += std::fabs(m) * tol * g[c];
    }
    for (int c = 0; c < 3; ++c)
        if (!(std::fabs(sum[c]) <= bound[c]))
            ex.reject(grader::Reason::wrong,
                      ctx + format(": the momentum sum Σ m_i a_i.%c is %.4g; the pairs cancel exactly, so it must be 0 "
                                   "within %.3g (the allowed error of every body added up)",
                                   "xyz"[c], sum[c], bound[c]));
}

std::vector<float4> magnitudes_of(const grader::DeviceBuffer<float4>& pos, float eps2) {
    grader::DeviceBuffer<float4> out(pos.size(), "magnitude sums");
    variants::magnitudes(pos.data(), out.data(), int(pos.size()), eps2);
    return out.download();
}

// ---------------------------------------------------------------- checks on the device
// For every timed call (fresh bodies each time) and for the untimed sizes whose float64 host
// reference would take seconds: bodies made on the device, the whole result compared there.

// Bodies under `key`: positions of a Plummer sphere of unit scale radius, as plummer_body
// draws them (the radius from the inverse of the cumulative mass, cut at 10 scale radii; a
// uniform direction), masses uniform in [0.5, 1.5) / n — all unequal, as in draw_bodies.
__global__ void fill_bodies_kernel(float4* pos, int n, uint64_t key) {
    // M(10) = 10³ / (1 + 10²)^{3/2}: the mass within 10 scale radii; no radius past 10 is drawn.
    const double within_10 = 1000.0 / (101.0 * sqrt(101.0));
    const uint64_t cos_key = grader::rekey(key, 1), phi_key = grader::rekey(key, 2), mass_key = grader::rekey(key, 3);
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        const double m = within_10 * (1 - grader::unit_interval(grader::hash64(key, uint64_t(i))));  // in (0, M(10)]
        const double radius = 1 / sqrt(pow(m, -2.0 / 3) - 1);
        const double c = 2 * grader::unit_interval(grader::hash64(cos_key, uint64_t(i))) - 1, s = sqrt(1 - c * c);
        const double phi = 2 * kPi * grader::unit_interval(grader::hash64(phi_key, uint64_t(i)));
        const double mass = (0.5 + grader::unit_interval(grader::hash64(mass_key, uint64_t(i)))) / n;
        pos[i] = make_float4(float(radius * s * cos(phi)), float(radius * s * sin(phi)), float(radius * c), float(mass));
    }
}
void fill_bodies(float4* pos, int n, uint64_t key) {
    fill_bodies_kernel<<<(n + 255) / 256, 256>>>(pos, n, key);
    CUDA_CHECK(cudaGetLastError());
}

// The x, y, z of a result (w is not part of it), and of the grader's result and bound.
__global__ void xyz_of(const float4* __restrict__ got, const float4* __restrict__ expected,
                       const float4* __restrict__ magnitude, int n, float* __restrict__ got3, float* __restrict__ expected3,
                       float* __restrict__ scale3) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        const float4 g = got[i], e = expected[i], m = magnitude[i];
        got3[3 * i] = g.x, got3[3 * i + 1] = g.y, got3[3 * i + 2] = g.z;
        expected3[3 * i] = e.x, expected3[3 * i + 1] = e.y, expected3[3 * i + 2] = e.z;
        scale3[3 * i] = m.x, scale3[3 * i + 1] = m.y, scale3[3 * i + 2] = m.z;
    }
}

// A whole result of n bodies against the grader's own (variants::checked: the accelerations
// in float and, per component, the magnitude sum g). Component c of body i passes within
// 2 · kMagnitudeSlack · γ_{n+32} · g_c(i) of the grader's value: the lesson's bound twice,
// since a correct kernel lies within γ_{n+32} G_c(i) of the exact acceleration ("tolerance"
// above) and the grader's float result, a correct kernel too, within as much again; G, the
// exact magnitude sum, is at most kMagnitudeSlack · g.
class DeviceCheck {
public:
    // For results of up to `capacity` bodies.
    explicit DeviceCheck(int capacity)
        : capacity_(capacity), expected_(size_t(capacity), "the grader's accelerations"),
          magnitude_(size_t(capacity), "magnitude sums"), got3_(3 * size_t(capacity), "acc x, y, z"),
          expected3_(3 * size_t(capacity), "the grader's x, y, z"), scale3_(3 * size_t(capacity), "magnitude sums x, y, z") {}

    // FAIL (wrong) unless acc[0 … n−1] holds the accelerations of the n bodies in pos.
    void expect(grader::Exercise& ex, const float4* pos, const float4* acc, int n, float eps2, const std::string& ctx) {
        if (n > capacity_) throw std::logic_error("grader bug: DeviceCheck of more bodies than it was made for");
        variants::checked(pos, expected_.data(), magnitude_.data(), n, eps2);
        xyz_of<<<(n + 255) / 256, 256>>>(acc, expected_.data(), magnitude_.data(), n, got3_.data(), expected3_.data(),
                                         scale3_.data());
        CUDA_CHECK(cudaGetLastError());
        ex.expect_on_device(got3_.data(), expected3_.data(), 3 * size_t(n), {0, 2 * kMagnitudeSlack * gamma_n(n)}, ctx,
                            scale3_.data(), component);
    }

private:
    int capacity_;
    grader::DeviceBuffer<float4> expected_, magnitude_;
    grader::DeviceBuffer<float> got3_, expected3_, scale3_;
};

// ---------------------------------------------------------------- correctness on small sizes

using Launcher = void (*)(const float4*, float4*, int, float);

const int kSizes[] = {1, 2, 3, 31, 257, 1000, 4099};
// compute-sanitizer instruments every shared-memory access: only the sizes up to this one,
// which still cover four tiles of 256 bodies (a double-buffered tile loop races only from the
// third tile on).
constexpr int kSanitizerMaxN = 1000;
// Every n from 1 to this one as well, one kind of bodies each in turn: fewer bodies than a
// warp, a tile or one block's share, wherever a launcher changes path by n.
constexpr int kDenseUpTo = 64;
const float kEps2[] = {1e-4f, 2.5e-3f, 1e-2f};

std::string eps2_text(float eps2) { return format("eps2 = %g", double(eps2)); }

// One untimed call on bodies drawn on the host, checked against the float64 host reference.
void check_drawn(grader::Exercise& ex, const char* name, Launcher launch, int n, Bodies kind, float eps2, grader::Rng& rng) {
    std::vector<float4> host = draw_bodies(kind, n, rng);
    grader::DeviceBuffer<float4> pos(host, "pos_mass"), acc(size_t(n), "acc");
    const std::string ctx = format("%s, n = %d, %s, %s", name, n, bodies_name(kind), eps2_text(eps2).c_str());
    grader::Call call(ctx, [&] { launch(pos.data(), acc.data(), n, eps2); });
    call.input(pos, "pos_mass").output(acc, "acc").verify([&] {
        expect_accelerations(ex, acc.download(), host, eps2, every_body(size_t(n)), ctx);
    });
    ex.check(call);
}

void check_sizes(grader::Exercise& ex, const char* name, Launcher launch) {
    auto rng = ex.rng("bodies");
    size_t k = 0;
    for (int n : kSizes) {
        if (grader::sanitizer_mode() && n > kSanitizerMaxN) continue;
        for (Bodies kind : kAllBodies) check_drawn(ex, name, launch, n, kind, kEps2[k++ % std::size(kEps2)], rng);
    }
    for (int n = 1; n <= kDenseUpTo; ++n)
        check_drawn(ex, name, launch, n, kAllBodies[size_t(n) % std::size(kAllBodies)], kEps2[k++ % std::size(kEps2)], rng);
}

// One untimed call on n bodies made on the device (fill_bodies), checked there (DeviceCheck):
// for sizes whose float64 host reference would take seconds. Not under compute-sanitizer.
void check_on_device(grader::Exercise& ex, const char* name, Launcher launch, int n, const std::string& why) {
    const float eps2 = 2.5e-3f;
    grader::DeviceBuffer<float4> pos(size_t(n), "pos_mass"), acc(size_t(n), "acc");
    fill_bodies(pos.data(), n, ex.rng(format("bodies on the device, n = %d", n)).next());
    DeviceCheck check(n);
    const std::string ctx = format("%s, n = %d bodies of a Plummer sphere (%s), %s", name, n, why.c_str(), eps2_text(eps2).c_str());
    grader::Call call(ctx, [&] { launch(pos.data(), acc.data(), n, eps2); });
    call.input(pos, "pos_mass").output(acc, "acc").verify([&] { check.expect(ex, pos.data(), acc.data(), n, eps2, ctx); });
    ex.check(call);
}

// ---------------------------------------------------------------- 08.3: every path by n and SM count
// The reference (solutions/08-nbody/3_split.cu) gives each body the fewest threads P of 1,
// 2, 4 and 8 that make at least two blocks of 256 threads per SM, so which P runs depends on
// n and on the SM count. These sizes make it take every P on any GPU of 16 to 144 SMs (the
// static_assert below proves it). Each is one less than twice the one before: some size lies
// in every interval (a, 2a] from 1531 on, so a launcher that switches P wherever its block
// count (doubling with P) crosses any multiple of the SM count is taken down each of its
// paths too; every size is odd, a multiple of no tile or block.
constexpr int kSplitSweep[] = {1531, 3061, 6121, 12241, 24481, 48961, 97921};

constexpr int reference_threads_per_body(int n, int sms) {
    int p = 1;
    while (p < 8 && (n + 256 / p - 1) / (256 / p) < 2 * sms) p *= 2;
    return p;
}
constexpr bool sweep_takes_every_path(int min_sms, int max_sms) {
    for (int sms = min_sms; sms <= max_sms; ++sms) {
        bool taken[9] = {};
        for (int n : kSplitSweep) taken[reference_threads_per_body(n, sms)] = true;
        if (!(taken[1] && taken[2] && taken[4] && taken[8])) return false;
    }
    return true;
}
static_assert(sweep_takes_every_path(16, 144), "kSplitSweep misses a path of the 08.3 reference on some SM count");

void check_split_paths(grader::Exercise& ex, const char* name, Launcher launch) {
    if (grader::sanitizer_mode() || grader::yardstick_run()) return;
    for (int n : kSplitSweep)
        check_on_device(ex, name, launch, n,
                        format("%d threads per body in the reference on this GPU", reference_threads_per_body(n, grader::gpu().sms)));
}

// ---------------------------------------------------------------- the leapfrog check
// The grader integrates a Plummer cluster with kick-drift-kick leapfrog in float64 state,
// calling the launcher for the accelerations (positions rounded to float). No damping.
// Leapfrog conserves the shadow energy H̃ = E + dt² ((1/12) vᵀ∇²U v − (1/24) Σ m |a|²)
// up to O(dt⁴), so |E(T) − E(0)| ≤ |c(0)| + |c(T)| + (energy the acceleration errors
// inject), where c = H̃ − E. The grader doubles the first part (for the higher orders)
// and bounds the second from the tolerance of every call (theory page, "Energy and
// momentum over a leapfrog run").

struct State {
    std::vector<Vec> r, v;
    std::vector<double> m;
    size_t size() const { return m.size(); }
};

double energy(const State& s, float eps2) {
    double kinetic = 0, potential = 0;
    for (size_t i = 0; i < s.size(); ++i) {
        kinetic += 0.5 * s.m[i] * (s.v[i].x * s.v[i].x + s.v[i].y * s.v[i].y + s.v[i].z * s.v[i].z);
        for (size_t j = i + 1; j < s.size(); ++j) {
            const double dx = s.r[j].x - s.r[i].x, dy = s.r[j].y - s.r[i].y, dz = s.r[j].z - s.r[i].z;
            potential -= s.m[i] * s.m[j] / std::sqrt(dx * dx + dy * dy + dz * dz + double(eps2));
        }
    }
    return kinetic + potential;
}

// c = H̃ − E to order dt² for kick-drift-kick: dt² ((1/12) vᵀ∇²U v − (1/24) Σ m |a|²), the
// Hessian term summed over pairs as m_i m_j (|w|²/s³ − 3 (d·w)²/s⁵), w = v_j − v_i.
double shadow_term(const State& s, float eps2, double dt) {
    double hessian = 0, force = 0;
    for (size_t i = 0; i < s.size(); ++i) {
        Vec a;
        for (size_t j = 0; j < s.size(); ++j) {
            const double dx = s.r[j].x - s.r[i].x, dy = s.r[j].y - s.r[i].y, dz = s.r[j].z - s.r[i].z;
            const double s2 = dx * dx + dy * dy + dz * dz + double(eps2), s3 = s2 * std::sqrt(s2);
            a.x += s.m[j] * dx / s3, a.y += s.m[j] * dy / s3, a.z += s.m[j] * dz / s3;
            if (j <= i) continue;
            const double wx = s.v[j].x - s.v[i].x, wy = s.v[j].y - s.v[i].y, wz = s.v[j].z - s.v[i].z;
            const double dw = dx * wx + dy * wy + dz * wz;
            hessian += s.m[i] * s.m[j] * ((wx * wx + wy * wy + wz * wz) / s3 - 3 * dw * dw / (s3 * s2));
        }
        force += s.m[i] * (a.x * a.x + a.y * a.y + a.z * a.z);
    }
    return dt * dt * (hessian / 12 - force / 24);
}

struct LeapfrogSetup {
    int n, steps;
    double dt;
    float eps2;
};
// dt = 1/128 is about 1/50 of the time a body needs to cross eps = 0.05 at the typical
// speed, and 100 steps cover about half a crossing time of the cluster.
LeapfrogSetup leapfrog_setup() { return grader::sanitizer_mode() ? LeapfrogSetup{257, 20, 1.0 / 128, 2.5e-3f}
                                                                  : LeapfrogSetup{1531, 100, 1.0 / 128, 2.5e-3f}; }

void check_leapfrog(grader::Exercise& ex, const char* name, Launcher launch) {
    const LeapfrogSetup L = leapfrog_setup();
    auto rng = ex.rng("leapfrog");
    State s;
    s.r.resize(size_t(L.n)), s.v.resize(size_t(L.n)), s.m.resize(size_t(L.n));
    for (size_t i = 0; i < s.size(); ++i) {
        plummer_body(rng, s.r[i], s.v[i]);
        s.m[i] = double(float(rng.uniform(0.5, 1.5) / L.n));  // unequal, and exactly the float the launcher reads
    }
    std::vector<float4> host(static_cast<size_t>(L.n));
    grader::DeviceBuffer<float4> pos(size_t(L.n), "pos_mass"), acc(size_t(L.n), "acc");
    std::vector<Vec> a(static_cast<size_t>(L.n));
    std::vector<double> tol(static_cast<size_t>(L.n));  // allowed |â_i − a_i| of the latest call (a vector norm)
    int step = 0;
    const std::string what = format("%s in a leapfrog run (Plummer cluster, n = %d, %s, dt = 1/128)", name, L.n,
                                    eps2_text(L.eps2).c_str());
    grader::Call call(what, [&] { launch(pos.data(), acc.data(), L.n, L.eps2); });
    call.input(pos, "pos_mass").output(acc, "acc").verify([&] {
        const std::vector<float4> got = acc.download(), g = magnitudes_of(pos, L.eps2);
        expect_momentum(ex, got, host, g, format("%s, step %d", what.c_str(), step));
        const double gam = gamma_n(L.n);
        for (size_t i = 0; i < got.size(); ++i) {
            a[i] = {got[i].x, got[i].y, got[i].z};
            // The call's own rounding, plus the positions' rounding to float: moving a body
            // by δ changes each pair term by at most 2 m_j |δ| / s³ (theory page).
            tol[i] = kMagnitudeSlack * (gam * (g[i].x + g[i].y + g[i].z) + 2 * kU * g[i].w);
        }
    });
    // Each call's accelerations kick the velocities twice (half a step each): the energy
    // their error can inject is at most dt Σ m_i |â_i − a_i| (|v_i| + dt |â_i|).
    double injected = 0;
    auto evaluate = [&] {
        for (size_t i = 0; i < host.size(); ++i) host[i] = at(s.r[i], s.m[i]);
        pos.upload(host);
        ex.check(call);
    };
    auto inject = [&] {
        for (size_t i = 0; i < s.size(); ++i) injected += L.dt * s.m[i] * tol[i] * (norm(s.v[i]) + L.dt * norm(a[i]));
    };
    auto kick = [&] {
        for (size_t i = 0; i < s.size(); ++i)
            s.v[i].x += 0.5 * L.dt * a[i].x, s.v[i].y += 0.5 * L.dt * a[i].y, s.v[i].z += 0.5 * L.dt * a[i].z;
    };
    const double e0 = energy(s, L.eps2), c0 = shadow_term(s, L.eps2, L.dt);
    evaluate();
    inject();
    for (step = 1; step <= L.steps; ++step) {
        kick();
        for (size_t i = 0; i < s.size(); ++i)
            s.r[i].x += L.dt * s.v[i].x, s.r[i].y += L.dt * s.v[i].y, s.r[i].z += L.dt * s.v[i].z;
        evaluate();
        kick();
        inject();
    }
    const double e1 = energy(s, L.eps2), c1 = shadow_term(s, L.eps2, L.dt);
    const double drift = e1 - e0, bound = 2 * (std::fabs(c0) + std::fabs(c1)) + injected + 1e-12 * std::fabs(e0);
    ex.figure("leapfrog_energy_drift", std::fabs(drift / e0));
    ex.figure("leapfrog_energy_bound", bound / std::fabs(e0));
    if (!(std::fabs(drift) <= bound))
        ex.reject(grader::Reason::wrong,
                  format("%s: the energy changed by %.3g (%.2g of |E| = %.4g) over %d steps; with correct accelerations "
                         "it stays within %.3g: twice the leapfrog's own dt² terms (%.2g at the start, %.2g at the "
                         "end) plus %.3g that the allowed float error of %d calls can inject. Forces that are not "
                         "the gradient of the softened potential, or results that do not follow the positions, "
                         "drift",
                         what.c_str(), drift, std::fabs(drift / e0), std::fabs(e0), L.steps, bound, c0, c1, injected,
                         L.steps + 1));
}

void check_contract(grader::Exercise& ex, const char* name, Launcher launch) {
    // Not in the yardstick program: its checks do nothing there, and the energy check below
    // would judge accelerations that no call computed.
    if (grader::yardstick_run()) return;
    check_sizes(ex, name, launch);
    if (!grader::sanitizer_mode()) check_on_device(ex, name, launch, kLargestN, "the contract's largest n");
    check_leapfrog(ex, name, launch);
}

// ---------------------------------------------------------------- timed calls

// The share of n a timed call's size may lie below it: the work grows with n², so half the
// library's 1 % (grader/common/timed_sizes.hpp). At n = 65536 a band of 256 bodies: every remainder
// modulo a block or tile of 256 bodies, or 128 with two bodies per thread.
constexpr double kTimedBandShare = grader::kBandShare / 2;

// One launcher on up to `n` bodies, timed. Before every timed call the bodies are made
// afresh on the device (fill_bodies, under a key no launcher can predict), and after it the
// whole result is checked there (DeviceCheck). Each call has `used` bodies, drawn for it from
// the band below n; its time counts as n²'s at its speed. `host`: what pos holds before the
// first timed call, drawn on the host.
struct TimedCall {
    int n, used;
    float eps2 = 2.5e-3f;
    std::vector<float4> host;
    grader::DeviceBuffer<float4> pos, acc;
    DeviceCheck check;
    grader::Call call;

    TimedCall(grader::Exercise& ex, const char* name, Launcher launch, int n_)
        : n(n_), used(n_), host(plummer_bodies(ex, n_)), pos(host, "pos_mass"), acc(size_t(n_), "acc"), check(n_),
          call(format("%s, timed, n from %d to %d bodies of a Plummer sphere, %s", name,
                      n_ - int(grader::band_span(size_t(n_), kTimedBandShare)), n_, eps2_text(eps2).c_str()),
               [this, launch] { launch(pos.data(), acc.data(), used, eps2); }) {
        call.input(pos, "pos_mass").output(acc, "acc");
        call.timed_size([this](grader::SizeDraw& d) {
            used = int(d.pick(size_t(n), grader::band_span(size_t(n), kTimedBandShare)));
            pos.use(size_t(used));
            acc.use(size_t(used));
            const double r = double(used) / double(n);
            return grader::RunSize{r * r, format("n = %d", used)};  // the flops: n² interactions
        });
        call.timed_inputs([this](uint64_t key) { fill_bodies(pos.data(), used, key); });
        call.timed_verify([this, &ex] { check.expect(ex, pos.data(), acc.data(), used, eps2, call.context()); });
    }
    static std::vector<float4> plummer_bodies(grader::Exercise& ex, int n) {
        auto rng = ex.rng("timed bodies");
        return draw_bodies(Bodies::plummer, n, rng);
    }
};

// The 08.3 baseline through the student's call, into its acc: every run gets fresh bodies
// and its whole result is checked against the grader's (DeviceCheck: variants::checked, a
// kernel of its own), as the student's is, so that a wrong grader kernel stops the grader
// (Exercise::baseline) instead of passing for a fast ceiling.
grader::Baseline time_baseline(grader::Exercise& ex, TimedCall& t) {
    const char* name = "one thread per body (tiled, rsqrtf)";
    grader::Call call =
        t.call.with_launch(name, [&] { variants::one_thread_per_body(t.pos.data(), t.acc.data(), t.used, t.eps2); });
    return ex.baseline(name, work(t.n), call, false);
}

// A few sampled bodies, for the teaching table's "wrong" cells.
bool sample_is_right(const grader::DeviceBuffer<float4>& acc, const std::vector<float4>& host, float eps2) {
    const std::vector<size_t> bodies = {0, 1, host.size() / 2, host.size() - 1};
    return grader::compare_entries(flatten_xyz(acc.download()), expected_for(host, eps2, bodies)).ok();
}

}  // namespace

// ---------------------------------------------------------------- exercises

GRADER_EXERCISE("08.0 interaction table") {
    ex.teaching_only();  // INFO, never graded; SKIP under compute-sanitizer
    ex.theory("The teaching table");
    const double peak = grader::ceilings().get(grader::ceiling::fma_gflops);
    const float eps2 = 2.5e-3f;
    auto rng = ex.rng("table");
    const std::vector<float4> host = draw_bodies(Bodies::plummer, kTimedN, rng);
    const int n = kTimedN;
    grader::DeviceBuffer<float4> pos(host, "pos_mass"), acc(size_t(n), "acc");
    // The same bodies as four arrays and as the notes' 28-byte structures.
    std::vector<float> hx, hy, hz, hm;
    std::vector<variants::Body7> h7;
    for (const float4& b : host) {
        hx.push_back(b.x), hy.push_back(b.y), hz.push_back(b.z), hm.push_back(b.w);
        h7.push_back({b.x, b.y, b.z, 0.f, 0.f, 0.f, b.w});
    }
    grader::DeviceBuffer<float> x(hx, "x"), y(hy, "y"), z(hz, "z"), m(hm, "m");
    grader::DeviceBuffer<variants::Body7> b7(h7, "bodies");
    const float4* p = pos.data();
    float4* a = acc.data();
    using variants::InvCube;
    auto right = [&] { return sample_is_right(acc, host, eps2); };

    grader::TeachingTable::Options o;
    o.first_header = "one thread per body, n = 65536 (08.1, 08.2)";
    o.unit = "GFLOP/s";
    o.show_ms = true;
    o.percent_of = {"FMA peak"};
    o.timing = {1, 5, true};  // few runs: the slowest rows take tens of ms per call
    o.before_check = [&] { acc.poison(); };
    grader::TeachingTable table(ex, o);
    table.compare_with({peak});
    const grader::Work w = work(n);
    table.heading("where the bodies come from (1 / sqrtf)");
    table.row("global memory, every body (08.1 starter)", "naive_recip_sqrt_gflops", w,
              [&](int) { variants::naive(p, a, n, eps2, InvCube::recip_sqrt); });
#ifdef LESSON08_ANSWER_KERNELS  // a reference's row: not in the student release (nbody_variants.cuh)
    table.row("tiles of blockDim.x in shared memory (08.1 reference)", "tiled_runtime_recip_sqrt_gflops", w,
              [&](int) { variants::tiled_runtime(p, a, n, eps2, InvCube::recip_sqrt); });
#endif
    table.heading("the same two with rsqrtf");
    table.row("global memory, every body (the notes' kernel)", "naive_rsqrt_gflops", w,
              [&](int) { variants::naive(p, a, n, eps2, InvCube::rsqrt); });
    table.row("tiles of blockDim.x in shared memory", "tiled_runtime_rsqrt_gflops", w,
              [&](int) { variants::tiled_runtime(p, a, n, eps2, InvCube::rsqrt); });
    table.heading("tile of 256 fixed at compile time, rsqrtf, unrolled");
#ifdef LESSON08_ANSWER_KERNELS
    const std::string reference = " (08.2 reference)";
#else  // the grader's own kernel of the reference's shape (nbody_variants.cuh)
    const std::string reference = " (the 08.2 reference's shape)";
#endif
    for (int u : {1, 2, 4, 8, 16, 256})
        table.row("#pragma unroll " + std::to_string(u) + (u == variants::kReferenceUnroll ? reference : ""),
                  "unroll_" + std::to_string(u) + "_gflops", w,
                  [&, u](int) { variants::tiled_fixed(p, a, n, eps2, InvCube::rsqrt, u); });
    table.heading("the inverse cube, tile 256, unroll " + std::to_string(variants::kReferenceUnroll));
    const int U = variants::kReferenceUnroll;
    table.row("1.0f / sqrtf(r2), cubed", "fixed_recip_sqrt_gflops", w,
              [&](int) { variants::tiled_fixed(p, a, n, eps2, InvCube::recip_sqrt, U); });
    table.row("powf(r2, -1.5f)", "fixed_pow_gflops", w,
              [&](int) { variants::tiled_fixed(p, a, n, eps2, InvCube::pow, U); });
    table.row("in double (a stray double literal)", "fixed_double_gflops", w,
              [&](int) { variants::tiled_fixed(p, a, n, eps2, InvCube::double_math, U); });
    table.row("rsqrt.approx.ftz.f32 (no subnormal fix-up)", "fixed_rsqrt_ftz_gflops", w,
              [&](int) { variants::tiled_fixed(p, a, n, eps2, InvCube::rsqrt_ftz, U); });
    table.heading("layouts, rsqrtf (the float4 rows: naive rsqrtf and unroll 16 above)");
    table.row("global memory, four arrays x, y, z, m", "naive_soa_gflops", w,
              [&](int) { variants::naive_soa(x.data(), y.data(), z.data(), m.data(), a, n, eps2); });
    table.row("global memory, 7-float structures", "naive_aos7_gflops", w,
              [&](int) { variants::naive_aos7(b7.data(), a, n, eps2); });
    table.row("tiles as four shared arrays", "tiled_soa_gflops", w,
              [&](int) { variants::tiled_soa(x.data(), y.data(), z.data(), m.data(), a, n, eps2); });
    table.row("float4 tiles filled from 7-float structures", "tiled_aos7_gflops", w,
              [&](int) { variants::tiled_aos7(b7.data(), a, n, eps2); });
    table.heading("yours");
    table.row("your nbody_tiled (08.1)", "student_08_1_gflops", w, [&](int) { nbody_tiled(p, a, n, eps2); }, true, {},
              right);
    table.row("your nbody_unrolled (08.2)", "student_08_2_gflops", w, [&](int) { nbody_unrolled(p, a, n, eps2); }, true,
              {}, right);
    table.row("your nbody_split (08.3)", "student_08_3_gflops", w, [&](int) { nbody_split(p, a, n, eps2); }, true, {},
              right);
    table.print(format("All pairs of %d Plummer bodies on this GPU, 20 flops per interaction (G interactions/s = "
                       "GFLOP/s ÷ 20); FP32 FMA peak measured now: %.0f GFLOP/s. Median of %d runs:",
                       n, peak, o.timing.runs));
#ifndef LESSON08_ANSWER_KERNELS
    std::printf("      Not in the student release, which holds no answer: the row of the 08.1 reference, and below, the rows\n"
                "      of several threads per body; the unroll-%d row and the 08.3 baseline are the grader's own kernel of\n"
                "      the 08.2 reference's shape.\n",
                variants::kReferenceUnroll);
#endif

    // Threads per body at 08.3's timed n: half a block of 256 per SM with one thread per body.
    const int small = split_timed_n();
    const std::vector<float4> host_small(host.begin(), host.begin() + small);
    const std::string small_name = format("pos_mass (n = %d)", small);
    grader::DeviceBuffer<float4> pos_small(host_small, small_name.c_str()), acc_small(size_t(small), "acc");
    const float4* ps = pos_small.data();
    float4* as = acc_small.data();
    grader::TeachingTable::Options o2 = o;
    o2.first_header = format("threads per body, n = %d (08.3)", small);
    o2.percent_of = {"1 thread per body", "FMA peak"};
    o2.before_check = [&] { acc_small.poison(); };
    grader::TeachingTable split(ex, o2);
    const grader::Work ws = work(small);
    split.compare_with({0, peak});
#ifdef LESSON08_ANSWER_KERNELS
    const char* one_label = "1 (08.3 starter and baseline)";
#else
    const char* one_label = "1 (the 08.3 baseline)";
#endif
    const double one = split.row(one_label, "split_1_gflops", ws,
                                 [&](int) { variants::split(ps, as, small, eps2, 1); });
    split.compare_with({one, peak});
#ifdef LESSON08_ANSWER_KERNELS  // several threads per body pass 08.3: not in the student release
    for (int t : {2, 4, 8, 16})
        split.row(std::to_string(t), "split_" + std::to_string(t) + "_gflops", ws,
                  [&, t](int) { variants::split(ps, as, small, eps2, t); });
#endif
    split.row("your nbody_split (08.3)", "student_08_3_small_gflops", ws,
              [&](int) { nbody_split(ps, as, small, eps2); }, true, {},
              [&] { return sample_is_right(acc_small, host_small, eps2); });
    const int sms = grader::gpu().sms;
    split.print(format("The first %d of the same bodies (128 per SM); blocks of 256 threads, so %d × P blocks for %d SMs:",
                       small, (small + 255) / 256, sms));
}

GRADER_EXERCISE("08.1 shared-memory tiles") {
    ex.theory("Tiles in shared memory");
    const char* hint = "load the bodies tile by tile into a __shared__ array (one body per thread, then __syncthreads()), "
                       "take every interaction of the tile from there, and __syncthreads() again before the next tile";
    ex.hint(hint);
    if (kTilingOverlapsNaive)
        ex.threshold_overlaps_previous("tiles change where one load per interaction comes from, and on this GPU that "
                                       "gains too little for a threshold between the naive and the tiled kernel, so the "
                                       "tile loop is checked in your compiled code; compare "
                                       "the first two rows of the 08.0 table (theory.md, \"Tiles in shared memory\")");
    check_contract(ex, "nbody_tiled", nbody_tiled);
    TimedCall t(ex, "nbody_tiled", nbody_tiled, kTimedN);
    ex.diagnose_slow({"the speed of the starter's naive kernel",
                      [&] { variants::naive(t.pos.data(), t.acc.data(), t.used, t.eps2, variants::InvCube::recip_sqrt); },
                      hint,
                      "the tiles are there; check that the block has 128 threads or more and that every thread reads "
                      "its tile entries from shared memory (theory.md, \"Tiles in shared memory\")"});
    const grader::Work w = work(t.n);
    ex.grade(grader::roofline(w.bytes, w.flops), t.call);
}

GRADER_EXERCISE("08.2 the inner loop") {
    ex.theory("The inner loop, instruction by instruction");
    const char* hint = "make the tile size a compile-time constant, pad the last tile with massless bodies, "
                       "#pragma unroll the inner loop, and use rsqrtf(r2) instead of 1.0f / sqrtf(r2)";
    ex.hint(hint);
    check_contract(ex, "nbody_unrolled", nbody_unrolled);
    TimedCall t(ex, "nbody_unrolled", nbody_unrolled, kTimedN);
#ifdef LESSON08_ANSWER_KERNELS  // the student release has no reference's kernel to time: the plain hint
    ex.diagnose_slow({"the speed of the 08.1 reference (tiles of blockDim.x, 1 / sqrtf)",
                      [&] {
                          variants::tiled_runtime(t.pos.data(), t.acc.data(), t.used, t.eps2, variants::InvCube::recip_sqrt);
                      },
                      hint,
                      "look for what the compiler could not simplify: a powf, a double constant or a double function "
                      "in the interaction, a loop it cannot unroll (compare your row with the 08.0 table)"});
#endif
    const grader::Work w = work(t.n);
    ex.grade(grader::roofline(w.bytes, w.flops), t.call);
}

GRADER_EXERCISE("08.3 several threads per body") {
    ex.theory("Small n: several threads per body");
    const char* hint = "give each body several threads (P = 4 or 8), each taking one part of every tile, and add "
                       "their partial sums at the end: P times more blocks for the SMs to share";
    ex.hint(hint);
    check_contract(ex, "nbody_split", nbody_split);
    check_split_paths(ex, "nbody_split", nbody_split);
    TimedCall t(ex, "nbody_split", nbody_split, split_timed_n());
    const grader::Baseline baseline = time_baseline(ex, t);
    ex.diagnose_slow({"the speed of one thread per body",
                      [&] { variants::one_thread_per_body(t.pos.data(), t.acc.data(), t.used, t.eps2); }, hint,
#ifdef LESSON08_ANSWER_KERNELS
                      "the work is split but not fast enough: compare your row with the threads-per-body sweep of the "
                      "08.0 table (too few blocks, a warp reading several parts of the tile, or a slow combining step)"});
#else  // the student release has no sweep (nbody_variants.cuh)
                      "the work is split but not fast enough: look for too few blocks, a warp reading several parts of "
                      "the tile, or a slow combining step"});
#endif
    ex.grade(grader::versus(baseline), t.call);
}
