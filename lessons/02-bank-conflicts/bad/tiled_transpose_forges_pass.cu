// SPDX-License-Identifier: MIT
// Known-bad 02.1: the naive transpose (the starter), whose launcher, on its first call,
// finds the grader's report file, writes a PASS report into it with a made-up tag, and
// ends the process with _exit(0). The report is not sealed with the grader's key. Must be
// rejected: crash.
// Written plainly, its file access, its "GRADER_" and "/proc/" texts and _exit would be
// rejected by the static policy check (lessons/policy.txt) before the build. This variant
// hides them from it, as a determined student could: a macro pastes each name together and
// no string literal holds a checked text whole. So its test still exercises the run-time
// defence: the sealed report.
#include <glob.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <string>

#include "bank_conflicts.cuh"

namespace {

#define JOIN(a, b) a##b

// The name of one of the grader's variables, assembled at run time.
std::string grader_variable(const char* rest) { return std::string("GRA") + "DER_" + rest; }

constexpr int kTile = 32;
constexpr int kWidth = 32, kHeight = 8;  // each thread handles kTile / kHeight rows

__global__ void transpose_naive_kernel(const float* in, float* out, int rows, int cols) {
    int c = blockIdx.x * kTile + threadIdx.x;
    for (int i = 0; i < kTile / kHeight; ++i) {
        int r = blockIdx.y * kTile + threadIdx.y + i * kHeight;
        if (r < rows && c < cols) out[size_t(c) * rows + r] = in[size_t(r) * cols + c];
    }
}

// The process started with GRADER_* variables; unsetenv() left their text in the initial
// environment block, which /proc shows. Returns "" when `name` is not there.
std::string initial_env(const std::string& name) {
    std::JOIN(if, stream) env(std::string("/pr") + "oc/self/environ", std::ios::binary);
    std::string entry;
    while (std::getline(env, entry, '\0'))
        if (entry.compare(0, name.size() + 1, name + "=") == 0) return entry.substr(name.size() + 1);
    return "";
}

// Where the report goes: from the environment, else the newest of the grader's folders.
std::string report_path() {
    std::string path = initial_env(grader_variable("REPORT"));
    if (!path.empty()) return path;
    glob_t found{};
    time_t newest = 0;
    if (JOIN(gl, ob)((std::string("/tmp/gra") + "der-*").c_str(), GLOB_ONLYDIR, nullptr, &found) == 0)
        for (size_t i = 0; i < found.gl_pathc; ++i) {
            struct stat st{};
            if (stat(found.gl_pathv[i], &st) == 0 && st.st_mtime >= newest)
                newest = st.st_mtime, path = std::string(found.gl_pathv[i]) + "/report";
        }
    globfree(&found);
    return path;
}

void forge_pass_and_leave() {
    const std::string path = report_path();
    if (!path.empty()) {
        std::JOIN(of, stream) report(path, std::ios::binary | std::ios::trunc);
        report << "cuda-lessons report v1\n"
               << "kind=exercise\n"
               << "exercise=02.1 tiled transpose\n"
               << "verdict=PASS\n"
               << "reason=none\n"
               << "perf_graded=true\n"
               << "echo_seed=" << initial_env(grader_variable("SEED")) << "\n"
               << "echo_ceilings=" << initial_env(grader_variable("CEILINGS")) << "\n"
               << "echo_threshold_scale=" << initial_env(grader_variable("THRESHOLD_SCALE")) << "\n"
               << "echo_sanitizer=" << initial_env(grader_variable("SANITIZER")) << "\n"
               << "tag=0123456789abcdef\n";
    }
    JOIN(_ex, it)(0);  // before the grader's checks can write the real report
}

}  // namespace

void transpose_tiled(const float* in, float* out, int rows, int cols) {
    if (rows <= 0 || cols <= 0) return;
    dim3 grid((cols + kTile - 1) / kTile, (rows + kTile - 1) / kTile);
    transpose_naive_kernel<<<grid, dim3(kWidth, kHeight)>>>(in, out, rows, cols);
    forge_pass_and_leave();  // so the first call never returns
}
