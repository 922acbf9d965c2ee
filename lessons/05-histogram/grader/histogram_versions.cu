// SPDX-License-Identifier: MIT
// The grader's own histograms (histogram_versions.cuh). A version that stands for a course
// kernel (a starter's or a reference's) is a copy of it, marked `// copy of` and checked by
// tools/tests/test_kernel_copies.py, and launched as its file launches it: the teaching
// table, the slow diagnoses and the thresholds then time the kernel the student starts
// from or aims at. The others are the same few building blocks — bins in shared memory,
// filled with atomics and merged into the global bins once per block — combined with
// different ways of walking the input. The blocks marked student-release: omit hold the
// copies of the references' kernels, which the release leaves out.
#include <cuda_runtime.h>

#include <map>

#include "grader/common/cuda_check.cuh"
#include "histogram.cuh"
#include "histogram_versions.cuh"

namespace {

constexpr int kBins = kHistogramBins;
constexpr int kOneBytePerThreadBlock = 1024;  // the notes' block size
constexpr int kCoarsenedBlock = 512;          // 32 KiB of per-lane bins: 4 blocks per SM fit on Hopper

__device__ __forceinline__ size_t smaller(size_t a, size_t b) { return a < b ? a : b; }

// The block's bins, in kCopies copies: bin v of copy c is word v * kCopies + c, and lane
// l of every warp counts into copy l % kCopies. With 32 copies the 32 lanes of a warp
// touch 32 different words in 32 different banks, whatever the bytes are.
template <int kCopies>
__device__ __forceinline__ void zero_bins(unsigned int* s) {
    for (int k = threadIdx.x; k < kBins * kCopies; k += blockDim.x) s[k] = 0;
}

template <int kCopies>
__device__ __forceinline__ void add_byte(unsigned int* s, unsigned int v) {
    atomicAdd(&s[v * kCopies + (kCopies > 1 ? threadIdx.x % kCopies : 0)], 1u);
}

template <int kCopies>
__device__ __forceinline__ void add_word(unsigned int* s, unsigned int w) {
    add_byte<kCopies>(s, w & 0xFFu);
    add_byte<kCopies>(s, (w >> 8) & 0xFFu);
    add_byte<kCopies>(s, (w >> 16) & 0xFFu);
    add_byte<kCopies>(s, w >> 24);
}

template <int kCopies>
__device__ __forceinline__ void add_uint4(unsigned int* s, uint4 x) {
    add_word<kCopies>(s, x.x);
    add_word<kCopies>(s, x.y);
    add_word<kCopies>(s, x.z);
    add_word<kCopies>(s, x.w);
}

// One global atomic per non-zero bin. Thread v sums the copies of bin v starting at copy
// v % kCopies, so that the threads of a warp read different banks at every step.
template <int kCopies>
__device__ __forceinline__ void merge_bins(const unsigned int* s, unsigned int* bins) {
    for (int v = threadIdx.x; v < kBins; v += blockDim.x) {
        unsigned int sum = 0;
        for (int c = 0; c < kCopies; ++c) sum += s[v * kCopies + (c + v) % kCopies];
        if (sum > 0) atomicAdd(&bins[v], sum);
    }
}

// 05.1's threshold is 4 × this kernel's speed: it must stay what the starter runs.
// copy of starter/05-histogram/1_privatized.cu: histogram_global_kernel
__global__ void global_atomics_kernel(const unsigned char* in, size_t n, unsigned int* bins) {
    const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&bins[in[i]], 1u);
}

// student-release: omit (the 05.1, 05.2 and 05.3 references)
// The course kernels that use names of their own file (kBlock, count16, …) live in one
// namespace per reference file, beside copies of what they use under the same names: the
// files give those names different meanings.

