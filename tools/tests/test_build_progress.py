# SPDX-License-Identifier: MIT
"""Tests of tools/build_progress.py: Ninja's and Meson's progress lines shown as they come, on a
terminal and in a log, with the whole output in the log file.

Run from the repository root: python3 -m unittest discover -s tools/tests -t .
"""
import io
import pathlib
import sys
import tempfile
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
import build_progress  # noqa: E402

# Ninja's lines when piped (one per finished step) and Meson's test lines, as they print them.
NINJA = ["ninja: Entering directory `build'", "[1/3] Compiling C++ object grader/libgrader.a.p/json.cpp.o",
         "[2/3] Compiling Cuda object lesson01.p/matrix_mapping.cu.o", "[3/3] Linking target lesson01"]
MESON = ["1/2 lessons+01-coalescing - cuda-lessons:lesson01 RUNNING",
         "SKIP lesson01: policy OK, compiled, 3 exercises listed; no CUDA GPU or NVIDIA driver in this machine",
         "1/2 lessons+01-coalescing - cuda-lessons:lesson01 SKIP               0.21s   exit status 77",
         " 2/2 grader                                      OK              3.05s"]


class Clock:
    """A clock that moves only when told."""

    def __init__(self):
        self.t = 100.0

    def __call__(self):
        return self.t


class Terminal(io.StringIO):
    def isatty(self):
        return True


class Lines(unittest.TestCase):
    def test_progress_lines_of_ninja_and_meson(self):
        self.assertEqual(build_progress.progress_of(NINJA[1]), (1, 3, "Compiling C++ object grader/libgrader.a.p/json.cpp.o"))
        self.assertIsNone(build_progress.progress_of(NINJA[0]))
        self.assertIsNone(build_progress.progress_of(MESON[0]))  # started, not finished
        self.assertIsNone(build_progress.progress_of(MESON[1]))  # the test's own output
        self.assertEqual(build_progress.progress_of(MESON[2]), (1, 2, "lessons+01-coalescing - cuda-lessons:lesson01 SKIP 0.21s"))
        self.assertEqual(build_progress.progress_of(MESON[3]), (2, 2, "grader OK 3.05s"))

    def test_a_log_gets_the_first_step_then_a_line_every_interval_and_the_last(self):
        clock, out = Clock(), io.StringIO()
        p = build_progress.Progress("building the grader", out, every=10, clock=clock)
        for i in range(1, 31):  # 30 steps, 1 s each
            clock.t += 1
            p.line(f"[{i}/30] step {i}")
        clock.t += 2
        p.close(0)
        self.assertEqual(out.getvalue().splitlines(), [
            "  building the grader: [1/30] 1 s · step 1", "  building the grader: [11/30] 11 s · step 11",
            "  building the grader: [21/30] 21 s · step 21", "  building the grader: [30/30] 30 s · step 30",
            "  building the grader: done (30 steps, 32 s)"])

    def test_a_step_left_unshown_is_shown_before_the_end(self):
        clock, out = Clock(), io.StringIO()
        p = build_progress.Progress("building", out, every=10, clock=clock)
        for i in (1, 2):
            clock.t += 1
            p.line(f"[{i}/5] step {i}")
        p.close(1)  # the build stopped at its second step
        self.assertEqual(out.getvalue().splitlines(), ["  building: [1/5] 1 s · step 1", "  building: [2/5] 2 s · step 2",
                                                       "  building: failed (exit 1) (2 steps, 2 s)"])

    def test_a_terminal_gets_one_line_redrawn(self):
        out = Terminal()
        p = build_progress.Progress("building", out, clock=Clock())
        for line in NINJA:
            p.line(line)
        p.close(0)
        self.assertEqual(out.getvalue().count("\r\033[K  building: ["), 3)
        self.assertTrue(out.getvalue().endswith("\r\033[K  building: done (3 steps, 0 s)\n"))

    def test_nothing_to_do(self):
        out = io.StringIO()
        p = build_progress.Progress("building", out, clock=Clock())
        p.line("ninja: no work to do.")
        p.close(0)
        self.assertEqual(out.getvalue(), "  building: done (nothing to do, 0 s)\n")
        out = io.StringIO()
        p = build_progress.Progress("configuring", out, clock=Clock())  # a command that is not Ninja
        p.line("The Meson build system")
        p.close(0)
        self.assertEqual(out.getvalue(), "  configuring: done (0 s)\n")


class Run(unittest.TestCase):
    def test_output_goes_to_the_log_and_progress_to_the_stream(self):
        script = "import sys\nfor line in sys.argv[1:]: print(line, flush=True)\nsys.exit(3)"
        with tempfile.TemporaryDirectory() as d:
            log = pathlib.Path(d) / "log"
            log.write_text("earlier\n")
            out = io.StringIO()
            rc, output = build_progress.run([sys.executable, "-c", script] + NINJA, log, "building", stream=out,
                                            env={"X_SHOWN": "1"})
            self.assertEqual(rc, 3)
            self.assertEqual(output.splitlines(), NINJA)
            text = log.read_text()
            self.assertTrue(text.startswith("earlier\n\n$ X_SHOWN=1 "))  # appended, the command on its own line
            self.assertTrue(text.endswith("\n".join(NINJA) + "\n"))
        lines = out.getvalue().splitlines()
        self.assertEqual(lines[0], f"  building: started (its output: {log})")
        self.assertEqual(lines[1][:23], "  building: [1/3] 0 s ·")
        self.assertEqual(lines[-1][:37], "  building: failed (exit 3) (3 steps,")

    def test_a_command_past_its_time_is_stopped(self):
        with tempfile.TemporaryDirectory() as d:
            out = io.StringIO()
            # A child that holds the pipe, as Ninja's compilers do: it is stopped too.
            child = "import subprocess, sys, time; subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'])"
            rc, _ = build_progress.run([sys.executable, "-c", f"{child}; print('[1/2] a', flush=True); time.sleep(60)"],
                                       pathlib.Path(d) / "log", "building", timeout=1, stream=out)
        self.assertEqual(rc, 124)
        self.assertIn("building: stopped: over its time limit (1 step,", out.getvalue())


if __name__ == "__main__":
    unittest.main()
