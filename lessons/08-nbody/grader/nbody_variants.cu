// SPDX-License-Identifier: MIT
// The grader's N-body kernels (see nbody_variants.cuh). Grader code: students never edit
// or link their own version of it. A variant that stands for a course kernel (a starter's
// or a reference's) runs a copy of it, marked `// copy of` and checked by
// tools/tests/test_kernel_copies.py, launched as its file launches it: the teaching table,
// the slow diagnoses and 08.3's baseline then time the kernel the student starts from or
// aims at, down to the order of its additions. The blocks marked student-release: omit hold
// the copies of the references' kernels, which the release leaves out (nbody_variants.cuh).
#include <stdexcept>
#include <string>

#include "grader/common/cuda_check.cuh"
#include "grader/common/session.hpp"
#include "nbody_variants.cuh"

namespace variants {
namespace {

constexpr int kBlock = 256;  // threads per block and bodies per tile, everywhere here
#ifdef LESSON08_ANSWER_KERNELS
constexpr bool kAnswerKernels = true;
#else
constexpr bool kAnswerKernels = false;  // the student release (nbody_variants.cuh)
#endif

__device__ __forceinline__ float rsqrt_ftz(float x) {
    float r;
    asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
    return r;
}

template <InvCube M>
__device__ __forceinline__ float inv_cube(float r2) {
    if constexpr (M == InvCube::rsqrt) {
        const float r = rsqrtf(r2);
        return r * r * r;
    } else if constexpr (M == InvCube::rsqrt_ftz) {
        const float r = rsqrt_ftz(r2);
        return r * r * r;
    } else if constexpr (M == InvCube::recip_sqrt) {
        const float r = 1.0f / sqrtf(r2);
        return r * r * r;
    } else if constexpr (M == InvCube::pow) {
        return powf(r2, -1.5f);
    } else {
        return float(1.0 / (double(r2) * sqrt(double(r2))));
    }
}

// The interaction as 08.2's and 08.3's references write it: eps2 first, so each square is
// one FFMA, and m·(r·r·r). (08.1's files sum r2 from dx² and take m·r·r·r: see tiled below.)
template <InvCube M>
__device__ __forceinline__ void add_interaction(float4 me, float4 other, float eps2, float3& a) {
    const float dx = other.x - me.x, dy = other.y - me.y, dz = other.z - me.z;
    const float r2 = dx * dx + (dy * dy + (dz * dz + eps2));
    const float s = other.w * inv_cube<M>(r2);
    a.x += dx * s;
    a.y += dy * s;
    a.z += dz * s;
}

__device__ __forceinline__ float4 body_or_nothing(const float4* pos_mass, int j, int n) {
    return j < n ? pos_mass[j] : make_float4(0.f, 0.f, 0.f, 0.f);
}

__device__ __forceinline__ void store(float4* acc, int i, int n, float3 a) {
    if (i < n) acc[i] = make_float4(a.x, a.y, a.z, 0.f);
}

int blocks_for(int n, int bodies_per_block) { return (n + bodies_per_block - 1) / bodies_per_block; }

// ------------------------------------------------------------------ the course's kernels
// Each in a namespace of its own, beside copies of what it uses from its file under the same
// names (add_interaction, kBlock, kTile, kUnroll): the files give add_interaction different
// bodies.

// 08.1's starter (naive) and reference (tiled), which is 08.2's starter: 1 / sqrtf, r2
// summed from dx², m·r·r·r.
namespace tiled {

constexpr int kBlock = 256;  // as in the three files

// copy of starter/08-nbody/1_tiled.cu: add_interaction
// copy of starter/08-nbody/2_unrolled.cu: add_interaction
// student-release: omit (the release has no solutions/ for this marker to name)
// copy of solutions/08-nbody/1_tiled.cu: add_interaction
// student-release: end
__device__ __forceinline__ void add_interaction(float4 me, float4 other, float eps2, float3& a) {
    const float dx = other.x - me.x, dy = other.y - me.y, dz = other.z - me.z;
    const float r2 = dx * dx + dy * dy + dz * dz + eps2;
    const float inv = 1.0f / sqrtf(r2);
    const float s = other.w * inv * inv * inv;
    a.x += dx * s;
    a.y += dy * s;
    a.z += dz * s;
}

// copy of starter/08-nbody/1_tiled.cu: nbody_naive_kernel
__global__ void naive_kernel(const float4* __restrict__ pos_mass, float4* __restrict__ acc, int n, float eps2) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const float4 me = pos_mass[i];
    float3 a = make_float3(0.f, 0.f, 0.f);
    for (int j = 0; j < n; ++j) add_interaction(me, pos_mass[j], eps2, a);
    acc[i] = make_float4(a.x, a.y, a.z, 0.f);
}

// student-release: omit (the 08.1 reference)
// copy of solutions/08-nbody/1_tiled.cu: nbody_tiled_kernel
// copy of starter/08-nbody/2_unrolled.cu: nbody_runtime_tile_kernel
__global__ void tiled_kernel(const float4* __restrict__ pos_mass, float4* __restrict__ acc, int n, float eps2) {
    extern __shared__ float4 tile[];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const float4 me = i < n ? pos_mass[i] : make_float4(0.f, 0.f, 0.f, 0.f);
    float3 a = make_float3(0.f, 0.f, 0.f);
    for (int base = 0; base < n; base += blockDim.x) {
        const int j = base + threadIdx.x;
        if (j < n) tile[threadIdx.x] = pos_mass[j];
        __syncthreads();
        const int count = min(int(blockDim.x), n - base);
        for (int k = 0; k < count; ++k) add_interaction(me, tile[k], eps2, a);
        __syncthreads();
    }
    if (i < n) acc[i] = make_float4(a.x, a.y, a.z, 0.f);
}
// student-release: end

}  // namespace tiled

// student-release: omit (the 08.2 reference)
// 08.2's reference, which is 08.3's starter and baseline: tiles of 256 fixed at compile
// time, the last one padded, unrolled 16 times, rsqrtf. (fixed_kernel below computes the
// same for P = 1, but it is not the file's code.)
namespace unrolled {

constexpr int kTile = 256;   // as in both files
constexpr int kUnroll = 16;  // as in both files

// copy of solutions/08-nbody/2_unrolled.cu: add_interaction
// copy of starter/08-nbody/3_split.cu: add_interaction
__device__ __forceinline__ void add_interaction(float4 me, float4 other, float eps2, float3& a) {
    const float dx = other.x - me.x, dy = other.y - me.y, dz = other.z - me.z;
    const float r2 = dx * dx + (dy * dy + (dz * dz + eps2));
    const float inv = rsqrtf(r2);
    const float s = other.w * (inv * inv * inv);
    a.x += dx * s;
    a.y += dy * s;
    a.z += dz * s;
}

// copy of solutions/08-nbody/2_unrolled.cu: nbody_unrolled_kernel
// copy of starter/08-nbody/3_split.cu: nbody_one_per_body_kernel
__global__ void __launch_bounds__(kTile)
    unrolled_kernel(const float4* __restrict__ pos_mass, float4* __restrict__ acc, int n, float eps2) {
    __shared__ float4 tile[kTile];
    const int i = blockIdx.x * kTile + threadIdx.x;
    const float4 me = i < n ? pos_mass[i] : make_float4(0.f, 0.f, 0.f, 0.f);
    float3 a = make_float3(0.f, 0.f, 0.f);
    for (int base = 0; base < n; base += kTile) {
        const int j = base + threadIdx.x;
        tile[threadIdx.x] = j < n ? pos_mass[j] : make_float4(0.f, 0.f, 0.f, 0.f);
        __syncthreads();
#pragma unroll kUnroll
        for (int k = 0; k < kTile; ++k) add_interaction(me, tile[k], eps2, a);
        __syncthreads();
    }
    if (i < n) acc[i] = make_float4(a.x, a.y, a.z, 0.f);
}

// With the grid and block of 2_unrolled.cu's and 3_split.cu's launchers.
static_assert(kTile == kBlock && kUnroll == kReferenceUnroll,
              "the 08.2 reference is the tile-256, unroll-16 row of tiled_fixed");
void launch(const float4* pos_mass, float4* acc, int n, float eps2) {
    unrolled_kernel<<<(n + kTile - 1) / kTile, kTile>>>(pos_mass, acc, n, eps2);
}

}  // namespace unrolled
// student-release: end

// ------------------------------------------------------------------ one thread per body
// The shapes of tiled's two kernels with add_interaction<M> above (eps2 first): the
// table's rsqrtf rows, which stand for no course file.

template <InvCube M>
__global__ void naive_kernel(const float4* __restrict__ pos_mass, float4* __restrict__ acc, int n, float eps2) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const float4 me = pos_mass[i];
    float3 a = make_float3(0.f, 0.f, 0.f);
    for (int j = 0; j < n; ++j) add_interaction<M>(me, pos_mass[j], eps2, a);
    store(acc, i, n, a);
}

