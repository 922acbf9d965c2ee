// SPDX-License-Identifier: MIT
// Lesson 07's timeline (timeline.hpp): the grader's CUPTI activity records, as lanes.
#include "timeline.hpp"

#include <algorithm>
#include <utility>

#include "grader/common/json.hpp"

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

namespace {

What lane_of(grader::Activity::Kind k) {
    switch (k) {
        case grader::Activity::Kind::copy_in: return What::copy_in;
        case grader::Activity::Kind::kernel: return What::work;
        case grader::Activity::Kind::copy_out: return What::copy_out;
        default: return What::other;
    }
}

}  // namespace

Timeline trace(const std::function<void()>& run, const Window* window) {
    Timeline t;
    if (const std::string why = grader::tracing_unavailable(); !why.empty()) return t.why_empty = why, t;
    std::vector<grader::Activity> all;
    {
        grader::ActivityTrace traced(/*copies=*/true);  // switched off again on every way out
        if (!traced.error().empty()) return t.why_empty = traced.error(), t;
        run();
        all = traced.stop();
        t.dropped = traced.dropped();
        if (!traced.error().empty()) return t.why_empty = traced.error(), t;
    }
    for (const grader::Activity& a : all)
        if (!window || window->holds(a.start_ns))
            t.records.push_back({lane_of(a.kind), a.stream, a.start_ns, a.end_ns, a.bytes, a.name});
    if (t.records.empty()) return t.why_empty = "CUPTI recorded no copy and no kernel", t;
    const uint64_t first = t.records.front().start_ns;  // by start time, as stop() gave them
    for (Record& r : t.records) r.start_ns -= first, r.end_ns = r.end_ns > first ? r.end_ns - first : 0;
    return t;
}

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
