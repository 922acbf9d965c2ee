// SPDX-License-Identifier: MIT
#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <random>
#include <type_traits>

#include "grader/common/cuda_check.cuh"
#include "grader/common/session.hpp"
#include "grader/exercise/device_inputs.cuh"
#include "grader/exercise/device_random.cuh"

namespace grader {

namespace {

template <class T>
__global__ void fill_kernel(T* data, size_t n, uint64_t key, Dist d, double lo, double hi, int64_t max_large) {
    for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
        const uint64_t h = hash64(key, i), h2 = hash64(rekey(key, 1), i);
        if constexpr (std::is_floating_point_v<T>) {
            const double span = sizeof(T) == 4 ? 20 : 60;
            double x;
            if (d == Dist::mixed) x = (h2 & 1 ? 1 : -1) * exp2(-span + 2 * span * unit_interval(h));
            else if (d == Dist::zeros && h2 % 4 == 0) x = (h2 & 4) ? 0.0 : -0.0;
            else x = lo + (hi - lo) * unit_interval(h);
            data[i] = static_cast<T>(x);
        } else if (d == Dist::large_sums) {
            data[i] = static_cast<T>(max_large / 2 + int64_t(h % uint64_t(max_large - max_large / 2 + 1)));
        } else {
            const int64_t a = int64_t(lo), b = int64_t(hi);
            data[i] = (d == Dist::zeros && h2 % 4 == 0) ? T(0) : static_cast<T>(a + int64_t(h % uint64_t(b - a + 1)));
        }
    }
}

}  // namespace

template <class T>
void fill_on_device(T* data, size_t n, uint64_t key, Dist d, double lo, double hi) {
    if (n == 0) return;
    int64_t max_large = 1;
    if constexpr (std::is_integral_v<T>)  // as draw_into(): n·max < 2^31
        max_large = std::max<int64_t>(1, std::min<int64_t>(std::numeric_limits<T>::max(), (int64_t(1) << 31) / int64_t(n) - 1));
    const unsigned grid = unsigned(std::min<size_t>((n + 255) / 256, size_t(gpu().sms) * 16));
    fill_kernel<T><<<grid, 256>>>(data, n, key, d, lo, hi, max_large);
    CUDA_CHECK(cudaGetLastError());
}

template void fill_on_device<float>(float*, size_t, uint64_t, Dist, double, double);
template void fill_on_device<double>(double*, size_t, uint64_t, Dist, double, double);
template void fill_on_device<int>(int*, size_t, uint64_t, Dist, double, double);
template void fill_on_device<unsigned int>(unsigned int*, size_t, uint64_t, Dist, double, double);
template void fill_on_device<unsigned char>(unsigned char*, size_t, uint64_t, Dist, double, double);

uint64_t fresh_key() {
    // Two sources, so that replacing one (a student's own std::random_device, say: its
    // symbols are not the grader's) still leaves the other unpredictable.
    std::random_device rd;
    const uint64_t os = (uint64_t(rd()) << 32) ^ rd();
    const uint64_t ns = uint64_t(std::chrono::high_resolution_clock::now().time_since_epoch().count());
    return hash64(os, ns);
}

}  // namespace grader
