// SPDX-License-Identifier: MIT
// Known-bad 01.1: the starter's column walk, plus host code that reaches into the grader: it
// declares the grader's ceilings accessor by its linker name (so that no identifier the
// policy check reads is "grader"), casts away const and lowers the copy ceiling, so that a
// threshold computed from it would let the slow mapping pass. The grader's side of the
// program is sealed (grader/exercise/seal_objects.py): its symbols are local, the name is an
// undefined reference and the program does not link. Must be rejected: compile. (Were it
// linked, the supervisor, which recomputes every threshold from the ceilings it measured
// itself, would still fail it.)
#include <map>
#include <string>

#include "coalescing.cuh"

namespace {
struct Table {  // the layout of grader::Ceilings: one std::map
    std::map<std::string, double> values;
};
}  // namespace

extern "C" const Table& _ZN6grader8ceilingsEv();  // grader::ceilings()

__global__ void add_column_walk(const float* a, const float* b, float* c, int rows, int cols) {
    int row = blockIdx.x * blockDim.x + threadIdx.x, col = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < rows && col < cols) c[size_t(row) * cols + col] = a[size_t(row) * cols + col] + b[size_t(row) * cols + col];
}

void add_matrices(const float* a, const float* b, float* c, int rows, int cols) {
    if (rows <= 0 || cols <= 0) return;
    const_cast<Table&>(_ZN6grader8ceilingsEv()).values["copy_gbs"] = 1;
    dim3 block(16, 16), grid((rows + 15) / 16, (cols + 15) / 16);
    add_column_walk<<<grid, block>>>(a, b, c, rows, cols);
}
