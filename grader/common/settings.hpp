// SPDX-License-Identifier: MIT
/// @file
/// @brief The run's settings, read once from the environment before any student code
///        runs, then removed from it.
///
/// Both the supervisor (the `grade` program, which holds no student code) and an
/// exercise's process read their settings in a constructor that runs before the C++ static
/// initializers of ordinary code, student files included. Every `GRADER_*` variable is then
/// removed from the environment, so a later `setenv("GRADER_THRESHOLD_SCALE", …)` changes
/// nothing the grader reads (docs/trust_model.md).
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace grader {

/// Environment variables, in one place. The first four and GRADER_SMS are also options of the
/// supervisor (`--threshold-scale=` and so on; see Layered); Meson's memcheck and racecheck
/// setups set GRADER_SANITIZER. The supervisor sets the rest for each exercise's process.
namespace env {
inline constexpr const char* threshold_scale = "GRADER_THRESHOLD_SCALE";  ///< instructor knob, 1 = as shipped
inline constexpr const char* results_dir = "GRADER_RESULTS_DIR";          ///< where the supervisor writes results
inline constexpr const char* sanitizer = "GRADER_SANITIZER";              ///< memcheck or racecheck (test setups)
inline constexpr const char* sanitizer_path = "GRADER_SANITIZER_PATH";    ///< the compute-sanitizer to run exercises in
inline constexpr const char* timeout = "GRADER_TIMEOUT";                  ///< seconds per exercise
inline constexpr const char* sms = "GRADER_SMS";                          ///< SMs to confine the run to (sm_limit.cuh); "" or "all": the whole GPU
inline constexpr const char* seed = "GRADER_SEED";
inline constexpr const char* ceilings = "GRADER_CEILINGS";
/// "list", "run" or "yardsticks" (the student-free yardstick program: yardsticks.hpp): set by
/// the supervisor only
inline constexpr const char* mode = "GRADER_MODE";
inline constexpr const char* exercise = "GRADER_EXERCISE";  ///< the exercise a "run" process runs; "yardsticks": all, comma-separated
/// The supervisor's yardstick figures (yardsticks.hpp, yardsticks_to_text), for a "run" process
inline constexpr const char* yardsticks = "GRADER_YARDSTICKS";
/// The yardstick program's job file (settle_yardstick_job): written by the supervisor before
/// it opens that program's gate, since the program starts before the ceilings are measured
inline constexpr const char* job = "GRADER_JOB";
inline constexpr const char* report = "GRADER_REPORT";      ///< where that process writes its report
inline constexpr const char* key_file = "GRADER_KEY_FILE";  ///< the report's key: read once, then deleted
/// "kernels": record the kernels each timed call runs (kernels_ran.hpp), for an exercise
/// that has a mechanism check; "" (the default, and every unsupervised run): trace nothing
inline constexpr const char* trace = "GRADER_TRACE";
/// Descriptors of the pipes of a process started ahead of its turn (supervisor.hpp, ExerciseQueue)
inline constexpr const char* gate = "GRADER_GATE";    ///< read one byte from it before any submission code runs
inline constexpr const char* made = "GRADER_MADE";    ///< close it once the CUDA context is made
}  // namespace env

/// The byte the supervisor writes to open a gate (env::gate): run the exercise; or run it,
/// and time nothing until the gate's end of file (the first exercise, while the other
/// processes make their contexts: exercise/gate.hpp).
namespace gate_byte {
inline constexpr char run = 1;
inline constexpr char run_then_wait = 2;
}  // namespace gate_byte

/// What a process was started with. Read-only after the start-up constructor.
struct Settings {
    std::string threshold_scale, results_dir, sanitizer, sanitizer_path, timeout, seed, ceilings;
    std::string sms;  ///< GRADER_SMS as given (parse_sms reads it)
    std::string mode, exercise, report;
    std::string trace;  ///< GRADER_TRACE as given
    std::string yardsticks;  ///< GRADER_YARDSTICKS as given
    std::string job;         ///< GRADER_JOB as given
    int gate_fd = -1, made_fd = -1;  ///< the pipes above; -1: none
    std::array<uint8_t, 16> key{};  ///< from the key file; all zero when there is none
    bool has_key = false;
    /// True in a process the supervisor started ("list" or "run").
    bool supervised() const { return !mode.empty(); }
    /// True in the student-free yardstick program, run by the supervisor (yardsticks.hpp).
    bool yardstick_run() const { return mode == "yardsticks"; }
    /// True when the kernels of each timed call are to be recorded (GRADER_TRACE=kernels).
    bool trace_kernels() const { return trace == "kernels"; }
};

/// The settings this process started with.
const Settings& settings();

/// Reads every GRADER_* variable into a Settings, removes them all from the environment
/// and consumes the key file (read, then unlinked). Runs once, from a start-up constructor;
/// exposed for the unit tests.
Settings read_and_scrub_environment();

/// The yardstick program, started ahead like an exercise's process (supervisor.hpp,
/// YardstickProgram) but before the supervisor has measured the ceilings or listed the
/// exercises, takes both once its gate opens, and its report's key: from the job file
/// (GRADER_JOB), three lines, the ceilings' text, the exercises (comma-separated) and the key
/// (key_text); the file is removed. Called from its start-up constructor only; the one change
/// made to the settings after start-up, in a program that holds no student code. False when
/// the file cannot be read or is malformed.
bool settle_yardstick_job();

/// A report key as 32 hexadecimal digits, and back (false for any other text).
std::string key_text(const std::array<uint8_t, 16>& key);
bool key_from_text(const std::string& text, std::array<uint8_t, 16>& key);

/// The SM count of `--sms=` or GRADER_SMS: a whole number from 1 to 100000, or 0 for "" and
/// "all" (the whole GPU, no limit). Throws std::invalid_argument naming GRADER_SMS otherwise
/// (the supervisor renames it to `--sms` when the option gave the text, as for the scale).
int parse_sms(const std::string& text);

/// One argument of the supervisor, and whether it came from an argument file.
struct Argument {
    std::string text;
    bool from_file = false;
};

/// The supervisor's arguments (argv without the program's name) with every `@FILE` replaced
/// by that file's lines: each non-empty line is one argument, taken verbatim (no quoting, no
/// comments, no nested files). Each Meson test passes one such file, written at configure
/// time, so that the command line Meson prints above the test's output stays short. Throws
/// std::runtime_error, one line naming the file, when a file cannot be read.
std::vector<Argument> expand_argument_files(const std::vector<std::string>& args);

/// A setting the supervisor takes both as an option and as a GRADER_* variable.
struct Layered {
    std::optional<std::string> typed;      ///< the option on the command line (Meson's `--test-args` too)
    std::optional<std::string> from_file;  ///< the option in an argument file: the build's value
    /// The option typed on the command line, else the caller's variable when it is set and not
    /// empty (`GRADER_THRESHOLD_SCALE=0.8 meson test ...` overrides the build's value), else the
    /// option from an argument file, else "". `from_variable`, when given, says whether the variable won.
    std::string value(const std::string& variable, bool* from_variable = nullptr) const;
};

}  // namespace grader
