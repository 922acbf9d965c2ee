// SPDX-License-Identifier: MIT
// The test main every lesson's grader links: checks the GPU (exit 77 = SKIP when there
// is none), measures the ceilings once, runs the selected exercises each in a process of
// its own, prints a summary and writes the results file.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cuda_runtime.h>
#include <sys/stat.h>
#include <unistd.h>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <string>

#include "grader/json.hpp"
#include "grader/runner.hpp"
#include "grader/session.hpp"

namespace {

constexpr int kSkip = 77;  // what Meson (and Automake) read as SKIP

std::string self_path(const char* argv0) {
    char buf[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0) return argv0;
    buf[n] = '\0';
    return buf;
}

std::string base_name(const std::string& path) { return path.substr(path.find_last_of('/') + 1); }

bool only_lists(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a.rfind("--list", 0) == 0 || a.rfind("-l", 0) == 0 || a == "-h" || a == "--help" || a == "-?" ||
            a.rfind("--count", 0) == 0 || a.rfind("-c", 0) == 0 || a == "--version" || a == "-v")
            return true;
    }
    return false;
}

void print_grader_help() {
    std::printf(
        "grader options (besides doctest's, e.g. -tc='01.2*' to run one exercise):\n"
        "  --seed=N            reproduce a run's inputs (each run prints its seed)\n"
        "  --timeout=S         seconds one exercise may take before it counts as a hang (default 180)\n"
        "  --in-process        run exercises in this process (for cuda-gdb, ncu); a fault then ends the run\n"
        "  --expect-reject=R   a known-bad variant's test: pass only if each exercise is rejected for a\n"
        "                      reason in R (wrong,bounds,fault,slow,impossible,hang,crash)\n"
        "environment: GRADER_THRESHOLD_SCALE (instructor knob, 1 = as shipped), GRADER_RESULTS_DIR\n");
}

void write_results(const std::string& lesson, const grader::GpuInfo& g, const grader::Ceilings& c, int rc) {
    std::string dir = grader::getenv_or(grader::env::results_dir, "results");
    mkdir(dir.c_str(), 0755);
    std::string items;
    for (const auto& o : grader::outcomes()) items += (items.empty() ? "\n  " : ",\n  ") + o.report;
    grader::JsonObject gpu;
    gpu.add("name", g.name).add("arch", g.arch()).add("sms", g.sms).add("l2_bytes", g.l2_bytes);
    grader::JsonObject ceil;
    ceil.add("copy_gbs", c.copy_gbs).add("dram_gbs", c.dram_gbs).add("fma_gflops", c.fma_gflops);
    grader::JsonObject doc;
    doc.add("lesson", lesson)
        .add("seed", grader::getenv_or(grader::env::seed, ""))
        .add("threshold_scale", grader::threshold_scale())
        .add("sanitizer", grader::getenv_or(grader::env::sanitizer, ""))
        .add_raw("gpu", gpu.str())
        .add_raw("ceilings", ceil.str())
        .add_raw("exercises", "[" + items + "\n]")
        .add("exit_code", rc);
    std::string path = dir + "/" + lesson + ".json";
    std::ofstream f(path);
    f << doc.str() << "\n";
    std::printf("results: %s\n", f ? path.c_str() : ("could not write " + path).c_str());
}

}  // namespace

int main(int argc, char** argv) {
    grader::RunnerOptions opts;
    try {
        opts = grader::parse_runner_options(argc, argv);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s\n", e.what());
        print_grader_help();
        return 2;
    }
    const std::string self = self_path(argv[0]);
    grader::configure_runner(opts, self);
    doctest::Context context(argc, argv);

    // An exercise's own process: run the one test case and report through the exit code.
    if (!grader::getenv_or(grader::env::child, "").empty()) {
        int rc = context.run();
        return rc != 0 && grader::child_exit_code() == 0 ? 1 : grader::child_exit_code();
    }
    if (only_lists(argc, argv)) {
        if (argc > 1 && (std::string(argv[1]) == "-h" || std::string(argv[1]) == "--help")) print_grader_help();
        return context.run();
    }

    const std::string lesson = base_name(self);
    std::string why = grader::gpu_unusable_reason();
    if (!why.empty()) {
        std::printf("SKIP %s: %s\n", lesson.c_str(), why.c_str());
        return kSkip;
    }
    try {
        std::string seed = opts.seed.empty() ? grader::getenv_or(grader::env::seed, "") : opts.seed;
        if (seed.empty()) seed = std::to_string(std::random_device{}() % 1000000000u);
        setenv(grader::env::seed, seed.c_str(), 1);

        const grader::GpuInfo& g = grader::gpu();
        std::printf("== %s · seed %s (same inputs again: --test-args='--seed=%s') · threshold scale %.2f\n", lesson.c_str(),
                    seed.c_str(), seed.c_str(), grader::threshold_scale());
        std::printf("   GPU  %s · %s · %d SMs · L2 %.0f MiB · %.1f GiB\n", g.name.c_str(), g.arch().c_str(), g.sms,
                    g.l2_bytes / 1048576.0, g.global_bytes / 1073741824.0);
        grader::Ceilings c;
        if (grader::sanitizer_mode()) {
            std::printf("   under compute-sanitizer (%s): correctness only, no timing\n",
                        grader::getenv_or(grader::env::sanitizer, "").c_str());
        } else {
            c = grader::ceilings();
            setenv(grader::env::ceilings, c.to_env().c_str(), 1);
            std::printf("   ceilings measured now: copy %.0f GB/s (read + write) · DRAM theoretical %.0f GB/s · "
                        "FP32 FMA %.0f GFLOP/s\n",
                        c.copy_gbs, c.dram_gbs, c.fma_gflops);
        }
        std::fflush(stdout);
        if (!opts.in_process) cudaDeviceReset();  // each exercise gets the GPU in its own process

        context.setOption("minimal", true);  // the verdict lines are the output
        context.setOption("no-version", true);
        context.run();
        if (grader::outcomes().empty()) std::printf("   no exercise matches the filter given (list them: --test-args=--list-test-cases)\n");
        int rc = grader::exit_code();
        int passed = 0, failed = 0, skipped = 0;
        for (const auto& o : grader::outcomes())
            if (o.verdict != "INFO") (o.verdict == "PASS" ? passed : o.verdict == "SKIP" ? skipped : failed)++;
        std::printf("== %s: %d passed, %d failed, %d skipped\n", lesson.c_str(), passed, failed, skipped);
        write_results(lesson, g, c, rc);
        return rc;
    } catch (const std::exception& e) {
        std::printf("FAIL %s: the grader could not run: %s\n", lesson.c_str(), e.what());
        return 1;
    }
}
