// SPDX-License-Identifier: MIT
#include <dlfcn.h>

#include "grader/common/cuda_check.cuh"
#include "grader/common/gpu.cuh"
#include "grader/common/sm_limit.cuh"

namespace grader {

namespace {
__global__ void probe_kernel(int* out) { *out = 42; }

// The driver's library is what the runtime loads first; without it there is no driver.
bool driver_present() {
    void* lib = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD);
    if (!lib) lib = dlopen("libcuda.so.1", RTLD_LAZY);
    if (lib) dlclose(lib);
    return lib != nullptr;
}
}  // namespace

double GpuInfo::dram_theoretical_gbs() const {
    return 2.0 * double(mem_clock_khz) * 1e3 * (bus_width_bits / 8.0) / 1e9;
}

std::string gpu_unusable_reason() {
    int count = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (err == cudaErrorNoDevice || (err == cudaErrorInsufficientDriver && count == 0 && !driver_present()))
        return "no CUDA GPU or NVIDIA driver in this machine";
    if (err == cudaErrorInsufficientDriver)
        return "the NVIDIA driver is older than this CUDA toolkit needs (cudaErrorInsufficientDriver): update the driver";
    if (err != cudaSuccess)
        return std::string("no usable CUDA GPU: cudaGetDeviceCount says ") + cudaGetErrorName(err) + " (" +
               cudaGetErrorString(err) + ")";
    if (count == 0) return "no CUDA GPU in this machine";
    // Launch a one-thread kernel: this catches a build whose machine code does not fit
    // this GPU (cudaErrorNoKernelImageForDevice) before any exercise runs.
    int* d = nullptr;
    err = cudaMalloc(&d, sizeof(int));
    if (err == cudaSuccess) {
        probe_kernel<<<1, 1>>>(d);
        err = cudaGetLastError();
        if (err == cudaSuccess) err = cudaDeviceSynchronize();
        cudaFree(d);
    }
    if (err == cudaErrorNoKernelImageForDevice || err == cudaErrorUnsupportedPtxVersion)
        return std::string("this build has no machine code for this GPU (") + cudaGetErrorName(err) +
               "); reconfigure: meson setup --reconfigure build -Dgpu_arch=auto";
    if (err != cudaSuccess)
        return std::string("the GPU does not run a test kernel: ") + cudaGetErrorName(err) + " (" +
               cudaGetErrorString(err) + ")";
    return "";
}

GpuInfo query_gpu() {
    cudaDeviceProp p{};
    CUDA_CHECK(cudaGetDeviceProperties(&p, 0));
    GpuInfo g;
    g.name = p.name;
    g.cc_major = p.major;
    g.cc_minor = p.minor;
    g.sms_total = p.multiProcessorCount;
    // Device properties describe the device, not the current context (grader/tests/
    // sm_limit_probe.cu shows what they say under a green context): the partition's count is
    // the one the driver reported for the green context.
    const SmLimit& limit = sm_limit();
    g.sms_limited = limit.active();
    g.sms = limit.active() ? limit.sms : g.sms_total;
    g.l2_bytes = p.l2CacheSize;
    g.global_bytes = static_cast<long long>(p.totalGlobalMem);
    g.smem_per_block_optin = static_cast<long long>(p.sharedMemPerBlockOptin);
    CUDA_CHECK(cudaDeviceGetAttribute(&g.mem_clock_khz, cudaDevAttrMemoryClockRate, 0));
    CUDA_CHECK(cudaDeviceGetAttribute(&g.bus_width_bits, cudaDevAttrGlobalMemoryBusWidth, 0));
    return g;
}

}  // namespace grader
