#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""GPU self-test: builds the references and the starters, runs every lesson and every
known-bad variant, and checks the course's promises in one table:

  * every graded exercise of the references PASSES;
  * every graded exercise of the starters FAILS (exercise NN.0 is a teaching table: ungraded);
  * every known-bad variant is REJECTED for the reason its lesson names.

Usage (on a machine with a GPU, from the repository root):
    python3 tools/gpu_selftest.py [--lessons lesson01,lesson06] [--memcheck] [--build-root DIR]
Exit status 0 when every promise holds. The table also goes to $OUT/selftest.md when OUT is set.
"""
import argparse
import json
import os
import pathlib
import shutil
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent


def sh(cmd, log, check=True, timeout=None):
    """Runs cmd, appending its output to the log file; returns the exit code (124: timed out)."""
    with open(log, "a") as f:
        f.write(f"\n$ {' '.join(cmd)}\n")
        f.flush()
        try:
            rc = subprocess.call(cmd, stdout=f, stderr=subprocess.STDOUT, cwd=ROOT, timeout=timeout)
        except subprocess.TimeoutExpired:
            rc = 124
    if check and rc != 0:
        sys.exit(f"self-test: '{' '.join(cmd)}' failed (exit {rc}); see {log}")
    return rc


def setup(build, kernels, log):
    again = ["--reconfigure"] if (build / "build.ninja").exists() else []
    sh(["meson", "setup", *again, str(build), f"-Dkernels={kernels}"], log)


def test_results(build, setup=""):
    """{test name: (result, returncode)} from Meson's machine-readable log (one per setup)."""
    out = {}
    log = build / "meson-logs" / (f"testlog-{setup}.json" if setup else "testlog.json")
    if log.exists():
        for line in log.read_text().splitlines():
            t = json.loads(line)
            # "suite - project:name" (Meson 1.4+) or "project:suite / name" (older)
            name = t["name"].split(" / ")[-1] if " / " in t["name"] else t["name"].split(":")[-1]
            out[name] = (t["result"], t.get("returncode"))
    return out


def lesson_json(build, name):
    p = build / "results-timed" / f"{name}.json"
    if not p.exists():
        p = build / "results" / f"{name}.json"
    return json.loads(p.read_text()) if p.exists() else None