// 05.1's reference, which is 05.2's starter (05.2's slow diagnosis times it): one byte per
// thread into one copy of the bins.
namespace privatized {

constexpr int kBlock = 1024;  // as in both files

// copy of solutions/05-histogram/1_privatized.cu: histogram_privatized_kernel
// copy of starter/05-histogram/2_coarsened.cu: histogram_coarsened_kernel
__global__ void __launch_bounds__(kBlock)
    kernel(const unsigned char* __restrict__ in, size_t n, unsigned int* __restrict__ bins) {
    __shared__ unsigned int s[kHistogramBins];
    for (int v = threadIdx.x; v < kHistogramBins; v += blockDim.x) s[v] = 0;
    __syncthreads();
    const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&s[in[i]], 1u);
    __syncthreads();
    for (int v = threadIdx.x; v < kHistogramBins; v += blockDim.x) {
        const unsigned int count = s[v];
        if (count > 0) atomicAdd(&bins[v], count);
    }
}

}  // namespace privatized

// 05.2's reference, which is 05.3's starter (05.3's slow diagnosis times it): a grid
// stride over uint4s, two loads in flight, one copy of the bins.
namespace coarsened {

constexpr int kBlock = 512;  // as in both files

// copy of solutions/05-histogram/2_coarsened.cu: count_word
// copy of starter/05-histogram/3_skew_resistant.cu: count_word
__device__ __forceinline__ void count_word(unsigned int* s, unsigned int w) {
    atomicAdd(&s[w & 0xFFu], 1u);
    atomicAdd(&s[(w >> 8) & 0xFFu], 1u);
    atomicAdd(&s[(w >> 16) & 0xFFu], 1u);
    atomicAdd(&s[w >> 24], 1u);
}

// copy of solutions/05-histogram/2_coarsened.cu: count16
// copy of starter/05-histogram/3_skew_resistant.cu: count16
__device__ __forceinline__ void count16(unsigned int* s, uint4 x) {
    count_word(s, x.x);
    count_word(s, x.y);
    count_word(s, x.z);
    count_word(s, x.w);
}

// copy of solutions/05-histogram/2_coarsened.cu: histogram_coarsened_kernel
// copy of starter/05-histogram/3_skew_resistant.cu: histogram_skew_resistant_kernel
__global__ void __launch_bounds__(kBlock)
    kernel(const unsigned char* __restrict__ in, size_t n, unsigned int* __restrict__ bins) {
    __shared__ unsigned int s[kHistogramBins];
    for (int v = threadIdx.x; v < kHistogramBins; v += blockDim.x) s[v] = 0;
    __syncthreads();
    const uint4* in16 = reinterpret_cast<const uint4*>(in);
    const size_t n16 = n / 16, stride = size_t(gridDim.x) * blockDim.x;
    const size_t first = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    size_t i = first;
    for (; i + stride < n16; i += 2 * stride) {
        const uint4 a = in16[i], b = in16[i + stride];
        count16(s, a);
        count16(s, b);
    }
    if (i < n16) count16(s, in16[i]);
    if (first < n % 16) atomicAdd(&s[in[16 * n16 + first]], 1u);
    __syncthreads();
    for (int v = threadIdx.x; v < kHistogramBins; v += blockDim.x) {
        const unsigned int count = s[v];
        if (count > 0) atomicAdd(&bins[v], count);
    }
}

}  // namespace coarsened

// 05.3's reference: coarsened's loads, 32 copies of the bins, one per lane.
namespace skew_resistant {

constexpr int kBlock = 512;  // as in 3_skew_resistant.cu
constexpr int kCopies = 32;

// copy of solutions/05-histogram/3_skew_resistant.cu: count_word
__device__ __forceinline__ void count_word(unsigned int* mine, unsigned int w) {
    atomicAdd(&mine[(w & 0xFFu) * kCopies], 1u);
    atomicAdd(&mine[((w >> 8) & 0xFFu) * kCopies], 1u);
    atomicAdd(&mine[((w >> 16) & 0xFFu) * kCopies], 1u);
    atomicAdd(&mine[(w >> 24) * kCopies], 1u);
}

// copy of solutions/05-histogram/3_skew_resistant.cu: count16
__device__ __forceinline__ void count16(unsigned int* mine, uint4 x) {
    count_word(mine, x.x);
    count_word(mine, x.y);
    count_word(mine, x.z);
    count_word(mine, x.w);
}

// copy of solutions/05-histogram/3_skew_resistant.cu: histogram_skew_resistant_kernel
__global__ void __launch_bounds__(kBlock)
    kernel(const unsigned char* __restrict__ in, size_t n, unsigned int* __restrict__ bins) {
    __shared__ unsigned int s[kHistogramBins * kCopies];
    for (int k = threadIdx.x; k < kHistogramBins * kCopies; k += blockDim.x) s[k] = 0;
    __syncthreads();
    unsigned int* mine = s + threadIdx.x % kCopies;
    const uint4* in16 = reinterpret_cast<const uint4*>(in);
    const size_t n16 = n / 16, stride = size_t(gridDim.x) * blockDim.x;
    const size_t first = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    size_t i = first;
    for (; i + stride < n16; i += 2 * stride) {
        const uint4 a = in16[i], b = in16[i + stride];
        count16(mine, a);
        count16(mine, b);
    }
    if (i < n16) count16(mine, in16[i]);
    if (first < n % 16) atomicAdd(&mine[in[16 * n16 + first] * kCopies], 1u);
    __syncthreads();
    for (int v = threadIdx.x; v < kHistogramBins; v += blockDim.x) {
        unsigned int count = 0;
        for (int c = 0; c < kCopies; ++c) count += s[v * kCopies + (c + v) % kCopies];
        if (count > 0) atomicAdd(&bins[v], count);
    }
}

}  // namespace skew_resistant
// student-release: end

