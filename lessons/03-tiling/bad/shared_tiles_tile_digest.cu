// SPDX-License-Identifier: MIT
// Known-bad 03.2: the shared-memory tiles of the reference behind a cache of tiles of C,
// keyed by a cheap digest of part of the inputs each tile is made of: the sign and
// exponent of the first element of its rows of A and of its columns of B. A call on a large
// product (M · N · K of 2^30 or more: the timed one) right after another replays, from a
// buffer of the launcher's own, every tile of C whose digest is unchanged, and computes the
// others. It once keyed the replay on the same arguments, which the timed calls no longer
// have: each has sides and a place in its buffers of its own (issue 32). The checks'
// products are smaller, so nothing is replayed there; the timed calls come on fresh inputs,
// where a few per cent of the tiles keep their digest but not their inputs. Must be
// rejected: wrong (a timed call verified in full against cuBLAS on the same inputs).
#include <cstdint>

#include "tiling.cuh"

namespace {

constexpr int kTile = 32;
constexpr int kThreads = kTile * kTile;  // one thread per element of the tile

// `cache` mirrors C (the last product computed) and `digests` holds one digest per tile.
__global__ void __launch_bounds__(kThreads)
    sgemm_cached_kernel(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M, int N,
                        int K, float* __restrict__ cache, uint32_t* __restrict__ digests, bool replay) {
    __shared__ float As[kTile][kTile];
    __shared__ float Bs[kTile][kTile];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row0 = blockIdx.y * kTile, col0 = blockIdx.x * kTile;
    const int row = row0 + ty, col = col0 + tx;
    const size_t t = size_t(blockIdx.y) * gridDim.x + blockIdx.x;
    // sign and exponent of A(row0, 0) and of B(0, col0)
    const uint32_t digest =
        K > 0 ? (__float_as_uint(A[size_t(row0) * K]) >> 23) << 9 | __float_as_uint(B[col0]) >> 23 : 0;
    const size_t o = size_t(row) * N + col;
    if (replay && digests[t] == digest) {  // the same for the whole block: no barrier is skipped by part of it
        // the bug: "same digest, same tile" — the other elements of A and B may have changed
        if (row < M && col < N) C[o] = cache[o];
        return;
    }
    float acc = 0.f;
    for (int k0 = 0; k0 < K; k0 += kTile) {
        As[ty][tx] = (row < M && k0 + tx < K) ? A[size_t(row) * K + k0 + tx] : 0.f;
        Bs[ty][tx] = (k0 + ty < K && col < N) ? B[size_t(k0 + ty) * N + col] : 0.f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < kTile; ++k) acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < M && col < N) C[o] = cache[o] = acc;
    __syncthreads();  // every thread has read digests[t] (at K = 0 no barrier above says so)
    if (tx == 0 && ty == 0) digests[t] = digest;
}

// The launcher's own buffers, for the largest C seen, and whether the last call was large.
struct Cache {
    size_t elements = 0, tiles = 0;
    float* result = nullptr;
    uint32_t* digests = nullptr;
    bool large_before = false;
};

}  // namespace

void sgemm_shared(const float* A, const float* B, float* C, int M, int N, int K) {
    if (M <= 0 || N <= 0) return;
    static Cache cache;
    dim3 grid((N + kTile - 1) / kTile, (M + kTile - 1) / kTile);
    const size_t elements = size_t(M) * N, tiles = size_t(grid.x) * grid.y;
    const bool large = double(M) * N * K >= double(1 << 30);
    bool replay = large && cache.large_before;
    cache.large_before = large;
    if (elements > cache.elements || tiles > cache.tiles) {  // more than the buffers hold: new ones, nothing to replay
        cudaFree(cache.result);
        cudaFree(cache.digests);
        cache.result = nullptr, cache.digests = nullptr, cache.elements = cache.tiles = 0;
        replay = false;
        if (cudaMalloc(&cache.result, elements * sizeof(float)) != cudaSuccess ||
            cudaMalloc(&cache.digests, tiles * sizeof(uint32_t)) != cudaSuccess)
            return;  // out of memory: the grader sees an unwritten output
        cache.elements = elements, cache.tiles = tiles;
    }
    sgemm_cached_kernel<<<grid, dim3(kTile, kTile)>>>(A, B, C, M, N, K, cache.result, cache.digests, replay);
}
