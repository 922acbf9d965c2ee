// SPDX-License-Identifier: MIT
#include <algorithm>
#include <cmath>
#include <vector>

#include "grader/common/cuda_check.cuh"
#include "grader/common/session.hpp"
#include "grader/exercise/device_compare.cuh"

namespace grader {

namespace {

constexpr int kSlots = 16;  // wrong elements whose indices are kept for the message

struct Tally {
    unsigned long long wrong, unwritten, nan, found;
    unsigned long long index[kSlots];
};

template <class T>
__device__ bool all_ones(T v) {
    const unsigned char* b = reinterpret_cast<const unsigned char*>(&v);
    for (int k = 0; k < int(sizeof(T)); ++k)
        if (b[k] != 0xFF) return false;
    return true;
}

template <class T>
__global__ void compare_kernel(const T* got, const T* expected, const T* scale, size_t n, double abs_tol, double rel_tol,
                               Tally* t) {
    for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
        const T gv = got[i];
        const double g = double(gv), e = double(expected[i]);
        const double s = scale ? fabs(double(scale[i])) : fabs(e);
        const bool bad = isnan(g) || isnan(e) || !(fabs(g - e) <= abs_tol + rel_tol * s);
        if (!bad) continue;
        atomicAdd(&t->wrong, 1ull);
        if (all_ones(gv)) atomicAdd(&t->unwritten, 1ull);
        else if (isnan(g)) atomicAdd(&t->nan, 1ull);
        const unsigned long long slot = atomicAdd(&t->found, 1ull);
        if (slot < kSlots) t->index[slot] = i;
    }
}

Tally* device_tally() {
    static Tally* t = nullptr;  // one per process, freed by the driver at exit
    if (!t) CUDA_CHECK(cudaMalloc(&t, sizeof *t));
    CUDA_CHECK(cudaMemset(t, 0, sizeof *t));
    return t;
}

template <class T>
double element(const T* p, size_t i) {
    T v;
    CUDA_CHECK(cudaMemcpy(&v, p + i, sizeof v, cudaMemcpyDefault));  // `got` may be mapped host memory
    return double(v);
}

}  // namespace

template <class T>
Comparison compare_on_device(const T* got, const T* expected, size_t n, Tolerance tol, const T* scale, size_t keep) {
    Comparison c;
    c.checked = n;
    if (n == 0) return c;
    Tally* t = device_tally();
    const unsigned grid = unsigned(std::min<size_t>((n + 255) / 256, size_t(gpu().sms) * 16));
    compare_kernel<T><<<grid, 256>>>(got, expected, scale, n, tol.abs, tol.rel, t);
    CUDA_CHECK(cudaGetLastError());
    Tally h;
    CUDA_CHECK(cudaMemcpy(&h, t, sizeof h, cudaMemcpyDeviceToHost));
    c.wrong = size_t(h.wrong), c.unwritten = size_t(h.unwritten), c.nan = size_t(h.nan);
    std::vector<unsigned long long> idx(h.index, h.index + std::min<unsigned long long>(h.found, kSlots));
    std::sort(idx.begin(), idx.end());
    for (size_t k = 0; k < idx.size() && c.first.size() < keep; ++k) {
        const size_t i = size_t(idx[k]);
        Mismatch m;
        m.index = i, m.expected = element(expected, i), m.got = element(got, i);
        m.bound = tol.abs + tol.rel * std::fabs(scale ? element(scale, i) : m.expected);
        T raw;
        CUDA_CHECK(cudaMemcpy(&raw, got + i, sizeof raw, cudaMemcpyDefault));
        m.unwritten = is_poison(raw);
        c.first.push_back(m);
    }
    return c;
}

template Comparison compare_on_device<float>(const float*, const float*, size_t, Tolerance, const float*, size_t);
template Comparison compare_on_device<double>(const double*, const double*, size_t, Tolerance, const double*, size_t);
template Comparison compare_on_device<int>(const int*, const int*, size_t, Tolerance, const int*, size_t);
template Comparison compare_on_device<unsigned int>(const unsigned int*, const unsigned int*, size_t, Tolerance,
                                                    const unsigned int*, size_t);

}  // namespace grader
