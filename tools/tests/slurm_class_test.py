#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The Slurm path of tools/grade_class.py, end to end, on a real single-node cluster:

    python3 tools/tests/slurm_cluster.py -- python3 tools/tests/slurm_class_test.py [--lessons 01] [--chunk 3]

It generates the class of tools/tests/class_fixture.py, writes and submits the grader job,
the job array and the collect job (`grade_class.py CLASS --out GRADES --slurm --submit
--slurm-gres ''`: the cluster has no GPUs, so grading SKIPs, while building, the policy
check, the fan-out over array tasks and the collection are real), waits until the cluster's
queue is empty, requires every job of it to have COMPLETED and every task to have linked the
grader job's build rather than built its own, runs `grade_class.py collect GRADES` once more, as an instructor would,
and checks the gradebook and every other output with `class_fixture.py check`. It must run
where SLURM_CONF names the cluster (slurm_cluster.py sets it). Exit status 0 when all holds."""
import argparse
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]


def sh(cmd, **kw):
    print("$", " ".join(cmd), flush=True)
    return subprocess.run(cmd, **kw)


def out(cmd):
    return subprocess.run(cmd, capture_output=True, text=True).stdout


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lessons", default="01", help="lessons to grade (default 01: one lesson keeps the builds short)")
    # Two tasks fan out, and on CI's 2 cores they run at once, both linking the grader build
    # that the grader job made before them (slurm.py).
    ap.add_argument("--chunk", type=int, default=3, help="submissions per array task (default 3: six students, 2 tasks)")
    ap.add_argument("--timeout", type=float, default=3600, help="seconds to wait for the array (default 3600)")
    ap.add_argument("--dir", help="work here (kept) instead of a temporary folder")
    a = ap.parse_args(argv)
    if not os.environ.get("SLURM_CONF") or subprocess.run(["scontrol", "ping"], capture_output=True).returncode != 0:
        print("slurm_class_test: no Slurm cluster here (run it under tools/tests/slurm_cluster.py)", file=sys.stderr)
        return 2
    d = pathlib.Path(a.dir) if a.dir else pathlib.Path(tempfile.mkdtemp(prefix="slurm-class-"))
    d.mkdir(parents=True, exist_ok=True)
    d.chmod(0o755)
    klass, grades = d / "class", d / "grades"
    tools = ROOT / "tools"
    if sh([sys.executable, str(tools / "tests" / "class_fixture.py"), "make", str(klass)]).returncode != 0:
        return 1
    t0 = time.monotonic()
    r = sh([sys.executable, str(tools / "grade_class.py"), str(klass), "--out", str(grades), "--lessons", a.lessons,
            "--slurm", "--submit", "--slurm-gres", "", "--slurm-cpus", "1", "--slurm-chunk", str(a.chunk),
            "--slurm-time", "01:00:00"], capture_output=True, text=True)
    print(r.stdout + r.stderr, end="")
    jobs = re.findall(r"job (\d+), which builds the grader|job array (\d+)|job (\d+) collects", r.stdout)
    if r.returncode != 0 or len(jobs) != 3:
        print("slurm_class_test: grade_class.py --slurm --submit did not submit a grader job, an array and its "
              "collect job")
        return 1
    # The queue of this private cluster holds our jobs only: wait until it is empty.
    while out(["squeue", "-h", "-o", "%i %T"]).strip():
        if time.monotonic() - t0 > a.timeout:
            print(f"slurm_class_test: the jobs did not finish within {a.timeout:.0f} s:\n" + out(["squeue"]))
            return 1
        time.sleep(5)
    wall = time.monotonic() - t0
    records = [dict(kv.split("=", 1) for kv in line.split() if "=" in kv)
               for line in out(["scontrol", "-o", "show", "job"]).splitlines() if line.strip()]
    problems = [f"job {j.get('JobId')} ({j.get('JobName')}, task {j.get('ArrayTaskId', '-')}): "
                f"{j.get('JobState')}, exit code {j.get('ExitCode')}" for j in records if j.get("JobState") != "COMPLETED"]
    tasks = sum(1 for j in records if j.get("JobName") == "grade-class")
    expected_tasks = len(list((grades / "slurm").glob("chunk-*.txt")))
    if tasks != expected_tasks or tasks < 2:
        problems.append(f"{tasks} array tasks ran, expected {expected_tasks} (at least 2, to test the fan-out)")
    for name in ("grade-class-grader", "grade-class-collect"):
        if not any(j.get("JobName") == name for j in records):
            problems.append(f"the job {name} did not run")
    # The grader is compiled once for the class, by the grader job: every task links it.
    for log in sorted((grades / "slurm").glob("task-*.log")):
        text = log.read_text(errors="replace")
        if "is used read-only" not in text or "the grader is built" in text:
            problems.append(f"{log.name}: the task did not use the class's grader build")
    for p in problems:
        print("FAIL", p)
    if problems:
        for log in sorted((grades / "slurm").glob("*.log")):
            print(f"--- {log}\n" + "".join(log.read_text(errors="replace").splitlines(True)[-20:]))
        return 1
    print(f"slurm_class_test: the grader job, {tasks} array tasks sharing its build and the collect job "
          f"COMPLETED in {wall:.0f} s", flush=True)
    if sh([sys.executable, str(tools / "grade_class.py"), "collect", str(grades)]).returncode != 0:
        return 1
    return sh([sys.executable, str(tools / "tests" / "class_fixture.py"), "check", str(grades),
               "--lessons", a.lessons]).returncode


if __name__ == "__main__":
    sys.exit(main())
