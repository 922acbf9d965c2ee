// SPDX-License-Identifier: MIT
// Known-bad 06.7: a launcher that hands the sum to CUB's device-wide reduction, the
// grader's own comparison. Run, it would be correct and as fast as CUB, and pass: only the
// static policy check can reject it, and it must, before the build
// (lessons/06-reduction/policy.txt). Must be rejected: policy.
#include <cub/device/device_reduce.cuh>

#include "reduction.cuh"

namespace {

template <class T>
void sum_with_cub(const T* in, size_t n, T* out, T* scratch) {
    size_t bytes = 0;
    cub::DeviceReduce::Sum(nullptr, bytes, in, out, n);
    void* temp = scratch;  // CUB's temporary storage, in the grader's scratch when it fits
    if (bytes > reduction_scratch_elements(n) * sizeof(T)) {
        static void* spare = nullptr;
        static size_t spare_bytes = 0;
        if (bytes > spare_bytes) cudaFree(spare), cudaMalloc(&spare, bytes), spare_bytes = bytes;
        temp = spare;
    }
    cub::DeviceReduce::Sum(temp, bytes, in, out, n);
}

}  // namespace

void reduce_step7(const float* in, size_t n, float* out, float* scratch, int) { sum_with_cub(in, n, out, scratch); }
void reduce_step7(const int* in, size_t n, int* out, int* scratch, int) { sum_with_cub(in, n, out, scratch); }
