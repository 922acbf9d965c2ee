// SPDX-License-Identifier: MIT
// Known-bad 07.1: no copies at all. Pinned host memory is mapped into the device's address
// space, so the work kernel could read host_in and write host_out directly over the bus
// (zero-copy). The contract forbids it: launch_work takes device memory only, refuses the
// host pointers and launches nothing. Must be rejected: wrong (launch_work was given pinned
// host memory).
#include "streams.cuh"

void run_pipeline(const float* host_in, float* host_out, float*, float*, size_t n) {
    launch_work(host_in, host_out, n, 0);
}
