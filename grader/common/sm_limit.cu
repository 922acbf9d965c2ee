// SPDX-License-Identifier: MIT
#include "grader/common/sm_limit.cuh"

#include <cuda.h>
#include <dlfcn.h>

#include <cstdlib>
#include <string>

namespace grader {

namespace {

SmLimit g_limit;

#if CUDA_VERSION >= 12040

std::string sms_option(int n) { return "--sms=" + std::to_string(n); }

CUgreenCtx g_green = nullptr;
CUcontext g_context = nullptr;  // g_green as a CUcontext: what the runtime adopts

// A name as cuda.h spells its symbol: where the header maps a function to a versioned entry
// point (#define cuFoo cuFoo_v2), the macro expands, so that the symbol looked up is the one
// whose declaration types the pointer below.
#define GRADER_SYMBOL_TEXT(x) #x
#define GRADER_SYMBOL(x) GRADER_SYMBOL_TEXT(x)

// The driver's entry points this file calls, looked up in libcuda.so.1. Each pointer has the
// type of its declaration in cuda.h, so a call with wrong arguments does not compile.
struct Driver {
    void* library = nullptr;
    decltype(&::cuGetErrorName) error_name = nullptr;
    decltype(&::cuGetErrorString) error_string = nullptr;
    decltype(&::cuDriverGetVersion) driver_version = nullptr;
    decltype(&::cuInit) init = nullptr;
    decltype(&::cuDeviceGet) device_get = nullptr;
    decltype(&::cuDeviceGetDevResource) device_resource = nullptr;
    decltype(&::cuDevSmResourceSplitByCount) split = nullptr;
    decltype(&::cuDevResourceGenerateDesc) generate_desc = nullptr;
    decltype(&::cuGreenCtxCreate) green_create = nullptr;
    decltype(&::cuGreenCtxDestroy) green_destroy = nullptr;
    decltype(&::cuGreenCtxGetDevResource) green_resource = nullptr;
    decltype(&::cuCtxFromGreenCtx) context_from_green = nullptr;
    decltype(&::cuCtxSetCurrent) set_current = nullptr;
    decltype(&::cuCtxGetCurrent) get_current = nullptr;
    int version = 0;          // cuDriverGetVersion: 12040 for 12.4
    std::string why;          // "" when every entry point was found
    bool unsupported = false;  // why is about green contexts (an old driver), not a missing driver
};

template <class F>
void look_up(void* library, const char* name, F& f, std::string& missing) {
    f = reinterpret_cast<F>(dlsym(library, name));
    if (!f) missing += (missing.empty() ? "" : ", ") + std::string(name);
}

std::string version_text(int v) { return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10); }

// Opens the driver once. The runtime opens the same library by the same name later, and
// dlopen hands both the one copy loaded: the context made current here is the one it sees.
const Driver& driver() {
    static const Driver d = [] {
        Driver d;
        d.library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
        if (!d.library) {
            const char* e = dlerror();
            d.why = std::string("the NVIDIA driver library cannot be opened: ") + (e ? e : "libcuda.so.1 not found");
            return d;
        }
        std::string missing;
        look_up(d.library, GRADER_SYMBOL(cuGetErrorName), d.error_name, missing);
        look_up(d.library, GRADER_SYMBOL(cuGetErrorString), d.error_string, missing);
        look_up(d.library, GRADER_SYMBOL(cuDriverGetVersion), d.driver_version, missing);
        if (!d.driver_version) {
            d.why = "the NVIDIA driver library lacks " + missing;
            return d;
        }
        // Before the green-context entry points: a driver older than 12.4 lacks them, and its
        // version says so more clearly than a list of missing names.
        if (d.driver_version(&d.version) != CUDA_SUCCESS || d.version < 12040) {
            d.why = "the NVIDIA driver supports CUDA " + version_text(d.version) + ", green contexts need 12.4 or newer";
            d.unsupported = true;
            return d;
        }
        look_up(d.library, GRADER_SYMBOL(cuInit), d.init, missing);
        look_up(d.library, GRADER_SYMBOL(cuDeviceGet), d.device_get, missing);
        look_up(d.library, GRADER_SYMBOL(cuDeviceGetDevResource), d.device_resource, missing);
        look_up(d.library, GRADER_SYMBOL(cuDevSmResourceSplitByCount), d.split, missing);
        look_up(d.library, GRADER_SYMBOL(cuDevResourceGenerateDesc), d.generate_desc, missing);
        look_up(d.library, GRADER_SYMBOL(cuGreenCtxCreate), d.green_create, missing);
        look_up(d.library, GRADER_SYMBOL(cuGreenCtxDestroy), d.green_destroy, missing);
        look_up(d.library, GRADER_SYMBOL(cuGreenCtxGetDevResource), d.green_resource, missing);
        look_up(d.library, GRADER_SYMBOL(cuCtxFromGreenCtx), d.context_from_green, missing);
        look_up(d.library, GRADER_SYMBOL(cuCtxSetCurrent), d.set_current, missing);
        look_up(d.library, GRADER_SYMBOL(cuCtxGetCurrent), d.get_current, missing);
        if (!missing.empty()) {
            d.why = "the NVIDIA driver (CUDA " + version_text(d.version) + ") lacks " + missing;
            d.unsupported = true;
        }
        return d;
    }();
    return d;
}

// "cuGreenCtxCreate failed: CUDA_ERROR_NOT_SUPPORTED (operation not supported)"
std::string failure(const Driver& d, const char* call, CUresult r) {
    const char* name = nullptr;
    const char* text = nullptr;
    if (d.error_name) d.error_name(r, &name);
    if (d.error_string) d.error_string(r, &text);
    return std::string(call) + " failed: " + (name ? name : "CUresult " + std::to_string(int(r))) +
           (text ? std::string(" (") + text + ")" : std::string());
}

// Errors that say the device or driver has no green contexts, as opposed to a count it
// cannot split off.
bool not_supported(CUresult r) { return r == CUDA_ERROR_NOT_SUPPORTED || r == CUDA_ERROR_NOT_PERMITTED; }

// One way of splitting n SMs off the whole GPU.
struct Split {
    CUdevResource group{};
    int sms = 0;  // 0: this way failed (why says how)
    std::string why;
    bool unsupported = false;
};

Split split_off(const Driver& d, const CUdevResource& whole, int n, unsigned flags) {
    Split s;
    unsigned groups = 1;  // one group of at least n SMs; the rest of the GPU stays unused
    CUdevResource rest{};
    const CUresult r = d.split(&s.group, &groups, &whole, &rest, flags, unsigned(n));
    if (r != CUDA_SUCCESS) {
        s.why = failure(d, "cuDevSmResourceSplitByCount", r);
        s.unsupported = not_supported(r);
    } else if (groups < 1 || s.group.sm.smCount == 0) {
        s.why = "cuDevSmResourceSplitByCount found no group of " + std::to_string(n) + " SMs";
    } else {
        s.sms = int(s.group.sm.smCount);
    }
    return s;
}

// Everything limit_sms() needs before it creates a context: the device, its SMs, the group.
struct Plan {
    CUdevice device = 0;
    int total = 0, min_partition = 0, coscheduled_step = 0;
    Split chosen;
    bool fine = false;  // chosen is the split that ignores co-scheduling
    std::string why;
    bool unsupported = false;
};

Plan plan(int n) {
    Plan p;
    const Driver& d = driver();
    if (!d.why.empty()) {
        p.why = d.why, p.unsupported = d.unsupported;
        return p;
    }
    if (n < 1) {
        p.why = sms_option(n) + ": give a whole number of SMs, at least 1";
        return p;
    }
    CUresult r = d.init(0);
    if (r != CUDA_SUCCESS) {
        p.why = failure(d, "cuInit", r);
        return p;
    }
    if ((r = d.device_get(&p.device, 0)) != CUDA_SUCCESS) {
        p.why = failure(d, "cuDeviceGet", r);
        return p;
    }
    CUdevResource whole{};
    if ((r = d.device_resource(p.device, &whole, CU_DEV_RESOURCE_TYPE_SM)) != CUDA_SUCCESS) {
        p.why = failure(d, "cuDeviceGetDevResource", r);
        p.unsupported = not_supported(r) || r == CUDA_ERROR_INVALID_RESOURCE_TYPE;
        return p;
    }
    p.total = int(whole.sm.smCount);
    p.min_partition = int(whole.sm.minSmPartitionSize);
    p.coscheduled_step = int(whole.sm.smCoscheduledAlignment);
    if (n > p.total) {
        p.why = sms_option(n) + ": this GPU has " + std::to_string(p.total) + " SMs";
        return p;
    }
    // The driver rounds n up to its step: on sm_90 a multiple of 8 SMs by default, which
    // keeps each group of SMs the hardware schedules together (needed for large thread-block
    // clusters, which no lesson uses). Where that is not n, the finer split, which ignores
    // those groups, is tried too; the count closest to n wins, the default split on a tie.
    Split coarse = split_off(d, whole, n, 0);
    if (coarse.sms == n) {
        p.chosen = coarse;
        return p;
    }
    Split fine = split_off(d, whole, n, CU_DEV_SM_RESOURCE_SPLIT_IGNORE_SM_COSCHEDULING);
    const auto distance = [n](const Split& s) { return s.sms > 0 ? std::abs(s.sms - n) : 1 << 30; };
    if (coarse.sms == 0 && fine.sms == 0) {
        p.why = coarse.why;
        p.unsupported = coarse.unsupported;
        return p;
    }
    p.fine = distance(fine) < distance(coarse);
    p.chosen = p.fine ? fine : coarse;
    return p;
}

#endif  // CUDA_VERSION >= 12040

#if CUDA_VERSION < 12040
// A build with a toolkit older than 12.4 has no green-context API to call.
std::string too_old_toolkit() {
    return "this build's CUDA toolkit is " + std::to_string(CUDA_VERSION / 1000) + "." +
           std::to_string(CUDA_VERSION % 1000 / 10) + ", green contexts need 12.4 or newer";
}
#endif

}  // namespace