template <InvCube M>
__global__ void tiled_runtime_kernel(const float4* __restrict__ pos_mass, float4* __restrict__ acc, int n, float eps2) {
    extern __shared__ float4 tile[];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const float4 me = body_or_nothing(pos_mass, i, n);
    float3 a = make_float3(0.f, 0.f, 0.f);
    for (int base = 0; base < n; base += blockDim.x) {
        if (base + int(threadIdx.x) < n) tile[threadIdx.x] = pos_mass[base + threadIdx.x];
        __syncthreads();
        const int count = min(int(blockDim.x), n - base);
        for (int k = 0; k < count; ++k) add_interaction<M>(me, tile[k], eps2, a);
        __syncthreads();
    }
    store(acc, i, n, a);
}

// P threads per body (P = 1: one thread per body); thread `part` of a body takes the
// part-th slice of every tile. The same kernel serves tiled_fixed (P = 1) and split. With P > 1
// it passes 08.3, whose answer no starter ships: the student release has P = 1 only.
template <InvCube M, int kUnroll, int P>
__global__ void __launch_bounds__(kBlock)
    fixed_kernel(const float4* __restrict__ pos_mass, float4* __restrict__ acc, int n, float eps2) {
    constexpr int kBodies = kBlock / P, kPart = kBlock / P;
    __shared__ float4 tile[kBlock];
    // student-release: omit (several threads per body: 08.3)
    __shared__ float3 partial[P > 1 ? kBlock : 1];
    // student-release: end
    const int body = threadIdx.x % kBodies, part = threadIdx.x / kBodies;
    const int i = blockIdx.x * kBodies + body;
    const float4 me = body_or_nothing(pos_mass, i, n);
    float3 a = make_float3(0.f, 0.f, 0.f);
    for (int base = 0; base < n; base += kBlock) {
        tile[threadIdx.x] = body_or_nothing(pos_mass, base + threadIdx.x, n);
        __syncthreads();
        const float4* mine = tile + part * kPart;
#pragma unroll kUnroll
        for (int k = 0; k < kPart; ++k) add_interaction<M>(me, mine[k], eps2, a);
        __syncthreads();
    }
    // student-release: omit
    if constexpr (P > 1) {
        partial[threadIdx.x] = a;
        __syncthreads();
        if (part != 0) return;
        for (int p = 1; p < P; ++p) {
            const float3 b = partial[p * kBodies + body];
            a.x += b.x, a.y += b.y, a.z += b.z;
        }
    }
    // student-release: end
    static_assert(P == 1 || kAnswerKernels, "several threads per body: not in the student release");
    store(acc, i, n, a);
}