def fmt(x, unit=""):
    return "—" if x is None else f"{x:.0f}{unit}"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lessons", default="", help="comma-separated test names (default: all)")
    ap.add_argument("--memcheck", action="store_true", help="also run the references under compute-sanitizer memcheck")
    ap.add_argument("--memcheck-timeout", type=int, default=300, help="seconds the memcheck run may take")
    ap.add_argument("--build-root", default=str(ROOT / "build-selftest"))
    args = ap.parse_args()
    root = pathlib.Path(args.build_root)
    root.mkdir(parents=True, exist_ok=True)
    log = root / "selftest.log"
    log.write_text("")
    ref, sta = root / "solutions", root / "starter"
    t0 = time.time()
    setup(ref, "solutions", log)
    setup(sta, "starter", log)
    # Build everything up front, in parallel: the tests then only run.
    sh(["ninja", "-C", str(ref)] + [t for t in targets(ref)], log)
    sh(["ninja", "-C", str(sta)] + [t for t in targets(sta)], log)
    for b in (ref, sta):  # results of an earlier run must not be read as this run's
        shutil.rmtree(b / "results", ignore_errors=True)
        shutil.rmtree(b / "results-timed", ignore_errors=True)
        for old in (b / "meson-logs").glob("testlog*.json"):
            old.unlink()
    only = [x for x in args.lessons.split(",") if x]
    sel = only if only else []
    which = sel_bad(ref, sel) if sel else ["--suite", "lessons", "--suite", "known-bad", "--suite", "grader"]
    sh(["meson", "test", "-C", str(ref), "--no-rebuild"] + which, log, check=False)
    ref_tests = test_results(ref)
    sh(["meson", "test", "-C", str(sta), "--no-rebuild"] + (sel or ["--suite", "lessons"]), log, check=False)
    sta_tests = test_results(sta)
    mem_tests = {}
    if args.memcheck:  # keep the timed results apart: the memcheck run writes its own
        shutil.rmtree(ref / "results-timed", ignore_errors=True)
        shutil.move(str(ref / "results"), str(ref / "results-timed"))
        rc = sh(["meson", "test", "-C", str(ref), "--no-rebuild", "--setup", "memcheck"] + (sel or ["--suite", "lessons"]),
                log, check=False, timeout=args.memcheck_timeout)
        mem_tests = test_results(ref, "memcheck") if rc != 124 else {"(all)": ("TIMEOUT", 124)}

    lessons = sorted({n for n in ref_tests if n.startswith("lesson") and "-bad-" not in n})
    problems, notes, rows, gpu = [], [], [], None
    for lesson in lessons:
        r, s = lesson_json(ref, lesson), lesson_json(sta, lesson)
        if r is None and ref_tests[lesson][1] == 77:
            problems.append(f"{lesson}: SKIP — no usable GPU")
            continue
        if r is None:
            problems.append(f"{lesson}: the references produced no results ({ref_tests.get(lesson)})")
            continue
        gpu = gpu or r["gpu"]["name"]
        bad = {n: v for n, v in ref_tests.items() if n.startswith(lesson + "-bad-")}
        starter = {e["exercise"]: e for e in (s or {}).get("exercises", [])}
        for e in r["exercises"]:
            ex = e["exercise"]
            teaching = ex.split(" ")[0].endswith(".0")
            st = starter.get(ex, {})
            prefix = ex.split(" ")[0]
            kb = [f"{n.split('-bad-')[1]}:{'ok' if v[0] == 'OK' else v[0]}" for n, v in sorted(bad.items())
                  if (lesson_json(ref, n) or {}).get("exercises") and
                  lesson_json(ref, n)["exercises"][0]["exercise"].split(" ")[0] == prefix]
            ratio = f"{e['figure'] / e['threshold']:.2f}" if e.get("figure") and e.get("threshold") else "—"
            rows.append([ex, e["verdict"], fmt(e.get("figure")), fmt(e.get("threshold")), ratio,
                         fmt(100 * e["fraction_of_ceiling"], "%") if e.get("fraction_of_ceiling") else "—",
                         fmt(100 * e["figure"] / e["vendor_gbs"], "%") if e.get("figure") and e.get("vendor_gbs") else "—",
                         (st.get("verdict", "—") + (f" [{st['reason']}]" if st.get("reason") not in (None, "none") else "")),
                         fmt(st.get("figure") or st.get("naive_figure") or e.get("naive_figure")), " ".join(kb) or "—"])
            if teaching:
                continue
            if e["verdict"] != "PASS":
                problems.append(f"{ex}: reference {e['verdict']} [{e['reason']}] {e['message'][:200]}")
            if e.get("figure") and e.get("threshold") and e["figure"] < 1.1 * e["threshold"]:
                problems.append(f"{ex}: reference only {e['figure'] / e['threshold']:.2f} x its threshold (need >= 1.1)")
            if st.get("verdict") != "FAIL" and not e.get("overlaps_previous"):
                problems.append(f"{ex}: starter {st.get('verdict', 'not run')} — it must fail")
            if st.get("verdict") != "FAIL" and e.get("overlaps_previous"):
                notes.append(f"{ex}: starter {st.get('verdict')} (allowed: {e['overlaps_previous'][:90]}...)")
        for n, v in sorted(bad.items()):
            if v[0] != "OK":
                problems.append(f"{n}: known-bad variant not rejected as expected ({v[0]}, exit {v[1]})")
        if mem_tests and "(all)" not in mem_tests and mem_tests.get(lesson, ("?",))[0] not in ("OK",):
            problems.append(f"{lesson}: memcheck {mem_tests.get(lesson)}")

    head = ["exercise", "ref", "ref figure", "threshold", "ref/thr", "ref % ceil", "ref % vendor", "starter", "naive fig", "known-bad"]
    widths = [max(len(str(x)) for x in col) for col in zip(head, *rows)] if rows else [len(h) for h in head]
    lines = [f"GPU self-test on {gpu or 'no GPU'} · {time.strftime('%Y-%m-%d')} · {time.time() - t0:.0f} s",
             "| " + " | ".join(h.ljust(w) for h, w in zip(head, widths)) + " |",
             "|" + "|".join("-" * (w + 2) for w in widths) + "|"]
    lines += ["| " + " | ".join(str(c).ljust(w) for c, w in zip(row, widths)) + " |" for row in rows]
    unit_ok = ref_tests.get("grader", ("?",))[0]
    mem = "not run" if not mem_tests else "timed out" if "(all)" in mem_tests else ", ".join(
        f"{n} {v[0]}" for n, v in sorted(mem_tests.items()) if n.startswith("lesson"))
    lines.append(f"grader unit tests: {unit_ok} · memcheck of the references: {mem}")
    lines += [f"note: {n}" for n in notes]
    lines.append("all promises hold" if not problems else "PROBLEMS:\n  " + "\n  ".join(problems))
    text = "\n".join(lines)
    print(text)
    if os.environ.get("OUT"):
        pathlib.Path(os.environ["OUT"], "selftest.md").write_text(text + "\n")
    return 1 if problems else 0


def targets(build):
    """Every lesson executable (they are not built by default)."""
    out = subprocess.run(["ninja", "-C", str(build), "-t", "targets", "all"], capture_output=True, text=True).stdout
    return sorted({l.split(":")[0] for l in out.splitlines() if l.split(":")[0].startswith("lesson")
                   and "." not in l.split(":")[0]} | {"grader/grader_unit_tests"})


def sel_bad(build, sel):
    """With --lessons, the selected lessons and their known-bad tests."""
    if not sel:
        return []
    names = subprocess.run(["meson", "test", "-C", str(build), "--list", "--no-rebuild"], capture_output=True,
                           text=True, cwd=ROOT).stdout.split()
    return [n.split(":")[-1] for n in names if any(n.split(":")[-1].startswith(s) for s in sel)] + ["grader"]


if __name__ == "__main__":
    sys.exit(main())
