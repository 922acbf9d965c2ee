// SPDX-License-Identifier: MIT
#include <algorithm>
#include <cstdint>

#include "grader/common/cuda_check.cuh"
#include "grader/common/session.hpp"
#include "grader/exercise/device_checks.cuh"
#include "grader/exercise/guarded_memory.hpp"

namespace grader {

namespace {

// Counts elements of kWords 32-bit words that are all 0xFFFFFFFF (kWords = 0: single
// bytes). One atomic per warp: the count is only ever compared with zero or reported.
template <int kWords>
__global__ void count_poison_kernel(const void* data, size_t elements, unsigned long long* count) {
    unsigned long long mine = 0;
    for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < elements; i += size_t(gridDim.x) * blockDim.x) {
        bool all = true;
        if constexpr (kWords == 0) {
            all = static_cast<const unsigned char*>(data)[i] == 0xFF;
        } else {
            const unsigned* w = static_cast<const unsigned*>(data) + i * kWords;
#pragma unroll
            for (int k = 0; k < kWords; ++k) all = all && w[k] == 0xFFFFFFFFu;
        }
        mine += all;
    }
    for (int offset = 16; offset > 0; offset /= 2) mine += __shfl_down_sync(0xffffffffu, mine, offset);
    if (threadIdx.x % 32 == 0 && mine) atomicAdd(count, mine);
}

// splitmix64's finalizer: every input bit changes about half the output bits.
__device__ __forceinline__ unsigned long long mix(unsigned long long z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// Sum over 8-byte words of mix(word, index): order-independent, so blocks may add in any
// order, and a change of any bit at any place changes it (barring a 2^-64 coincidence).
__global__ void checksum_kernel(const unsigned long long* words, size_t n, const unsigned char* tail, int tail_bytes,
                                unsigned long long* out) {
    unsigned long long mine = 0;
    for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
        mine += mix(words[i] ^ (i * 0x9E3779B97F4A7C15ull));
    if (blockIdx.x == 0 && threadIdx.x == 0)
        for (int k = 0; k < tail_bytes; ++k) mine += mix((unsigned long long)tail[k] ^ ((n + k + 1) * 0xD1B54A32D192ED03ull));
    for (int offset = 16; offset > 0; offset /= 2) mine += __shfl_down_sync(0xffffffffu, mine, offset);
    if (threadIdx.x % 32 == 0) atomicAdd(out, mine);
}

unsigned long long* device_counter() {
    static unsigned long long* counter = nullptr;
    if (!counter) CUDA_CHECK(cudaMalloc(&counter, sizeof *counter));
    CUDA_CHECK(cudaMemset(counter, 0, sizeof *counter));
    return counter;
}

unsigned long long read_counter(unsigned long long* counter) {
    CUDA_CHECK(cudaGetLastError());
    unsigned long long v = 0;
    CUDA_CHECK(cudaMemcpy(&v, counter, sizeof v, cudaMemcpyDeviceToHost));
    return v;
}

unsigned grid_for(size_t items) { return unsigned(std::max<size_t>(1, std::min<size_t>((items + 255) / 256, size_t(gpu().sms) * 8))); }

}  // namespace

size_t count_poisoned(const void* data, size_t bytes, size_t element_bytes) {
    if (bytes == 0 || element_bytes == 0) return 0;
    unsigned long long* count = device_counter();
    const size_t elements = bytes / element_bytes;
    const unsigned grid = grid_for(elements);
    if (element_bytes % 4 == 0 && reinterpret_cast<uintptr_t>(data) % 4 == 0) {
        switch (element_bytes / 4) {
            case 1: count_poison_kernel<1><<<grid, 256>>>(data, elements, count); break;
            case 2: count_poison_kernel<2><<<grid, 256>>>(data, elements, count); break;
            case 4: count_poison_kernel<4><<<grid, 256>>>(data, elements, count); break;
            default: count_poison_kernel<1><<<grid, 256>>>(data, bytes / 4, count);  // word by word
        }
    } else {
        count_poison_kernel<0><<<grid, 256>>>(data, bytes, count);  // byte by byte
    }
    return size_t(read_counter(count));
}

uint64_t device_checksum(const void* data, size_t bytes) {
    unsigned long long* sum = device_counter();
    const size_t words = reinterpret_cast<uintptr_t>(data) % 8 == 0 ? bytes / 8 : 0;
    const auto* tail = static_cast<const unsigned char*>(data) + 8 * words;
    checksum_kernel<<<grid_for(words), 256>>>(static_cast<const unsigned long long*>(data), words, tail, int(bytes - 8 * words), sum);
    return read_counter(sum);
}

uint64_t GuardedMemory::checksum() const { return device_checksum(device_address(), bytes()); }

size_t GuardedMemory::count_poisoned(size_t element_bytes) const {
    return grader::count_poisoned(device_address(), bytes(), element_bytes);
}

}  // namespace grader