template <InvCube M, int kUnroll, int P = 1>
void launch_fixed(const float4* pos_mass, float4* acc, int n, float eps2) {
    fixed_kernel<M, kUnroll, P><<<blocks_for(n, kBlock / P), kBlock>>>(pos_mass, acc, n, eps2);
}

// One thread per body, tiles of 256 fixed, unrolled kReferenceUnroll times, rsqrtf: the 08.2
// reference's kernel, which is the 08.3 starter's, where the grader has it; in the student
// release, which holds no answer, the grader's own kernel of that shape (fixed_kernel, P = 1),
// which adds the same terms in the same order.
void one_per_body(const float4* pos_mass, float4* acc, int n, float eps2) {
#ifdef LESSON08_ANSWER_KERNELS
    unrolled::launch(pos_mass, acc, n, eps2);
#else
    launch_fixed<InvCube::rsqrt, kReferenceUnroll>(pos_mass, acc, n, eps2);
#endif
}

// ------------------------------------------------------------------ other layouts

__global__ void naive_soa_kernel(const float* __restrict__ x, const float* __restrict__ y, const float* __restrict__ z,
                                 const float* __restrict__ m, float4* __restrict__ acc, int n, float eps2) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const float4 me = make_float4(x[i], y[i], z[i], m[i]);
    float3 a = make_float3(0.f, 0.f, 0.f);
    for (int j = 0; j < n; ++j) add_interaction<InvCube::rsqrt>(me, make_float4(x[j], y[j], z[j], m[j]), eps2, a);
    store(acc, i, n, a);
}

__device__ __forceinline__ float4 position_mass(const Body7& b) { return make_float4(b.x, b.y, b.z, b.m); }

