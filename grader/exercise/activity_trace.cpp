// SPDX-License-Identifier: MIT
// CUPTI activity records of copies and kernels (activity_trace.hpp).
#include "grader/exercise/activity_trace.hpp"

#include <algorithm>
#include <cstdlib>
#include <mutex>

#ifdef GRADER_HAVE_CUPTI
#include <cuda_runtime.h>
#include <cupti.h>

#include "grader/exercise/outside_calls.hpp"
#endif

namespace grader {

#ifdef GRADER_HAVE_CUPTI
namespace {

// CUDA 13 removed the kernel record of 12.x (CUpti_ActivityKernel9) for CUpti_ActivityKernel10,
// and made CUpti_ActivityMemcpy6 the memcpy record; the fields read here sit at the same
// offsets in both, but each toolkit's CUPTI writes the version its header names.
#if CUPTI_API_VERSION >= 130000
using KernelRecord = CUpti_ActivityKernel10;
using MemcpyRecord = CUpti_ActivityMemcpy6;
#else
using KernelRecord = CUpti_ActivityKernel9;
using MemcpyRecord = CUpti_ActivityMemcpy5;
#endif

// CUPTI hands buffers back on a thread of its own: what they hold goes here, under a lock.
struct Collected {
    std::mutex lock;
    std::vector<Activity> records;
    uint64_t dropped = 0;
};
Collected& collected() {
    static Collected c;
    return c;
}

constexpr size_t kBufferBytes = size_t(4) << 20;  // room for tens of thousands of records

void CUPTIAPI buffer_requested(uint8_t** buffer, size_t* size, size_t* max_records) {
    *buffer = static_cast<uint8_t*>(std::aligned_alloc(ACTIVITY_RECORD_ALIGNMENT, kBufferBytes));
    *size = *buffer ? kBufferBytes : 0;
    *max_records = 0;  // as many as fit
}

void CUPTIAPI buffer_completed(CUcontext context, uint32_t stream, uint8_t* buffer, size_t, size_t valid) {
    Collected& c = collected();
    std::lock_guard<std::mutex> hold(c.lock);
    CUpti_Activity* a = nullptr;
    while (cuptiActivityGetNextRecord(buffer, valid, &a) == CUPTI_SUCCESS) {
        Activity r;
        if (a->kind == CUPTI_ACTIVITY_KIND_MEMCPY) {
            const auto* m = reinterpret_cast<const MemcpyRecord*>(a);
            r.kind = m->copyKind == CUPTI_ACTIVITY_MEMCPY_KIND_HTOD   ? Activity::Kind::copy_in
                     : m->copyKind == CUPTI_ACTIVITY_MEMCPY_KIND_DTOH ? Activity::Kind::copy_out
                                                                      : Activity::Kind::copy_other;
            r.stream = m->streamId, r.start_ns = m->start, r.end_ns = m->end, r.bytes = m->bytes;
        } else if (a->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) {
            const auto* k = reinterpret_cast<const KernelRecord*>(a);
            r.kind = Activity::Kind::kernel;
            r.stream = k->streamId, r.start_ns = k->start, r.end_ns = k->end;
            r.name = k->name ? k->name : "";
        } else {
            continue;
        }
        c.records.push_back(std::move(r));
    }
    size_t dropped = 0;
    if (cuptiActivityGetNumDroppedRecords(context, stream, &dropped) == CUPTI_SUCCESS) c.dropped += dropped;
    std::free(buffer);
}

// "" on success, else the call and CUPTI's words for the error.
std::string failed(CUptiResult r, const char* call) {
    if (r == CUPTI_SUCCESS) return "";
    const char* text = nullptr;
    cuptiGetResultString(r, &text);
    return std::string(call) + " failed: " + (text ? text : "unknown CUPTI error");
}

}  // namespace

std::string tracing_unavailable() { return ""; }

uint64_t trace_clock_ns() {
    uint64_t t = 0;
    return cuptiGetTimestamp(&t) == CUPTI_SUCCESS ? t : 0;
}

void TraceWindow::open() {
    if (const uint64_t t = trace_clock_ns()) begin_ = t;
}

void TraceWindow::close() {
    cudaDeviceSynchronize();  // what was issued since open() has ended before the time is taken
    if (const uint64_t t = trace_clock_ns()) end_ = t;
}

ActivityTrace::ActivityTrace(bool copies) : copies_(copies) {
    // Callbacks are registered once per process; CUPTI keeps them across enable and disable.
    // Whatever threads CUPTI starts, here or when a kind is enabled below, are the grader's,
    // not threads the submission left running (outside_calls.hpp).
    static const std::string registered = [] {
        std::string why;
        grader_starts_threads([&] {
            why = failed(cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed), "cuptiActivityRegisterCallbacks");
        });
        return why;
    }();
    if (!registered.empty()) {
        error_ = registered;
        return;
    }
    {
        Collected& c = collected();
        std::lock_guard<std::mutex> hold(c.lock);
        c.records.clear(), c.dropped = 0;
    }
    // Work issued before the trace must not show in it.
    if (cudaDeviceSynchronize() != cudaSuccess) {
        error_ = "the device reported an error before the trace";
        return;
    }
    running_ = true;  // from here on, disable() undoes whatever was enabled
    // CUPTI starts its worker threads the first time a kind is enabled in the process. A
    // forced flush walks the buffer path once, so that a thread it needs is started now too.
    grader_starts_threads([&] {
        if (copies_) error_ = failed(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMCPY), "cuptiActivityEnable(MEMCPY)");
        if (error_.empty())
            error_ = failed(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL), "cuptiActivityEnable(CONCURRENT_KERNEL)");
        if (error_.empty()) cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    });
    if (!error_.empty()) disable();
}

void ActivityTrace::disable() {
    if (!running_) return;
    running_ = false;
    cuptiActivityFlushAll(0);
    if (copies_) cuptiActivityDisable(CUPTI_ACTIVITY_KIND_MEMCPY);
    cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
}

ActivityTrace::~ActivityTrace() { disable(); }

std::vector<Activity> ActivityTrace::stop() {
    std::vector<Activity> out;
    if (!running_) return out;
    cudaDeviceSynchronize();  // every record complete, its end time included
    std::string flushed;
    grader_starts_threads([&] {  // as in the constructor: CUPTI's threads, should it start more
        flushed = failed(cuptiActivityFlushAll(0), "cuptiActivityFlushAll");
        disable();
    });
    Collected& c = collected();
    std::lock_guard<std::mutex> hold(c.lock);
    dropped_ = c.dropped;
    if (error_.empty()) error_ = flushed;
    if (error_.empty()) out.swap(c.records);
    c.records.clear();
    std::sort(out.begin(), out.end(), [](const Activity& a, const Activity& b) { return a.start_ns < b.start_ns; });
    return out;
}

#else  // built without CUPTI: nothing is traced

std::string tracing_unavailable() { return "CUPTI not found at build time"; }
uint64_t trace_clock_ns() { return 0; }
void TraceWindow::open() {}
void TraceWindow::close() {}
ActivityTrace::ActivityTrace(bool copies) : copies_(copies), error_(tracing_unavailable()) {}
ActivityTrace::~ActivityTrace() = default;
void ActivityTrace::disable() {}
std::vector<Activity> ActivityTrace::stop() { return {}; }

#endif

}  // namespace grader
