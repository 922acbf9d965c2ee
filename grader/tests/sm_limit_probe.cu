// SPDX-License-Identifier: MIT
// sm_limit_probe N [--set-device]: does --sms=N confine the CUDA runtime's work to N SMs?
//
//   ninja -C build grader/sm_limit_probe && build/grader/sm_limit_probe 16
//
// It applies grader::limit_sms(N) before its first CUDA runtime call, as `grade` and every
// exercise's process do, then launches kernels whose blocks record the SM they ran on
// (%smid) and counts the distinct SMs: on the default stream and on a stream it creates
// (the two ways the lessons launch work), which must stay within the green context's SMs.
// It also prints what the runtime says of the device under the green context (its SM
// count, read by some lessons' code) and what grader::query_gpu() (grader::gpu()) says.
// Then, for the docs, what escapes the limit: a launch from another thread and, with
// --set-device, one after cudaSetDevice(0); those are reported, never counted against the
// limit. Without --set-device it ends as `grade` does once its ceilings are measured: the
// green context released, then cudaDeviceReset(), each call's outcome printed.
//
// Exit status: 0 when both launches stayed within the partition; 1 when one used more SMs
// or a CUDA call failed; 2 for a wrong command line; 3 when limit_sms() refused (its reason
// is printed). `sm_limit_probe all` runs the same without a limit, for comparison.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "grader/common/gpu.cuh"
#include "grader/common/settings.hpp"
#include "grader/common/sm_limit.cuh"

