// SPDX-License-Identifier: MIT
#include <cuda.h>  // types and constants of the driver API only: its functions come through the runtime
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "grader/common/cuda_check.cuh"
#include "grader/common/session.hpp"
#include "grader/exercise/buffer_layout.hpp"
#include "grader/exercise/device_memory.hpp"

namespace grader {

namespace {

constexpr size_t kAlign = 256;           // what cudaMalloc guarantees, and what the contracts promise
constexpr size_t kMallocGuard = 4096;    // guard zones of the fallback layout
constexpr size_t kCheckedFront = 4096;   // guard bytes checked before the start

size_t round_up(size_t x, size_t to) { return (x + to - 1) / to * to; }

// The driver's virtual-memory functions, reached through the runtime so that no program
// links libcuda.so: a machine without a driver must still start the grader and SKIP.
struct Vmm {
    bool usable = false;
    size_t granularity = 0;
    int device = 0;
    CUresult (*reserve)(CUdeviceptr*, size_t, size_t, CUdeviceptr, unsigned long long) = nullptr;
    CUresult (*free_range)(CUdeviceptr, size_t) = nullptr;
    CUresult (*create)(CUmemGenericAllocationHandle*, size_t, const CUmemAllocationProp*, unsigned long long) = nullptr;
    CUresult (*release)(CUmemGenericAllocationHandle) = nullptr;
    CUresult (*map)(CUdeviceptr, size_t, size_t, CUmemGenericAllocationHandle, unsigned long long) = nullptr;
    CUresult (*unmap)(CUdeviceptr, size_t) = nullptr;
    CUresult (*set_access)(CUdeviceptr, size_t, const CUmemAccessDesc*, size_t) = nullptr;
    CUmemAllocationProp prop{};
};

template <class F>
bool entry_point(const char* name, F& fn) {
    void* p = nullptr;
    cudaDriverEntryPointQueryResult found{};
#if CUDART_VERSION >= 12050
    cudaError_t err = cudaGetDriverEntryPointByVersion(name, &p, 12000, cudaEnableDefault, &found);
#else
    cudaError_t err = cudaGetDriverEntryPoint(name, &p, cudaEnableDefault, &found);
#endif
    if (err != cudaSuccess || found != cudaDriverEntryPointSuccess || !p) {
        cudaGetLastError();
        return false;
    }
    fn = reinterpret_cast<F>(p);
    return true;
}

Vmm load_vmm() {
    Vmm v;
    CUresult (*attribute)(int*, CUdevice_attribute, CUdevice) = nullptr;
    CUresult (*granularity)(size_t*, const CUmemAllocationProp*, CUmemAllocationGranularity_flags) = nullptr;
    CUDA_CHECK(cudaFree(nullptr));  // the runtime's context exists before any driver call
    CUDA_CHECK(cudaGetDevice(&v.device));
    bool all = entry_point("cuDeviceGetAttribute", attribute) && entry_point("cuMemGetAllocationGranularity", granularity) &&
               entry_point("cuMemAddressReserve", v.reserve) && entry_point("cuMemAddressFree", v.free_range) &&
               entry_point("cuMemCreate", v.create) && entry_point("cuMemRelease", v.release) &&
               entry_point("cuMemMap", v.map) && entry_point("cuMemUnmap", v.unmap) &&
               entry_point("cuMemSetAccess", v.set_access);
    int supported = 0;
    if (!all || attribute(&supported, CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, v.device) != CUDA_SUCCESS ||
        !supported)
        return v;
    v.prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    v.prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    v.prop.location.id = v.device;
    if (granularity(&v.granularity, &v.prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM) != CUDA_SUCCESS || v.granularity == 0) return v;
    v.usable = true;
    return v;
}

const Vmm& vmm() {
    static const Vmm v = load_vmm();
    return v;
}

[[noreturn]] void out_of_memory(size_t bytes, const char* what, const char* why) {
    cudaGetLastError();  // allocation errors are not sticky; clear it
    size_t free_b = 0, total_b = 0;
    cudaMemGetInfo(&free_b, &total_b);
    char buf[256];
    std::snprintf(buf, sizeof buf, "could not allocate %.1f MiB for %s (%s); %.1f of %.1f MiB free on the GPU", bytes / 1048576.0,
                  what, why, free_b / 1048576.0, total_b / 1048576.0);
    throw CudaError(cudaErrorMemoryAllocation, buf);
}


}  // namespace

DeviceMemory::DeviceMemory(size_t bytes, uint8_t guard_byte, const char* what)
    : bytes_(bytes), capacity_(bytes), guard_(guard_byte) {
    if (sanitizer_mode()) {
        cudaError_t err = cudaMalloc(&malloc_base_, std::max<size_t>(bytes, 1));
        if (err != cudaSuccess) out_of_memory(bytes, what, cudaGetErrorName(err));
        data_ = static_cast<char*>(malloc_base_);
        return;
    }
    const Vmm& v = vmm();
    if (!v.usable) {
        front_ = kMallocGuard, back_ = kMallocGuard;
        cudaError_t err = cudaMalloc(&malloc_base_, front_ + bytes + back_);
        if (err != cudaSuccess) out_of_memory(bytes, what, cudaGetErrorName(err));
        data_ = static_cast<char*>(malloc_base_) + front_;
    } else {
        // [one unmapped granule][mapped: front guard, data, back guard < 256 bytes][one unmapped granule]
        const size_t g = v.granularity, aligned = round_up(bytes, kAlign);
        mapped_ = std::max(g, round_up(aligned, g));
        reserved_ = mapped_ + 2 * g;
        CUdeviceptr va = 0;
        if (v.reserve(&va, reserved_, 0, 0, 0) != CUDA_SUCCESS) out_of_memory(bytes, what, "cuMemAddressReserve");
        va_ = va;
        CUmemGenericAllocationHandle h = 0;
        if (v.create(&h, mapped_, &v.prop, 0) != CUDA_SUCCESS) {
            v.free_range(va, reserved_);
            out_of_memory(bytes, what, "cuMemCreate");
        }
        handle_ = h;
        mapped_at_ = va + g;
        CUmemAccessDesc access{};
        access.location = v.prop.location;
        access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
        if (v.map(mapped_at_, mapped_, 0, h, 0) != CUDA_SUCCESS || v.set_access(mapped_at_, mapped_, &access, 1) != CUDA_SUCCESS) {
            release();
            out_of_memory(bytes, what, "cuMemMap");
        }
        data_ = reinterpret_cast<char*>(mapped_at_ + mapped_ - aligned);
        front_ = mapped_ - aligned;
        back_ = aligned - bytes;
    }
    made_front_ = front_;
    if (front_) CUDA_CHECK(cudaMemset(data_ - front_, guard_, front_));
    if (back_) CUDA_CHECK(cudaMemset(data_ + bytes_, guard_, back_));
}

void DeviceMemory::use(size_t bytes) {
    if (bytes > capacity_) throw std::logic_error("grader bug: DeviceMemory::use past the buffer's capacity");
    if (bytes == bytes_) return;
    if (sanitizer_mode()) {
        bytes_ = bytes;
        return;
    }
    // The guarded region, [start of the front guard, end of the back guard), does not move:
    // only where the used part lies inside it.
    char* const region = data_ - front_;
    const size_t region_bytes = front_ + bytes_ + back_;
    const UsedPart part = place_used_part(region_bytes, made_front_, capacity_, bytes, kAlign);
    data_ = region + part.offset;
    bytes_ = bytes;
    front_ = part.offset;
    back_ = part.back;
    if (front_) CUDA_CHECK(cudaMemset(region, guard_, front_));
    if (back_) CUDA_CHECK(cudaMemset(data_ + bytes_, guard_, back_));
}

DeviceMemory::DeviceMemory(DeviceMemory&& o) noexcept
    : data_(std::exchange(o.data_, nullptr)), bytes_(o.bytes_), capacity_(o.capacity_), guard_(o.guard_), front_(o.front_),
      back_(o.back_), made_front_(o.made_front_), va_(std::exchange(o.va_, 0)), mapped_at_(o.mapped_at_), reserved_(o.reserved_), mapped_(o.mapped_),
      handle_(std::exchange(o.handle_, 0)), malloc_base_(std::exchange(o.malloc_base_, nullptr)) {}

void DeviceMemory::release() noexcept {
    if (malloc_base_) cudaFree(malloc_base_);
    malloc_base_ = nullptr;
    if (va_) {
        const Vmm& v = vmm();
        // Pending work may still use the range; unmapping under it would fault that work.
        cudaDeviceSynchronize();
        if (handle_) {
            v.unmap(mapped_at_, mapped_);
            v.release(handle_);
        }
        v.free_range(va_, reserved_);
    }
    va_ = 0, handle_ = 0, data_ = nullptr;
}

DeviceMemory::~DeviceMemory() { release(); }

void DeviceMemory::fill(uint8_t byte) {
    if (bytes_) CUDA_CHECK(cudaMemset(data_, byte, bytes_));
}

void DeviceMemory::upload(const void* host, size_t bytes, size_t offset) {
    if (bytes) CUDA_CHECK(cudaMemcpy(data_ + offset, host, bytes, cudaMemcpyHostToDevice));
}

void DeviceMemory::download(void* host, size_t bytes, size_t offset) const {
    if (bytes) CUDA_CHECK(cudaMemcpy(host, data_ + offset, bytes, cudaMemcpyDeviceToHost));
}

void DeviceMemory::copy_from(const DeviceMemory& other) {
    if (bytes_) CUDA_CHECK(cudaMemcpy(data_, other.data_, std::min(bytes_, other.bytes_), cudaMemcpyDeviceToDevice));
}

bool DeviceMemory::guards_intact() const {
    const size_t front = std::min(front_, kCheckedFront);
    std::vector<unsigned char> g(front + back_);
    if (front) CUDA_CHECK(cudaMemcpy(g.data(), data_ - front, front, cudaMemcpyDeviceToHost));
    if (back_) CUDA_CHECK(cudaMemcpy(g.data() + front, data_ + bytes_, back_, cudaMemcpyDeviceToHost));
    return std::all_of(g.begin(), g.end(), [&](unsigned char b) { return b == guard_; });
}

}  // namespace grader