std::string sm_limit_unavailable(int n, bool* unsupported) {
#if CUDA_VERSION >= 12040
    const Plan p = plan(n);
    if (unsupported) *unsupported = p.unsupported;
    return p.why;
#else
    (void)n;
    if (unsupported) *unsupported = true;
    return too_old_toolkit();
#endif
}

std::string limit_sms(int n, bool* unsupported) {
    if (unsupported) *unsupported = false;
#if CUDA_VERSION >= 12040
    if (g_limit.active()) return "the SMs are already limited, to " + std::to_string(g_limit.sms);
    Plan p = plan(n);
    if (!p.why.empty()) {
        if (unsupported) *unsupported = p.unsupported;
        return p.why;
    }
    const Driver& d = driver();
    CUdevResourceDesc desc = nullptr;
    CUresult r = d.generate_desc(&desc, &p.chosen.group, 1);
    if (r != CUDA_SUCCESS) return failure(d, "cuDevResourceGenerateDesc", r);
    CUgreenCtx green = nullptr;
    if ((r = d.green_create(&green, desc, p.device, CU_GREEN_CTX_DEFAULT_STREAM)) != CUDA_SUCCESS) {
        if (unsupported) *unsupported = not_supported(r);
        return failure(d, "cuGreenCtxCreate", r);
    }
    CUcontext context = nullptr;
    r = d.context_from_green(&context, green);
    const char* call = "cuCtxFromGreenCtx";
    if (r == CUDA_SUCCESS) r = d.set_current(context), call = "cuCtxSetCurrent";
    if (r != CUDA_SUCCESS) {
        const std::string why = failure(d, call, r);
        d.green_destroy(green);  // nothing is left current: the runtime then uses the whole GPU, as without --sms
        return why;
    }
    // The count the context holds, as the driver reports it once the context exists.
    CUdevResource held{};
    const bool asked = d.green_resource(green, &held, CU_DEV_RESOURCE_TYPE_SM) == CUDA_SUCCESS && held.sm.smCount > 0;
    g_green = green, g_context = context;
    g_limit.requested = n;
    g_limit.sms = asked ? int(held.sm.smCount) : p.chosen.sms;
    g_limit.total = p.total;
    g_limit.min_partition = p.min_partition;
    g_limit.coscheduled_step = p.coscheduled_step;
    g_limit.fine_split = p.fine;
    return "";
#else
    (void)n;
    if (unsupported) *unsupported = true;
    return too_old_toolkit();
#endif
}

std::string release_sms_limit() {
#if CUDA_VERSION >= 12040
    if (!g_green) return "";
    const Driver& d = driver();
    CUresult r = d.set_current(nullptr);
    if (r != CUDA_SUCCESS) return failure(d, "cuCtxSetCurrent", r);
    r = d.green_destroy(g_green);
    g_green = nullptr, g_context = nullptr;
    return r == CUDA_SUCCESS ? "" : failure(d, "cuGreenCtxDestroy", r);
#else
    return "";
#endif
}

const SmLimit& sm_limit() { return g_limit; }

std::string sm_limit_left() {
#if CUDA_VERSION >= 12040
    if (!g_green) return "";
    CUcontext current = nullptr;
    const CUresult r = driver().get_current(&current);
    if (r != CUDA_SUCCESS) return failure(driver(), "cuCtxGetCurrent", r);
    if (current == g_context) return "";
    return "the CUDA context in use is no longer the green context of " + sms_option(g_limit.requested) +
           " (cudaSetDevice() or a context change made the runtime use the whole GPU), so the figures are not those of " +
           std::to_string(g_limit.sms) + " SMs";
#else
    return "";
#endif
}

}  // namespace grader