// Many bytes per thread. Interleaved: thread t reads units t, t + T, t + 2T, … (T threads
// in the grid), so a warp's load covers consecutive units. Contiguous: thread t reads the
// units of its own chunk, one after another, so a warp's load touches 32 chunks. A unit is
// one byte or one 16-byte uint4; after the uint4s the last n mod 16 bytes are counted by
// the first threads of the grid. One load per iteration: the interleaved uint4 version is
// coarsened::kernel (two in flight), so the contiguous uint4 row differs from it in that too.
template <bool kContiguous, bool kVector, int kCopies>
__global__ void __launch_bounds__(kCoarsenedBlock)
    coarsened_kernel(const unsigned char* __restrict__ in, size_t n, unsigned int* __restrict__ bins) {
    __shared__ unsigned int s[kBins * kCopies];
    zero_bins<kCopies>(s);
    __syncthreads();
    const size_t threads = size_t(gridDim.x) * blockDim.x;
    const size_t t = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    const size_t units = kVector ? n / 16 : n;
    size_t i = t, end = units, step = threads;
    if (kContiguous) {
        const size_t chunk = (units + threads - 1) / threads;
        i = smaller(t * chunk, units);
        end = smaller(i + chunk, units);
        step = 1;
    }
    for (; i < end; i += step) {
        if constexpr (kVector) add_uint4<kCopies>(s, reinterpret_cast<const uint4*>(in)[i]);
        else add_byte<kCopies>(s, in[i]);
    }
    if (kVector && t < n % 16) add_byte<kCopies>(s, in[n - n % 16 + t]);
    __syncthreads();
    merge_bins<kCopies>(s, bins);
}

// Interleaved 16-byte loads; for each of the 16 byte positions, the lanes holding the same
// value find each other with __match_any_sync and the lowest of them adds their number.
// The loop runs while the warp's first index is below the end, so the 32 lanes stay
// together for every __match_any_sync; a lane past the end holds the value kBins, which
// no lane counts.
__global__ void __launch_bounds__(kCoarsenedBlock)
    warp_aggregated_kernel(const unsigned char* __restrict__ in, size_t n, unsigned int* __restrict__ bins) {
    __shared__ unsigned int s[kBins];
    zero_bins<1>(s);
    __syncthreads();
    const uint4* in16 = reinterpret_cast<const uint4*>(in);
    const size_t n16 = n / 16, stride = size_t(gridDim.x) * blockDim.x;
    const size_t t = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    const unsigned int lane = threadIdx.x % 32;
    for (size_t i = t; i - lane < n16; i += stride) {
        const bool mine = i < n16;
        const uint4 x = mine ? in16[i] : make_uint4(0, 0, 0, 0);
        const unsigned int words[4] = {x.x, x.y, x.z, x.w};
#pragma unroll
        for (int k = 0; k < 16; ++k) {
            const unsigned int v = mine ? (words[k / 4] >> (8 * (k % 4))) & 0xFFu : unsigned(kBins);
            const unsigned int peers = __match_any_sync(0xFFFFFFFFu, v);
            if (mine && lane == unsigned(__ffs(peers) - 1)) atomicAdd(&s[v], unsigned(__popc(peers)));
        }
    }
    if (t < n % 16) atomicAdd(&s[in[n - n % 16 + t]], 1u);
    __syncthreads();
    merge_bins<1>(s, bins);
}

