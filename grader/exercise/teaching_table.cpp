// SPDX-License-Identifier: MIT
#include "grader/exercise/teaching_table.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <stdexcept>

#include "grader/common/cuda_check.cuh"
#include "grader/common/json.hpp"
#include "grader/exercise/gate.hpp"
#include "grader/exercise/outside_calls.hpp"

namespace grader {

namespace {
std::vector<std::string> header(const TeachingTable::Options& o) {
    std::vector<std::string> h = {o.first_header};
    h.insert(h.end(), o.extra_headers.begin(), o.extra_headers.end());
    if (o.show_ms) h.push_back("ms");
    if (o.show_gbs) h.push_back("GB/s");
    if (o.sweep.empty()) {
        h.push_back(o.unit);
    } else {
        h.insert(h.end(), o.sweep.begin(), o.sweep.end());
        h.push_back("best");
        h.push_back("best " + o.unit);
    }
    for (const std::string& p : o.percent_of) h.push_back("% of " + p);
    return h;
}

std::string strings(const std::vector<std::string>& items) {
    std::string s;
    for (const std::string& x : items) s += (s.empty() ? "\"" : ", \"") + json_escape(x) + "\"";
    return "[" + s + "]";
}

// A caption printed over several lines ("\n" and an indent) as one line.
std::string one_line(const std::string& text) {
    std::string out;
    for (size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '\n') {
            out += text[i];
            continue;
        }
        while (i + 1 < text.size() && text[i + 1] == ' ') ++i;
        if (!out.empty() && out.back() != ' ') out += ' ';
    }
    return out;
}
}  // namespace

TeachingTable::TeachingTable(Exercise& ex, Options options)
    : ex_(ex), o_(std::move(options)), table_(header(o_)), header_(header(o_)), slot_(ex.tables().size()) {
    ex_.tables().emplace_back();
    record();
}

void TeachingTable::record() const {
    std::string rows;
    for (const Row& r : rows_) {
        JsonObject row;
        row.add("key", r.key).add("label", r.label).add("student", r.student);
        rows += (rows.empty() ? "" : ", ") + row.str();
    }
    JsonObject t;
    t.add("caption", caption_)
        .add("unit", o_.unit)
        .add("relative", o_.relative_to_ms > 0)
        .add_raw("columns", strings(header_))
        .add_raw("rows", "[" + rows + "]");
    ex_.tables().at(slot_) = t.str();
}

void TeachingTable::heading(const std::string& label) {
    table_.row({label});
    rows_.push_back({"", label, false});
    record();
}

double TeachingTable::row(const std::string& label, const std::string& key, Work work, const std::function<void(int)>& launch,
                          bool student, const std::vector<std::string>& extra, const std::function<bool()>& correct) {
    if (correct && !o_.before_check)
        throw std::logic_error("grader bug: table row \"" + label + "\" is checked, but Options::before_check is not set: "
                               "without it a version that writes nothing shows the previous row's result");
    std::vector<std::string> cells = {label};
    cells.insert(cells.end(), extra.begin(), extra.end());
    const int settings = o_.sweep.empty() ? 1 : int(o_.sweep.size());
    double best = 0, best_ms = 0, best_gbs = 0;
    int best_k = -1;
    std::vector<std::string> figures;
    for (int k = 0; k < settings; ++k) {
        auto go = [&] { launch(k); };
        if (correct) o_.before_check();
        wait_until_contexts_are_made();  // the first run may be the cell's timing (below)
        const auto start = std::chrono::steady_clock::now();
        if (student) ex_.run(label + (o_.sweep.empty() ? "" : ", " + o_.sweep[k]), go);  // ends synchronized
        else if (correct) {  // the run `correct` judges
            entering_student_code();
            go();
            CUDA_CHECK(cudaDeviceSynchronize());
            expect_nothing_left_running(label);
        }
        const double first_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        if (correct && !correct()) {
            figures.push_back("wrong");
            continue;
        }
        TimingOptions timing = o_.timing;
        if (timing.budget_ms == 0) timing.budget_ms = kRowBudgetMs;
        // The run just made (the student's first, or the one `correct` judged) has loaded the
        // module and touched the memory: it was the first warm-up. Where it took the whole
        // budget, it is the cell's one run, timed by the host's clock around it (a starter's
        // slowest cells took 0.1 s or more a run, twice over: #19).
        const bool ran = student || correct;
        if (ran) timing.warmups = std::max(0, timing.warmups - 1);
        const double ms = ran && first_ms >= timing.budget_ms ? first_ms : ex_.time(go, timing).median_ms;
        const double f = o_.relative_to_ms > 0 ? ms / o_.relative_to_ms : work.figure(ms);
        figures.push_back(fixed(f, o_.relative_to_ms > 0 ? 1 : 0));
        const bool better = o_.relative_to_ms > 0 ? (best_k < 0 || f < best) : f > best;
        if (better) best = f, best_ms = ms, best_gbs = work.bytes / (ms * 1e6), best_k = k;
    }
    if (o_.show_ms) cells.push_back(best_k < 0 ? "—" : fixed(best_ms, 2));
    if (o_.show_gbs) cells.push_back(best_k < 0 ? "—" : fixed(best_gbs));
    cells.insert(cells.end(), figures.begin(), figures.end());
    if (!o_.sweep.empty()) {
        cells.push_back(best_k < 0 ? "—" : o_.sweep[best_k]);
        cells.push_back(best_k < 0 ? "—" : fixed(best));
    }
    for (size_t i = 0; i < o_.percent_of.size(); ++i)
        cells.push_back(best_k < 0 || i >= refs_.size() || !(refs_[i] > 0) ? "—" : fixed(100 * best / refs_[i], 1));
    table_.row(cells);
    rows_.push_back({key, label, student});
    record();
    ex_.figure(key, best);
    if (!o_.sweep.empty() && best_k >= 0) ex_.label(key + "_best_setting", o_.sweep[best_k]);
    return best;
}

void TeachingTable::print(const std::string& caption) {
    caption_ = one_line(caption);
    record();
    std::printf("      %s\n%s", caption.c_str(), table_.str().c_str());
    std::fflush(stdout);
}

}  // namespace grader
