// SPDX-License-Identifier: MIT
// Lesson 07's timeline (timeline.hpp): CUPTI activity records of copies and kernels.
#include "timeline.hpp"

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <utility>

#include "grader/json.hpp"

#ifdef LESSON07_HAVE_CUPTI
#include <cuda_runtime.h>
#include <cupti.h>
#endif

namespace timeline {

const char* words(What w) {
    switch (w) {
        case What::copy_in: return "copy in";
        case What::work: return "work";
        case What::copy_out: return "copy out";
        default: return "other";
    }
}

uint64_t Timeline::end_ns() const {
    uint64_t end = 0;
    for (const Record& r : records) end = std::max(end, r.end_ns);
    return end;
}

#ifdef LESSON07_HAVE_CUPTI
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
    std::vector<std::pair<Record, uint64_t>> records;  // absolute start, kept for the window
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
        Record r;
        if (a->kind == CUPTI_ACTIVITY_KIND_MEMCPY) {
            const auto* m = reinterpret_cast<const MemcpyRecord*>(a);
            r.what = m->copyKind == CUPTI_ACTIVITY_MEMCPY_KIND_HTOD   ? What::copy_in
                     : m->copyKind == CUPTI_ACTIVITY_MEMCPY_KIND_DTOH ? What::copy_out
                                                                      : What::other;
            r.stream = m->streamId, r.start_ns = m->start, r.end_ns = m->end, r.bytes = m->bytes;
        } else if (a->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) {
            const auto* k = reinterpret_cast<const KernelRecord*>(a);
            r.what = What::work;
            r.stream = k->streamId, r.start_ns = k->start, r.end_ns = k->end;
            r.name = k->name ? k->name : "";
        } else {
            continue;
        }
        c.records.emplace_back(r, r.start_ns);
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

void Window::open() {
    uint64_t t = 0;
    if (cuptiGetTimestamp(&t) == CUPTI_SUCCESS) begin_ = t;
}

void Window::close() {
    cudaDeviceSynchronize();  // what was issued since open() has ended before the time is taken
    uint64_t t = 0;
    if (cuptiGetTimestamp(&t) == CUPTI_SUCCESS) end_ = t;
}

Timeline trace(const std::function<void()>& run, const Window* window) {
    Timeline t;
    // Callbacks are registered once per process; CUPTI keeps them across enable and disable.
    static const std::string registered =
        failed(cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed), "cuptiActivityRegisterCallbacks");
    if (!registered.empty()) return t.why_empty = registered, t;
    {
        Collected& c = collected();
        std::lock_guard<std::mutex> hold(c.lock);
        c.records.clear(), c.dropped = 0;
    }
    // Work issued before the trace must not show in it.
    if (cudaDeviceSynchronize() != cudaSuccess) return t.why_empty = "the device reported an error before the trace", t;
    std::string error = failed(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMCPY), "cuptiActivityEnable(MEMCPY)");
    if (error.empty())
        error = failed(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL), "cuptiActivityEnable(CONCURRENT_KERNEL)");
    // Switched off again on every way out, an exception from `run` included.
    struct Off {
        ~Off() {
            cuptiActivityFlushAll(0);
            cuptiActivityDisable(CUPTI_ACTIVITY_KIND_MEMCPY);
            cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
        }
    };
    {
        Off off;
        if (!error.empty()) return t.why_empty = error, t;
        run();
        cudaDeviceSynchronize();
        error = failed(cuptiActivityFlushAll(0), "cuptiActivityFlushAll");
    }
    Collected& c = collected();
    std::lock_guard<std::mutex> hold(c.lock);
    t.dropped = c.dropped;
    if (!error.empty()) return t.why_empty = error, t;
    for (const auto& [r, start] : c.records)
        if (!window || window->holds(start)) t.records.push_back(r);
    c.records.clear();
    std::sort(t.records.begin(), t.records.end(), [](const Record& a, const Record& b) { return a.start_ns < b.start_ns; });
    if (t.records.empty()) return t.why_empty = "CUPTI recorded no copy and no kernel", t;
    const uint64_t first = t.records.front().start_ns;
    for (Record& r : t.records) r.start_ns -= first, r.end_ns = r.end_ns > first ? r.end_ns - first : 0;
    return t;
}

#else  // built without CUPTI: nothing is traced

void Window::open() {}
void Window::close() {}

Timeline trace(const std::function<void()>&, const Window*) {
    Timeline t;
    t.why_empty = "CUPTI not found at build time";
    return t;
}

#endif

std::vector<std::string> lanes(const Timeline& t, int width, uint64_t scale_ns) {
    const What kinds[] = {What::copy_in, What::work, What::copy_out};
    const uint64_t end = t.end_ns();
    const double scale = double(scale_ns ? scale_ns : std::max<uint64_t>(end, 1));
    std::vector<std::string> out;
    for (What w : kinds) {
        std::string lane(size_t(std::max(width, 1)), '.');
        // Past the call's end the slice is blank, so that a shorter call shows as shorter.
        for (int i = 0; i < width; ++i)
            if (i * scale / width >= double(end)) lane[size_t(i)] = ' ';
        for (const Record& r : t.records) {
            if (r.what != w) continue;
            // Every slice that [start, end) touches, at least one: a short copy still shows.
            const int a = std::clamp(int(r.start_ns / scale * width), 0, width - 1);
            const int b = std::clamp(int((double(r.end_ns) / scale * width) - 1e-9), a, width - 1);
            for (int i = a; i <= b; ++i) lane[size_t(i)] = '#';
        }
        out.push_back(lane);
    }
    return out;
}

std::string table_json(const Timeline& t, const std::string& pipeline, const std::string& caption, bool student) {
    // A student's pipeline of very many chunks could make the results file large: the first
    // kMaxRows records are kept there, and "note" says so (the printed lanes use them all).
    constexpr size_t kMaxRows = 4096;
    std::string rows;
    const size_t kept = std::min(t.records.size(), kMaxRows);
    for (size_t i = 0; i < kept; ++i) {
        const Record& r = t.records[i];
        grader::JsonObject row;
        row.add("key", "").add("label", words(r.what)).add("student", student);
        row.add("stream", (long long)r.stream).add("start_ns", (long long)r.start_ns).add("end_ns", (long long)r.end_ns);
        row.add("bytes", (long long)r.bytes).add("name", r.name);
        rows += (rows.empty() ? "" : ", ") + row.str();
    }
    std::string note = t.why_empty;
    if (kept < t.records.size())
        note = "the first " + std::to_string(kept) + " of " + std::to_string(t.records.size()) + " records";
    if (t.dropped) note += std::string(note.empty() ? "" : "; ") + std::to_string(t.dropped) + " records dropped by CUPTI";
    grader::JsonObject o;
    o.add("caption", caption)
        .add("kind", "timeline")
        .add("pipeline", pipeline)
        .add("unit", "ns")
        .add("relative", false)
        .add("end_ns", (long long)t.end_ns())
        .add("note", note)
        .add_raw("columns", "[\"what\", \"stream\", \"start_ns\", \"end_ns\", \"bytes\", \"name\"]")
        .add_raw("rows", "[" + rows + "]");
    return o.str();
}

}  // namespace timeline