__global__ void naive_aos7_kernel(const Body7* __restrict__ bodies, float4* __restrict__ acc, int n, float eps2) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const float4 me = position_mass(bodies[i]);
    float3 a = make_float3(0.f, 0.f, 0.f);
    for (int j = 0; j < n; ++j) add_interaction<InvCube::rsqrt>(me, position_mass(bodies[j]), eps2, a);
    store(acc, i, n, a);
}

__global__ void __launch_bounds__(kBlock)
    tiled_soa_kernel(const float* __restrict__ x, const float* __restrict__ y, const float* __restrict__ z,
                     const float* __restrict__ m, float4* __restrict__ acc, int n, float eps2) {
    __shared__ float tx[kBlock], ty[kBlock], tz[kBlock], tm[kBlock];
    const int i = blockIdx.x * kBlock + threadIdx.x;
    const float4 me = i < n ? make_float4(x[i], y[i], z[i], m[i]) : make_float4(0.f, 0.f, 0.f, 0.f);
    float3 a = make_float3(0.f, 0.f, 0.f);
    for (int base = 0; base < n; base += kBlock) {
        const int j = base + threadIdx.x;
        tx[threadIdx.x] = j < n ? x[j] : 0.f;
        ty[threadIdx.x] = j < n ? y[j] : 0.f;
        tz[threadIdx.x] = j < n ? z[j] : 0.f;
        tm[threadIdx.x] = j < n ? m[j] : 0.f;
        __syncthreads();
#pragma unroll kReferenceUnroll
        for (int k = 0; k < kBlock; ++k)
            add_interaction<InvCube::rsqrt>(me, make_float4(tx[k], ty[k], tz[k], tm[k]), eps2, a);
        __syncthreads();
    }
    store(acc, i, n, a);
}

__global__ void __launch_bounds__(kBlock)
    tiled_aos7_kernel(const Body7* __restrict__ bodies, float4* __restrict__ acc, int n, float eps2) {
    __shared__ float4 tile[kBlock];
    const int i = blockIdx.x * kBlock + threadIdx.x;
    const float4 me = i < n ? position_mass(bodies[i]) : make_float4(0.f, 0.f, 0.f, 0.f);
    float3 a = make_float3(0.f, 0.f, 0.f);
    for (int base = 0; base < n; base += kBlock) {
        const int j = base + threadIdx.x;
        tile[threadIdx.x] = j < n ? position_mass(bodies[j]) : make_float4(0.f, 0.f, 0.f, 0.f);
        __syncthreads();
#pragma unroll kReferenceUnroll
        for (int k = 0; k < kBlock; ++k) add_interaction<InvCube::rsqrt>(me, tile[k], eps2, a);
        __syncthreads();
    }
    store(acc, i, n, a);
}

// ------------------------------------------------------------------ for the checks

__global__ void magnitudes_kernel(const float4* __restrict__ pos_mass, float4* __restrict__ out, int n, float eps2) {
    __shared__ float4 tile[kBlock];
    const int i = blockIdx.x * kBlock + threadIdx.x;
    const float4 me = body_or_nothing(pos_mass, i, n);
    const float my_r = sqrtf(me.x * me.x + me.y * me.y + me.z * me.z);
    float4 sum = make_float4(0.f, 0.f, 0.f, 0.f);
    for (int base = 0; base < n; base += kBlock) {
        tile[threadIdx.x] = body_or_nothing(pos_mass, base + threadIdx.x, n);
        __syncthreads();
        for (int k = 0; k < kBlock; ++k) {
            const float4 o = tile[k];
            const float dx = o.x - me.x, dy = o.y - me.y, dz = o.z - me.z;
            const float r2 = dx * dx + dy * dy + dz * dz + eps2;
            const float w = fabsf(o.w) / (r2 * sqrtf(r2));  // accurate: IEEE sqrt and division
            sum.x += w * fabsf(dx);
            sum.y += w * fabsf(dy);
            sum.z += w * fabsf(dz);
            sum.w += w * (my_r + sqrtf(o.x * o.x + o.y * o.y + o.z * o.z));
        }
        __syncthreads();
    }
    if (i < n) out[i] = sum;
}

