// SPDX-License-Identifier: MIT
// Contract: lessons/07-streams/contract/streams.cuh · test: meson test -C build lesson07 --test-args='-tc=07.1*'
// Exercise 07.1 — the pipeline (read lessons/07-streams/theory.md, "Fill, steady state and
// drain"). This version is right but serial: the whole input is copied in, then worked on,
// then copied out, all on the default stream, so the copy engines and the SMs take turns
// and each waits for the others. Its time is the sum of the three stages.
#include "streams.cuh"

void run_pipeline(const float* host_in, float* host_out, float* dev_in, float* dev_out, size_t n) {
    // TODO(07.1): overlap the copies with the work.
    //   - Cut [0, n) into chunks (16 or more for the large array; the last one may be
    //     shorter, and n may be 0 or smaller than the number of chunks).
    //   - Make a few streams once (cudaStreamCreate, kept in a static) and give chunk c to
    //     stream c % count. On its stream, each chunk is copied in (cudaMemcpyAsync), worked
    //     on (launch_work(dev_in + first, dev_out + first, count, stream)) and copied out.
    //   - Nothing in the loop may wait for the GPU: no cudaStreamSynchronize, no copy
    //     without Async, no cudaMalloc or cudaFree. host_in and host_out are pinned already.
    const size_t bytes = n * sizeof(float);
    cudaMemcpyAsync(dev_in, host_in, bytes, cudaMemcpyHostToDevice, 0);
    launch_work(dev_in, dev_out, n, 0);
    cudaMemcpyAsync(host_out, dev_out, bytes, cudaMemcpyDeviceToHost, 0);
}