// Blocks of `kernel` that fit on the GPU at once, asked once per kernel.
int resident_blocks(const void* kernel, int block) {
    static std::map<const void*, int> cache;
    int& blocks = cache[kernel];
    if (blocks == 0) {
        int device = 0, sms = 0, per_sm = 0;
        CUDA_CHECK(cudaGetDevice(&device));
        CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, block, 0));
        blocks = sms * (per_sm > 0 ? per_sm : 1);
    }
    return blocks;
}

// As many blocks as fit, but none without at least one unit per thread.
unsigned int coarsened_grid(const void* kernel, size_t units) {
    const size_t useful = units / kCoarsenedBlock + 1;
    const size_t fit = size_t(resident_blocks(kernel, kCoarsenedBlock));
    return unsigned(useful < fit ? useful : fit);
}

template <bool kContiguous, bool kVector, int kCopies>
void launch_coarsened(const unsigned char* in, size_t n, unsigned int* bins) {
    const auto kernel = coarsened_kernel<kContiguous, kVector, kCopies>;
    const unsigned int blocks = coarsened_grid(reinterpret_cast<const void*>(kernel), kVector ? n / 16 : n);
    kernel<<<blocks, kCoarsenedBlock>>>(in, n, bins);
}

// student-release: omit (their launch)
// coarsened::kernel or skew_resistant::kernel, launched as 2_coarsened.cu and
// 3_skew_resistant.cu launch it: as many blocks as fit (the SM count asked of the runtime,
// as there and in resident_blocks), but none without at least one uint4 per thread.
static_assert(coarsened::kBlock == kCoarsenedBlock && skew_resistant::kBlock == kCoarsenedBlock,
              "coarsened_grid counts blocks of kCoarsenedBlock threads");
void launch_resident(void (*kernel)(const unsigned char*, size_t, unsigned int*), const unsigned char* in, size_t n,
                     unsigned int* bins) {
    kernel<<<coarsened_grid(reinterpret_cast<const void*>(kernel), n / 16), kCoarsenedBlock>>>(in, n, bins);
}
// student-release: end

}  // namespace

void histogram_version(HistogramVersion v, const unsigned char* in, size_t n, unsigned int* bins) {
    CUDA_CHECK(cudaMemsetAsync(bins, 0, kBins * sizeof(unsigned int), 0));
    if (n == 0) return;
    switch (v) {
        case HistogramVersion::global_atomics:  // the 05.1 starter's launch
            global_atomics_kernel<<<unsigned((n + kOneBytePerThreadBlock - 1) / kOneBytePerThreadBlock),
                                    kOneBytePerThreadBlock>>>(in, n, bins);
            break;
        // student-release: omit
        case HistogramVersion::privatized:  // 1_privatized.cu's launch
            privatized::kernel<<<unsigned((n + privatized::kBlock - 1) / privatized::kBlock), privatized::kBlock>>>(
                in, n, bins);
            break;
        // student-release: end
        case HistogramVersion::interleaved_bytes: launch_coarsened<false, false, 1>(in, n, bins); break;
        case HistogramVersion::contiguous_bytes: launch_coarsened<true, false, 1>(in, n, bins); break;
        // student-release: omit
        case HistogramVersion::interleaved_uint4: launch_resident(coarsened::kernel, in, n, bins); break;
        // student-release: end
        case HistogramVersion::contiguous_uint4: launch_coarsened<true, true, 1>(in, n, bins); break;
        case HistogramVersion::warp_aggregated: {
            const unsigned int blocks = coarsened_grid(reinterpret_cast<const void*>(warp_aggregated_kernel), n / 16);
            warp_aggregated_kernel<<<blocks, kCoarsenedBlock>>>(in, n, bins);
            break;
        }
        // student-release: omit
        case HistogramVersion::per_lane_copies: launch_resident(skew_resistant::kernel, in, n, bins); break;
        // student-release: end
    }
}