// P threads per body as in fixed_kernel, each adding the interaction as split() does and,
// from the same differences, the terms of magnitudes_kernel (w = |m_j| / s³, IEEE square
// root and division, every term positive).
template <int P>
__global__ void __launch_bounds__(kBlock)
    checked_kernel(const float4* __restrict__ pos_mass, float4* __restrict__ acc, float4* __restrict__ magnitude, int n,
                   float eps2) {
    constexpr int kBodies = kBlock / P, kPart = kBlock / P;
    __shared__ float4 tile[kBlock];
    // student-release: omit (several threads per body: 08.3)
    __shared__ float3 partial_a[P > 1 ? kBlock : 1], partial_g[P > 1 ? kBlock : 1];
    // student-release: end
    const int body = threadIdx.x % kBodies, part = threadIdx.x / kBodies;
    const int i = blockIdx.x * kBodies + body;
    const float4 me = body_or_nothing(pos_mass, i, n);
    float3 a = make_float3(0.f, 0.f, 0.f), g = make_float3(0.f, 0.f, 0.f);
    for (int base = 0; base < n; base += kBlock) {
        tile[threadIdx.x] = body_or_nothing(pos_mass, base + threadIdx.x, n);
        __syncthreads();
        const float4* mine = tile + part * kPart;
#pragma unroll 8
        for (int k = 0; k < kPart; ++k) {
            const float4 o = mine[k];
            add_interaction<InvCube::rsqrt>(me, o, eps2, a);
            const float dx = o.x - me.x, dy = o.y - me.y, dz = o.z - me.z;
            const float r2 = dx * dx + (dy * dy + (dz * dz + eps2));
            const float w = fabsf(o.w) / (r2 * sqrtf(r2));
            g.x += w * fabsf(dx);
            g.y += w * fabsf(dy);
            g.z += w * fabsf(dz);
        }
        __syncthreads();
    }
    // student-release: omit
    if constexpr (P > 1) {
        partial_a[threadIdx.x] = a, partial_g[threadIdx.x] = g;
        __syncthreads();
        if (part != 0) return;
        for (int p = 1; p < P; ++p) {
            const float3 b = partial_a[p * kBodies + body], h = partial_g[p * kBodies + body];
            a.x += b.x, a.y += b.y, a.z += b.z;
            g.x += h.x, g.y += h.y, g.z += h.z;
        }
    }
    // student-release: end
    static_assert(P == 1 || kAnswerKernels, "several threads per body: not in the student release");
    if (i < n) acc[i] = make_float4(a.x, a.y, a.z, 0.f), magnitude[i] = make_float4(g.x, g.y, g.z, 0.f);
}

template <int P>
void launch_checked(const float4* pos_mass, float4* acc, float4* magnitude, int n, float eps2) {
    checked_kernel<P><<<blocks_for(n, kBlock / P), kBlock>>>(pos_mass, acc, magnitude, n, eps2);
}

[[noreturn]] void unsupported(const char* what, int value) {
    throw std::invalid_argument(std::string("variants: no ") + what + " " + std::to_string(value));
}

}  // namespace

void naive(const float4* pos_mass, float4* acc, int n, float eps2, InvCube math) {
    const int blocks = blocks_for(n, kBlock);
    switch (math) {
        case InvCube::rsqrt: naive_kernel<InvCube::rsqrt><<<blocks, kBlock>>>(pos_mass, acc, n, eps2); break;
        case InvCube::recip_sqrt:  // the 08.1 starter, with its file's grid and block
            tiled::naive_kernel<<<(n + tiled::kBlock - 1) / tiled::kBlock, tiled::kBlock>>>(pos_mass, acc, n, eps2);
            break;
        default: unsupported("naive kernel with math", int(math));
    }
}

void tiled_runtime(const float4* pos_mass, float4* acc, int n, float eps2, InvCube math) {
    const int blocks = blocks_for(n, kBlock);
    const size_t shared = kBlock * sizeof(float4);
    switch (math) {
        case InvCube::rsqrt:
            tiled_runtime_kernel<InvCube::rsqrt><<<blocks, kBlock, shared>>>(pos_mass, acc, n, eps2);
            break;
        // student-release: omit
        case InvCube::recip_sqrt: {  // the 08.1 reference, with its file's grid, block and shared memory
            const int grid = (n + tiled::kBlock - 1) / tiled::kBlock;
            tiled::tiled_kernel<<<grid, tiled::kBlock, tiled::kBlock * sizeof(float4)>>>(pos_mass, acc, n, eps2);
            break;
        }
        // student-release: end
        default: unsupported("run-time tile kernel with math", int(math));
    }
}

