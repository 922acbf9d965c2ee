// SPDX-License-Identifier: MIT
/// @file
/// @brief The teaching tables: versions of one computation, timed on the student's GPU
///        in the same run, each as GB/s or GFLOP/s and as a percentage of the ceilings the
///        lesson compares with. One row per version; optionally one column per setting
///        (lesson 06 sweeps the block size), with the best setting and its figure.
///
/// Each table records itself into its exercise as it grows (Exercise::tables()), for the
/// results file's `tables` (docs/results_schema.md): its caption, unit, columns and rows,
/// each row with its key (the figure recorded under it), its label and whether it times the
/// student's code; a heading is a row whose key is empty. Tools chart a table from that
/// alone, in its order and with its labels: a new lesson's tables need no tool edit.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "grader/common/performance.hpp"
#include "grader/common/timing.cuh"
#include "grader/exercise/exercise.hpp"
#include "grader/exercise/table.hpp"

namespace grader {

class TeachingTable {
public:
    struct Options {
        std::string first_header = "version";
        std::string unit = "GB/s";               ///< header of the figure column(s): GB/s or GFLOP/s
        std::vector<std::string> extra_headers;  ///< columns of text each row supplies (e.g. "wavefronts")
        std::vector<std::string> sweep;          ///< one figure column per setting; empty: one figure column
        std::vector<std::string> percent_of;     ///< names of the "% of …" columns (see compare_with)
        bool show_ms = false;                    ///< a column with the median time
        bool show_gbs = false;                   ///< with flops in the work, also a GB/s column (its bytes)
        /// Called before the run that a row's `correct` judges (poison an output there, so
        /// that a version which writes nothing cannot show the previous row's result).
        /// Required once any row has a `correct` function: row() throws otherwise.
        std::function<void()> before_check;
        /// When > 0, the figure is the time divided by this one (a relative-time table).
        double relative_to_ms = 0;
        /// How each setting is timed; a budget_ms of 0 becomes kRowBudgetMs.
        TimingOptions timing;
    };
    /// A row's (or sweep setting's) timed runs stop once they add up to this: a row slower than
    /// this is one run, after its warm-up, and a checked or student row whose first run (see
    /// row) took this long is that run alone. A starter's slowest rows took seconds of a
    /// student's run otherwise (lesson 06: 5 s of 15 on an H100); captions say "median of up
    /// to N runs".
    /// 40 rather than 100: lessons 03, 07 and 08's tables, whose rows take 5–40 ms a run, then
    /// end sooner (#19); a row's figure only informs.
    static constexpr double kRowBudgetMs = kInformingBudgetMs;

    TeachingTable(Exercise& ex, Options options);

    /// The figures the "% of …" columns divide by, from here on (one per percent_of name):
    /// a lesson with groups (A·B, then A·Bᵀ) sets them once per group.
    void compare_with(std::vector<double> figures) { refs_ = std::move(figures); }
    /// A row that holds only a label, heading the rows that follow.
    void heading(const std::string& label);
    /// Times one version and adds its row; returns its figure (the best one for a sweep).
    /// `launch(k)` launches with the k-th sweep setting (k = 0 without a sweep). A student's
    /// version is first run once and faults are rejected; with `correct`, every version
    /// (the grader's too) is run once, after Options::before_check, and a false answer
    /// shows "wrong" instead of a figure; that run is the first of Options::timing's warm-ups,
    /// or, when it took kRowBudgetMs or more (the host's clock around the run and a
    /// synchronize), the cell's figure.
    /// Figures are recorded as "<key>" (and "<key>_best_setting" for a sweep).
    double row(const std::string& label, const std::string& key, Work work, const std::function<void(int)>& launch,
               bool student = false, const std::vector<std::string>& extra = {}, const std::function<bool()>& correct = {});
    /// Prints the table under `caption` (which the record keeps, its line breaks as spaces).
    void print(const std::string& caption);

private:
    struct Row {
        std::string key, label;  ///< key "": a heading
        bool student;
    };
    void record() const;  ///< writes this table's record into its slot of ex_.tables()
    Exercise& ex_;
    Options o_;
    std::vector<double> refs_;
    Table table_;
    std::vector<std::string> header_;
    std::vector<Row> rows_;
    std::string caption_;
    size_t slot_;
};

}  // namespace grader