namespace {

// Each block notes the SM it runs on, then stays resident a while, so that the hardware
// spreads the grid over every SM it is allowed to use.
__global__ void record_sm(unsigned* sm_of_block, long long spin_cycles) {
    if (threadIdx.x == 0) {
        unsigned id;
        asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
        sm_of_block[blockIdx.x] = id;
    }
    const long long start = clock64();
    while (clock64() - start < spin_cycles) {
    }
}

// A CUDA call that must succeed: on failure, one line naming the call, and exit 1.
void check(cudaError_t e, const char* call) {
    if (e == cudaSuccess) return;
    std::printf("FAIL: %s: %s (%s)\n", call, cudaGetErrorName(e), cudaGetErrorString(e));
    std::exit(1);
}

// Throws one line naming the call when it failed.
void must(cudaError_t e, const char* call) {
    if (e != cudaSuccess) throw std::runtime_error(std::string(call) + ": " + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")");
}

// How many distinct SMs ran the blocks of one launch of `blocks` blocks on `stream`; throws
// one line naming the call that failed.
int sms_used(int blocks, cudaStream_t stream) {
    unsigned* d = nullptr;
    must(cudaMalloc(&d, blocks * sizeof(unsigned)), "cudaMalloc");
    record_sm<<<blocks, 128, 0, stream>>>(d, 20000);  // about 10 µs a block at 2 GHz
    must(cudaGetLastError(), "launch of record_sm");
    must(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
    std::vector<unsigned> ids(blocks);
    must(cudaMemcpy(ids.data(), d, blocks * sizeof(unsigned), cudaMemcpyDeviceToHost), "cudaMemcpy");
    must(cudaFree(d), "cudaFree");
    return int(std::set<unsigned>(ids.begin(), ids.end()).size());
}

}  // namespace

int main(int argc, char** argv) {
    int n = 0;
    try {
        if (argc < 2 || argc > 3 || (argc == 3 && std::string(argv[2]) != "--set-device"))
            throw std::invalid_argument("usage: sm_limit_probe N|all [--set-device]");
        n = grader::parse_sms(argv[1]);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 2;
    }
    // Before anything of the runtime, as in `grade` and the exercise processes.
    if (n > 0) {
        bool unsupported = false;
        const std::string why = grader::limit_sms(n, &unsupported);
        if (!why.empty()) {
            std::printf("limit_sms(%d) refused: %s%s\n", n, unsupported ? grader::kGreenContextsNeeded : "", why.c_str());
            return 3;
        }
    }
    const std::string unusable = grader::gpu_unusable_reason();
    if (!unusable.empty()) {
        std::printf("no usable GPU: %s\n", unusable.c_str());
        return 1;
    }
    const grader::SmLimit& limit = grader::sm_limit();
    const grader::GpuInfo g = grader::query_gpu();
    cudaDeviceProp p{};
    check(cudaGetDeviceProperties(&p, 0), "cudaGetDeviceProperties");
    int attribute = 0;
    check(cudaDeviceGetAttribute(&attribute, cudaDevAttrMultiProcessorCount, 0), "cudaDeviceGetAttribute");
    int driver = 0, runtime = 0;
    check(cudaDriverGetVersion(&driver), "cudaDriverGetVersion");
    check(cudaRuntimeGetVersion(&runtime), "cudaRuntimeGetVersion");

    std::printf("GPU %s · %s · driver %d · runtime %d\n", g.name.c_str(), g.arch().c_str(), driver, runtime);
    if (limit.active())
        std::printf("green context: asked %d SMs, got %d of %d (%s split; the whole GPU's minimum %d, default step %d)\n",
                    limit.requested, limit.sms, limit.total, limit.fine_split ? "the fine" : "the default", limit.min_partition,
                    limit.coscheduled_step);
    else
        std::printf("no limit: the whole GPU\n");
    std::printf("under it: cudaGetDeviceProperties says %d SMs, cudaDevAttrMultiProcessorCount %d, gpu().sms %d (of %d)\n",
                p.multiProcessorCount, attribute, g.sms, g.sms_total);

    const int allowed = limit.active() ? limit.sms : g.sms_total;
    const int blocks = 64 * g.sms_total;  // many waves even on the whole GPU
    int failures = 0;
    // One launch's line. `counts`: a launch the limit must confine (else one that shows what
    // escapes it, for the docs).
    const auto launch = [&](const char* where, cudaStream_t stream, bool counts) {
        int used = -1;
        try {
            used = sms_used(blocks, stream);
        } catch (const std::exception& e) {
            std::printf("%-46s %s%s\n", where, e.what(), counts ? "  FAIL" : "");
            failures += counts;
            return;
        }
        const char* verdict = "";
        if (used > allowed) verdict = counts ? "  FAIL: more than allowed" : "  (escapes the limit; not counted)";
        else if (used < allowed) verdict = "  (fewer than allowed: the grid did not reach them all)";
        std::printf("%-46s %3d SMs ran blocks, %d allowed%s\n", where, used, allowed, verdict);
        failures += counts && used > allowed;
    };

    launch("default stream:", 0, true);
    cudaStream_t stream = nullptr;
    check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
    launch("a stream of cudaStreamCreateWithFlags:", stream, true);
    check(cudaStreamDestroy(stream), "cudaStreamDestroy");

    // Lesson 07's grader asks the runtime about pointers; the runtime refuses that for memory
    // of a context it does not take for the device's primary one.
    void* d = nullptr;
    check(cudaMalloc(&d, 256), "cudaMalloc");
    cudaPointerAttributes a{};
    const cudaError_t pa = cudaPointerGetAttributes(&a, d);
    std::printf("cudaPointerGetAttributes on cudaMalloc memory: %s (type %d)\n", cudaGetErrorName(pa), int(a.type));
    cudaGetLastError();  // a refusal above is reported, not carried into the calls below
    check(cudaFree(d), "cudaFree");
    if (!grader::sm_limit_left().empty()) std::printf("sm_limit_left() already says: %s\n", grader::sm_limit_left().c_str());

    // What escapes: another thread has no current context, so the runtime gives it the
    // primary one (its buffers are its own, made in that thread).
    std::thread([&] { launch("default stream of another thread:", 0, false); }).join();

    if (argc == 3) {
        check(cudaSetDevice(0), "cudaSetDevice");
        const std::string left = grader::sm_limit_left();
        launch("default stream after cudaSetDevice(0):", 0, false);
        std::printf("sm_limit_left() after cudaSetDevice(0): %s\n", left.empty() ? "\"\" (still the green context)" : left.c_str());
    } else {
        // As `grade` does once its ceilings are measured; then the runtime must still work
        // (on the whole GPU), as it would for a program that went on.
        const std::string released = grader::release_sms_limit();
        const cudaError_t reset = cudaDeviceReset();
        std::printf("release_sms_limit: %s; then cudaDeviceReset: %s\n", released.empty() ? "\"\" (done)" : released.c_str(),
                    cudaGetErrorName(reset));
        launch("default stream after both:", 0, false);
    }

    std::printf(failures ? "FAIL: the limit did not confine the runtime's launches\n"
                         : "OK: the runtime's launches stayed on the green context's SMs\n");
    return failures ? 1 : 0;
}