void tiled_fixed(const float4* pos_mass, float4* acc, int n, float eps2, InvCube math, int unroll) {
    constexpr int U = kReferenceUnroll;
    if (math == InvCube::rsqrt) {
        switch (unroll) {
            case 1: return launch_fixed<InvCube::rsqrt, 1>(pos_mass, acc, n, eps2);
            case 2: return launch_fixed<InvCube::rsqrt, 2>(pos_mass, acc, n, eps2);
            case 4: return launch_fixed<InvCube::rsqrt, 4>(pos_mass, acc, n, eps2);
            case 8: return launch_fixed<InvCube::rsqrt, 8>(pos_mass, acc, n, eps2);
            case 16: return one_per_body(pos_mass, acc, n, eps2);  // the 08.2 reference
            case 256: return launch_fixed<InvCube::rsqrt, 256>(pos_mass, acc, n, eps2);
            default: unsupported("unroll factor", unroll);
        }
    }
    if (unroll != U) unsupported("unroll factor for this math", unroll);
    switch (math) {
        case InvCube::rsqrt_ftz: return launch_fixed<InvCube::rsqrt_ftz, U>(pos_mass, acc, n, eps2);
        case InvCube::recip_sqrt: return launch_fixed<InvCube::recip_sqrt, U>(pos_mass, acc, n, eps2);
        case InvCube::pow: return launch_fixed<InvCube::pow, U>(pos_mass, acc, n, eps2);
        case InvCube::double_math: return launch_fixed<InvCube::double_math, U>(pos_mass, acc, n, eps2);
        default: unsupported("fixed tile kernel with math", int(math));
    }
}

void one_thread_per_body(const float4* pos_mass, float4* acc, int n, float eps2) {
    one_per_body(pos_mass, acc, n, eps2);
}

void split(const float4* pos_mass, float4* acc, int n, float eps2, int threads_per_body) {
    // student-release: omit (several threads per body: 08.3's answer)
    constexpr auto M = InvCube::rsqrt;
    constexpr int U = kReferenceUnroll;
    // student-release: end
    switch (threads_per_body) {
        case 1: return one_per_body(pos_mass, acc, n, eps2);  // the 08.3 starter
        // student-release: omit
        case 2: return launch_fixed<M, U, 2>(pos_mass, acc, n, eps2);
        case 4: return launch_fixed<M, U, 4>(pos_mass, acc, n, eps2);
        case 8: return launch_fixed<M, U, 8>(pos_mass, acc, n, eps2);
        case 16: return launch_fixed<M, U, 16>(pos_mass, acc, n, eps2);
        // student-release: end
        default: unsupported("threads per body", threads_per_body);
    }
}

void naive_soa(const float* x, const float* y, const float* z, const float* m, float4* acc, int n, float eps2) {
    naive_soa_kernel<<<blocks_for(n, kBlock), kBlock>>>(x, y, z, m, acc, n, eps2);
}
void naive_aos7(const Body7* bodies, float4* acc, int n, float eps2) {
    naive_aos7_kernel<<<blocks_for(n, kBlock), kBlock>>>(bodies, acc, n, eps2);
}
void tiled_soa(const float* x, const float* y, const float* z, const float* m, float4* acc, int n, float eps2) {
    tiled_soa_kernel<<<blocks_for(n, kBlock), kBlock>>>(x, y, z, m, acc, n, eps2);
}
void tiled_aos7(const Body7* bodies, float4* acc, int n, float eps2) {
    tiled_aos7_kernel<<<blocks_for(n, kBlock), kBlock>>>(bodies, acc, n, eps2);
}

void checked(const float4* pos_mass, float4* acc, float4* magnitude, int n, float eps2) {
    int p = 1;
    // student-release: omit (several threads per body: the student release checks with one)
    while (p < 8 && blocks_for(n, kBlock / p) < 2 * grader::gpu().sms) p *= 2;  // the SMs this process may use (--sms included)
    // student-release: end
    switch (p) {
        case 1: launch_checked<1>(pos_mass, acc, magnitude, n, eps2); break;
        // student-release: omit
        case 2: launch_checked<2>(pos_mass, acc, magnitude, n, eps2); break;
        case 4: launch_checked<4>(pos_mass, acc, magnitude, n, eps2); break;
        default: launch_checked<8>(pos_mass, acc, magnitude, n, eps2); break;
        // student-release: end
    }
    CUDA_CHECK(cudaGetLastError());
}

void magnitudes(const float4* pos_mass, float4* out, int n, float eps2) {
    magnitudes_kernel<<<blocks_for(n, kBlock), kBlock>>>(pos_mass, out, n, eps2);
    CUDA_CHECK(cudaGetLastError());
}

}  // namespace variants
