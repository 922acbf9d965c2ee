# SPDX-License-Identifier: MIT
"""Long builds and test runs show progress: a command run with all of its output appended to a
log file, and each of its progress lines shown as it comes, with the time since the start.

The progress lines are Ninja's ("[12/77] Compiling CUDA object ..."; piped, Ninja prints one
as each step finishes) and Meson's, one per finished test (" 3/30 lesson03  OK  41.2s"). On
a terminal the last one is redrawn in place; elsewhere (a file, a Slurm log) a line is written
at most every `every` seconds, and always the last, so that a build of several minutes never
looks like a hang and a log does not fill with hundreds of lines. Used by
tools/gpu_selftest.py and the class grader (class_grading/course.py)."""
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time

# "[12/77] Compiling ..." (Ninja's default NINJA_STATUS) and, of meson test, " 3/30 name  OK  41.2s".
NINJA_STEP = re.compile(r"^\[(\d+)/(\d+)\] (.*)")
MESON_TEST = re.compile(r"^\s*(\d+)/(\d+) (.*?)\s+(OK|FAIL|SKIP|EXPECTEDFAIL|UNEXPECTEDPASS|TIMEOUT|ERROR)\s+([\d.]+s)")


def progress_of(line):
    """(done, total, what) for a progress line of Ninja or Meson, else None."""
    m = NINJA_STEP.match(line)
    if m:
        return int(m.group(1)), int(m.group(2)), m.group(3).strip()
    m = MESON_TEST.match(line)
    if m:
        return int(m.group(1)), int(m.group(2)), f"{m.group(3).strip()} {m.group(4)} {m.group(5)}"
    return None


class Progress:
    """Shows the progress lines of one command under a label ("building the grader")."""

    def __init__(self, label, stream=None, every=10.0, clock=time.monotonic):
        self.label, self.every, self.clock = label, every, clock
        self.stream = stream or sys.stderr
        self.tty = hasattr(self.stream, "isatty") and self.stream.isatty()
        self.t0 = self.last_shown = clock()
        self.pending, self.steps, self.idle = None, 0, False

    def text(self, done, total, what):
        return f"  {self.label}: [{done}/{total}] {self.clock() - self.t0:.0f} s · {what}"

    def line(self, line):
        """One line of the command's output."""
        p = progress_of(line)
        if p is None:
            self.idle = self.idle or line.startswith("ninja: no work to do")
            return
        self.steps += 1
        text = self.text(*p)
        if self.tty:
            width = shutil.get_terminal_size((100, 20)).columns - 1
            self.stream.write("\r\033[K" + text[:width])
            self.stream.flush()
        elif self.steps == 1 or self.clock() - self.last_shown >= self.every or p[0] == p[1]:
            self.show(text)
        else:
            self.pending = text

    def show(self, text):
        self.stream.write(text + "\n")
        self.stream.flush()
        self.last_shown, self.pending = self.clock(), None

    def close(self, rc):
        """After the command: the last progress line not yet shown, then one that says how it ended."""
        if self.tty and self.steps:
            self.stream.write("\r\033[K")
        elif self.pending:
            self.show(self.pending)
        how = "done" if rc == 0 else ("stopped: over its time limit" if rc == 124 else f"failed (exit {rc})")
        steps = f"{self.steps} step{'s' * (self.steps != 1)}, " if self.steps else "nothing to do, " if self.idle else ""
        self.show(f"  {self.label}: {how} ({steps}{self.clock() - self.t0:.0f} s)")


def kill_group(proc):
    """Kills the process and every process of its group (it leads one: run starts it so)."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def run(cmd, log, label, cwd=None, env=None, timeout=None, stream=None, every=10.0):
    """Runs cmd with its output (stdout and stderr together) appended to the file `log` and its
    progress shown on `stream` (standard error by default) under `label`. env: variables added
    to this process's environment for the command (the log's line shows them). Returns (exit
    code, output); 124 when it ran past `timeout` seconds and was killed."""
    shown = Progress(label, stream, every)
    shown.show(f"  {label}: started (its output: {log})")
    out = []
    with open(log, "a", encoding="utf-8") as f:
        f.write(f"\n$ {''.join(f'{k}={v} ' for k, v in (env or {}).items())}{' '.join(map(str, cmd))}\n")
        f.flush()
        # A process group of its own, killed whole: Ninja's compilers hold the pipe open past Ninja.
        with subprocess.Popen(cmd, cwd=cwd, env={**os.environ, **env} if env else None, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, errors="replace", bufsize=1,
                              start_new_session=True) as proc:
            late = threading.Event()

            def kill():
                late.set()
                kill_group(proc)
            timer = threading.Timer(timeout, kill) if timeout else None
            if timer:
                timer.start()
            try:
                for line in proc.stdout:
                    f.write(line)
                    f.flush()
                    out.append(line)
                    shown.line(line.rstrip("\n"))
                rc = proc.wait()
            finally:
                if timer:
                    timer.cancel()
                if proc.poll() is None:  # interrupted (Ctrl-C): the command goes too
                    kill_group(proc)
    rc = 124 if late.is_set() else rc
    shown.close(rc)
    return rc, "".join(out)
