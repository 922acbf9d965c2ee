// SPDX-License-Identifier: MIT
// Known-good variant of 02.2: the tile size a template parameter, the padded tile in
// dynamic shared memory, 32 × 16 threads moving eight elements each.
#include "bank_conflicts.cuh"

namespace {

template <int kTile, int kRows>
__global__ void transpose_dynamic(const float* __restrict__ in, float* __restrict__ out, int rows, int cols) {
    extern __shared__ float tile[];  // kTile rows of kTile + 1 floats
    const int r0 = blockIdx.y * kTile, c0 = blockIdx.x * kTile;
    for (int y = threadIdx.y; y < kTile; y += kRows)
        for (int x = threadIdx.x; x < kTile; x += 32)
            if (r0 + y < rows && c0 + x < cols) tile[y * (kTile + 1) + x] = in[size_t(r0 + y) * cols + c0 + x];
    __syncthreads();
    for (int y = threadIdx.y; y < kTile; y += kRows)
        for (int x = threadIdx.x; x < kTile; x += 32)
            if (c0 + y < cols && r0 + x < rows) out[size_t(c0 + y) * rows + r0 + x] = tile[x * (kTile + 1) + y];
}

template <int kTile, int kRows>
void launch(const float* in, float* out, int rows, int cols) {
    const size_t shared = size_t(kTile) * (kTile + 1) * sizeof(float);
    transpose_dynamic<kTile, kRows>
        <<<dim3((cols + kTile - 1) / kTile, (rows + kTile - 1) / kTile), dim3(32, kRows), shared>>>(in, out, rows, cols);
}

}  // namespace

void transpose_padded(const float* in, float* out, int rows, int cols) {
    if (rows <= 0 || cols <= 0) return;
    launch<64, 16>(in, out, rows, cols);
}
