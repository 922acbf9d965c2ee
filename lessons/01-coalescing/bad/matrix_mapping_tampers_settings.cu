// SPDX-License-Identifier: MIT
// Known-bad 01.1: the starter's column walk, plus host code that tries to lower the bar:
// a static initializer and the launcher's first call set GRADER_THRESHOLD_SCALE and
// GRADER_CEILINGS. The grader read and removed its settings before any static
// initializer ran, so nothing changes. Must be rejected: slow.
// Written plainly, setenv and the variables' names would be rejected by the static policy
// check (lessons/policy.txt) before the build. This variant hides them from it, as a
// determined student could: a macro pastes the function's name together and no string
// literal holds "GRADER_" whole. So its test still exercises the run-time defence.
#include <cstdlib>
#include <string>

#include "coalescing.cuh"

namespace {

#define JOIN(a, b) a##b

// The name of one of the grader's variables, assembled at run time.
std::string grader_variable(const char* rest) { return std::string("GRA") + "DER_" + rest; }

// What a submission would like the grader to believe: a tiny threshold and a slow GPU.
void lower_the_bar() {
    JOIN(set, env)(grader_variable("THRESHOLD_SCALE").c_str(), "0.01", 1);
    JOIN(set, env)(grader_variable("CEILINGS").c_str(), "copy_gbs=1;dram_gbs=1e9;fma_gflops=1", 1);
}

// Runs before main, with the other static initializers of the program.
struct Tamper {
    Tamper() { lower_the_bar(); }
} tamper_at_start;

__global__ void add_matrices_kernel(const float* a, const float* b, float* c, int rows, int cols) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    int col = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < rows && col < cols) {
        size_t i = size_t(row) * cols + col;
        c[i] = a[i] + b[i];
    }
}

}  // namespace

void add_matrices(const float* a, const float* b, float* c, int rows, int cols) {
    static bool first = true;
    if (first) lower_the_bar(), first = false;  // and again, in case the grader reads late
    dim3 block(16, 16);
    dim3 grid((rows + block.x - 1) / block.x, (cols + block.y - 1) / block.y);
    if (rows > 0 && cols > 0) add_matrices_kernel<<<grid, block>>>(a, b, c, rows, cols);
}
