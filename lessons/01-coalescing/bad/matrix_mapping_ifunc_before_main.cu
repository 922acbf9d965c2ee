// SPDX-License-Identifier: MIT
// Known-bad 01.1: the uncoalesced mapping (the unchanged starter), and an IFUNC resolver. The
// loader runs a resolver while it relocates the program, before every constructor, so before
// the start-up constructor that makes the exercise's process wait at its gate and records the
// threads alive as the grader's and the driver's (grader/exercise/exercise_process.cpp): a
// thread started here would run while other exercises are timed, and count as the grader's.
// Must be rejected: policy (lessons/policy.txt, "code that runs before main"), before anything
// is built.
#include <thread>

#include "coalescing.cuh"

namespace {

__global__ void add_matrices_kernel(const float* a, const float* b, float* c, int rows, int cols) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    int col = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < rows && col < cols) {
        size_t i = size_t(row) * cols + col;
        c[i] = a[i] + b[i];
    }
}

void keep_busy() {
    for (;;) std::this_thread::yield();  // where the GPU would be loaded
}

}  // namespace

extern "C" {
static void plain_version() {}
// The resolver: called by the loader, with the program half started.
static void (*pick_version())() {
    std::thread(keep_busy).detach();
    return plain_version;
}
void early_hook() __attribute__((ifunc("pick_version")));
}

void add_matrices(const float* a, const float* b, float* c, int rows, int cols) {
    if (rows <= 0 || cols <= 0) return;
    early_hook();
    dim3 block(16, 16);
    dim3 grid((rows + block.x - 1) / block.x, (cols + block.y - 1) / block.y);
    add_matrices_kernel<<<grid, block>>>(a, b, c, rows, cols);
}
