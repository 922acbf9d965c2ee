#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""GPU self-test: checks on this machine's GPU that the course keeps its promises. What it
checks, writes and needs is HELP below, which `python3 tools/gpu_selftest.py --help` prints.

Everything that reads results and decides is a plain function of paths and dicts (from
read_results_file to render_markdown); only the functions after "Building and running" start
processes. tools/tests/test_gpu_selftest.py tests the former on synthetic results. Results
files are of schema cuda-lessons-results, version 1 (docs/results_schema.md); a known-good
test's file is named after its test like any other (lesson02-good-padded-32x32.json).
"""
import argparse
import json
import math
import os
import pathlib
import re
import shutil
import statistics
import subprocess
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import build_progress  # noqa: E402  (beside this script)
from class_grading.course import lesson_tests, meson_info  # noqa: E402
from results_files import files_by_test, read_results_file, read_testlog, test_name  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent

# The course's one margin rule, on both sides of every graded threshold: the reference's
# figure >= MARGIN x threshold, and threshold >= MARGIN x the figure of a starter that fails
# for being slow. docs/thresholds.md, section "Margins", states and explains it;
# tools/tests/test_gpu_selftest.py fails when the two disagree.
MARGIN = 1.10

# The most DRAM bandwidth per SM of any GPU the course supports, in GB/s: a B200's published
# 8 TB/s over its 148 SMs. A partition of --sms with more than this (it keeps all of its
# GPU's DRAM) is a shape no real GPU has: there a reference that passes memory-bound work
# within the margin is a note, not a problem (docs/thresholds.md, "Other GPU shapes").
RICHEST_DRAM_PER_SM = 54

# Where each run's results files and test log are kept, inside each build folder.
ARCHIVE = "selftest"

# The exit status when no GPU is found: Meson's and the grader's "skipped".
NO_GPU = 77

HELP = f"""\
Checks, on this machine's NVIDIA GPU, that the course keeps its promises, and prints one
table with a row per exercise. Run it from the course's folder. It first builds the
references (solutions/) and the starters (starter/), which takes minutes, then runs every
lesson; progress is shown as it goes.

  python3 tools/gpu_selftest.py                    every lesson
  python3 tools/gpu_selftest.py --lessons 01,06    lessons 01 and 06 only (only they are built)
  python3 tools/gpu_selftest.py --repeat 3         three runs: a verdict that changes is a problem

The promises:
  * every graded exercise of the references PASSES, with its figure at least {MARGIN:.2f} x its
    threshold (the margin: docs/thresholds.md, section "Margins"). Exercise NN.0 is a
    teaching table: shown (INFO), not graded;
  * every graded exercise of the starters FAILS and, where it fails for being slow, its
    threshold is at least {MARGIN:.2f} x the starter's figure. Exceptions are listed as notes
    under the table: an exercise whose results say its starter may pass, and one with a
    mechanism check (lessons/*/technique.txt), which fails an unchanged starter whatever its
    speed, so that its starter needs no margin (but must still FAIL);
  * every known-bad variant (a broken kernel kept with its lesson, test lessonNN-bad-NAME)
    is rejected for the reason its lesson names, and every known-good variant (an unusual
    but correct kernel, test lessonNN-good-NAME) PASSES;
  * the grader's unit tests pass;
  * with --repeat N, no verdict changes between the N runs.

What it writes: the table on standard output (also to $OUT/selftest.md when the variable
OUT is set), the same data as JSON in BUILD_ROOT/selftest.json (and $OUT/selftest.json);
after each test phase but the last, the report of those done so far as selftest.partial.*
in the same places, so that a run cut short still leaves what it measured;
the output of every command it ran in BUILD_ROOT/selftest.log, and each run's results
files and Meson test log in BUILD_ROOT/solutions/selftest/repK/ and BUILD_ROOT/starter/
selftest/repK/.

It needs an NVIDIA GPU, its driver and a CUDA toolkit, with Meson and Ninja (README,
"Requirements"). Without a GPU it stops at once and says so: there is nothing to measure.

Exit status: 0 when every promise holds; 1 when one does not (the lines under the table
say which); {NO_GPU} when no GPU was found. If a promise does not hold on your GPU, please
send the maintainers the table and the lines under it (the standard output).
"""


# ====================================================================== reading results

def read_results_dir(folder):
    """The results files of one run: {"docs": {test: document}, "invalid": {test: problem}}.

    A file is named after its test: lesson01.json, lesson01-bad-faults.json, or under a
    sanitizer setup <test>.memcheck.json / <test>.racecheck.json (a known-bad variant that
    only racecheck can catch writes the latter even in the timed run). Where a folder holds
    both, the run without a sanitizer is the one graded on speed, so it is kept. A file this
    script cannot read is kept as a problem, so that one bad file does not hide the others."""
    docs, invalid = {}, {}
    for test, path in files_by_test(folder)[0]:
        doc, problem = read_results_file(path)
        if doc is None:
            invalid[test] = problem
        else:
            docs[test] = doc
    return {"docs": docs, "invalid": invalid}


def load_run(ref_dir, sta_dir):
    """One repetition, from the folders it was archived to (each holds results/ and testlog.json)."""
    ref_dir, sta_dir = pathlib.Path(ref_dir), pathlib.Path(sta_dir)
    return {"ref": read_results_dir(ref_dir / "results"), "sta": read_results_dir(sta_dir / "results"),
            "ref_tests": read_testlog(ref_dir / "testlog.json"), "sta_tests": read_testlog(sta_dir / "testlog.json")}


def mechanism_exercises(root):
    """The exercise numbers ("03.2") that have a mechanism check: the section headers
    [EXERCISE FILE] of root/lessons/*/technique.txt (grader/supervisor/technique.hpp gives the format).
    Comments and other lines are ignored; no file, or one that cannot be read, adds nothing
    (a tree without technique files has no mechanism check)."""
    numbers = set()
    for path in sorted(pathlib.Path(root).glob("lessons/*/technique.txt")):
        try:
            lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError:
            continue
        for line in lines:
            t = line.strip()
            if t.startswith("[") and t.endswith("]"):
                words = t[1:-1].split()
                if len(words) == 2:  # [04.2 2_halo_tile.cu]: the grader refuses any other header
                    numbers.add(words[0])
    return numbers


# ====================================================================== one exercise

def number(value):
    """value as a float when it is a finite number, else None (absent, null, text)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
        return float(value)
    return None


def ratio(a, b):
    """a / b when both are positive numbers, else None."""
    return a / b if a is not None and b is not None and a > 0 and b > 0 else None


def percent(x):
    """x (a fraction) in percent, None when absent."""
    return None if x is None else 100 * x


def exercise_number(name):
    """"01.1" of "01.1 matrix mapping"."""
    return name.split(" ")[0]


def is_teaching(name):
    """Exercise NN.0 is a teaching table by convention (results files also say so, in the
    exercise's "teaching"): INFO (SKIP under a sanitizer), never graded."""
    return exercise_number(name).endswith(".0")


def find_exercise(doc, name):
    """The exercise of that name in a results document, or None."""
    return next((e for e in (doc or {}).get("exercises") or [] if e.get("exercise") == name), None)


def outcome(e):
    """The fields of one exercise of a results file that the self-test uses, flattened; None
    when the exercise did not run."""
    if e is None:
        return None
    figures, labels = e.get("figures") or {}, e.get("labels") or {}
    return {"verdict": e.get("verdict"), "reason": e.get("reason"), "message": e.get("message") or "",
            "note": e.get("note") or "", "teaching": bool(e.get("teaching")), "unit": labels.get("unit"),
            "figure": number(figures.get("figure")), "threshold": number(figures.get("threshold")),
            "fraction_of_ceiling": number(figures.get("fraction_of_ceiling")),
            "vendor_figure": number(figures.get("vendor_figure"))}


def verdict_text(o):
    """"PASS", "FAIL [slow]", or "not run" for an outcome."""
    if o is None:
        return "not run"
    return o["verdict"] + (f" [{o['reason']}]" if o.get("reason") not in (None, "", "none") else "")


def fails_slow(o):
    """Whether an outcome is FAIL [slow] with a figure: the case the starter-side margin is about."""
    return o is not None and o["verdict"] == "FAIL" and o["reason"] == "slow" and o["figure"] is not None


def starter_ratio(ref, sta):
    """Threshold / starter figure. The threshold is the starter run's own (its verdict was
    judged against it; the ceilings are measured in every run), the reference's if it has none."""
    if sta is None:
        return None
    return ratio(sta["threshold"] if sta["threshold"] is not None else (ref or {}).get("threshold"), sta["figure"])


def bad_exercise(doc):
    """The exercise number ("01.2") a known-bad test ran: its results' one exercise or, when it
    ran none (it crashed, or matched nothing), its -tc filter ("-tc=01.2*"); None if neither."""
    if not doc:
        return None
    exercises = doc.get("exercises") or []
    if exercises and exercises[0].get("exercise"):
        return exercise_number(exercises[0]["exercise"])
    for f in doc.get("filters") or []:
        if f.startswith("-tc="):
            return exercise_number(f[len("-tc="):].split(",")[0]).rstrip("*?") or None
    return None


def is_variant(test):
    """Whether a test is a known-bad or a known-good variant (lesson01-bad-faults,
    lesson02-good-padded-32x32) rather than a lesson's own test."""
    return "-bad-" in test or "-good-" in test


def variant_tests(run, lesson, kind):
    """The names of the lesson's variant tests of one kind ("bad" or "good") in one run: those
    Meson ran and those that wrote a results file, sorted."""
    prefix = f"{lesson}-{kind}-"
    return sorted({n for n in [*run["ref_tests"], *run["ref"]["docs"]] if n.startswith(prefix)})


def known_bad(run, lesson):
    """{known-bad test of the lesson: {"result", "returncode", "exercise"}} in one run; the
    result is Meson's (OK: rejected for its named reason)."""
    out = {}
    for name in variant_tests(run, lesson, "bad"):
        t = run["ref_tests"].get(name, {})
        out[name] = {"result": t.get("result") or "not run", "returncode": t.get("returncode"),
                     "exercise": bad_exercise(run["ref"]["docs"].get(name))}
    return out


def good_status(result, doc, invalid=None):
    """What a known-good test came to: "OK" when Meson's result is OK and its results file
    graded its exercise (every exercise it ran) PASS; else what went wrong, in a few words: the
    first verdict that is not PASS ("FAIL [slow]"), the results' status when they were not
    graded, "unreadable results" (invalid: the file's problem), Meson's result when there is
    no results file ("TIMEOUT"), "no exercise ran", or Meson's result when the verdicts hold
    but the test did not ("Meson FAIL")."""
    if invalid:
        return "unreadable results"
    if doc is None:  # it wrote no results: Meson's result says how it ended
        return result if result != "OK" else "no results file"
    if doc.get("status") not in (None, "graded"):
        return str(doc.get("status"))
    verdicts = [verdict_text(outcome(e)) for e in doc.get("exercises") or []]
    wrong = next((v for v in verdicts if v != "PASS"), None)
    if wrong:
        return wrong
    if result != "OK":
        return f"Meson {result}"
    return "OK" if verdicts else "no exercise ran"


def known_good(run, lesson):
    """{known-good test of the lesson: {"result", "returncode", "exercise", "status", "message"}}
    in one run: result and returncode are Meson's, status good_status's ("OK": it passed as it
    must), message and memory_bound (memory_bound_on_real_gpus) the first failing exercise's."""
    out = {}
    for name in variant_tests(run, lesson, "good"):
        t = run["ref_tests"].get(name, {})
        doc = run["ref"]["docs"].get(name)
        result = t.get("result") or "not run"
        failing = next((e for e in (doc or {}).get("exercises") or [] if e.get("verdict") != "PASS"), None)
        out[name] = {"result": result, "returncode": t.get("returncode"), "exercise": bad_exercise(doc),
                     "status": good_status(result, doc, run["ref"]["invalid"].get(name)),
                     "message": (failing or {}).get("message") or "",
                     "memory_bound": memory_bound_on_real_gpus(failing, doc)}
    return out


# ====================================================================== rows

def lessons_of(runs):
    """The lesson tests (lesson01, ...) the references ran in any repetition."""
    names = set()
    for run in runs:
        names |= {n for n in [*run["ref_tests"], *run["ref"]["docs"], *run["ref"]["invalid"]]
                  if n.startswith("lesson") and not is_variant(n)}
    return sorted(names)


def memory_bound_on_real_gpus(e, doc):
    """True when an exercise of a results document is graded on memory-bound work, or would be on
    every real GPU of the run's shape: its figure is in GB/s, or its roofline was held to the
    FMA side only because the run was confined to part of the GPU (--sms), which keeps all of its
    DRAM, so that with the copy ceiling scaled down to RICHEST_DRAM_PER_SM of DRAM per SM the
    memory side would bind. Lesson 04's convolutions on 16 of an H100's SMs (2026-12-06) were
    graded in GFLOP/s against 3.5–7 % of those SMs' FMA peak, where every real GPU grades them
    in GB/s against its copy."""
    if e is None:
        return False
    labels, figures = e.get("labels") or {}, e.get("figures") or {}
    if labels.get("unit") == "GB/s":
        return True
    if not str(labels.get("ceiling") or "").startswith("FP32 FMA peak"):  # performance.cpp's label of that side
        return False
    per_sm, ceilings = partition_dram_per_sm(doc), (doc or {}).get("ceilings") or {}
    copy, fma = number(ceilings.get("copy_gbs")), number(ceilings.get("fma_gflops"))
    moved, flops = number(figures.get("bytes")), number(figures.get("flops"))
    if not (per_sm and copy and fma and moved and flops):
        return False
    real_copy = copy * min(1.0, RICHEST_DRAM_PER_SM / per_sm)
    return moved / real_copy >= flops / fma


def rep_cells(run, lesson, name):
    """One exercise in one repetition: both outcomes, the two margins, the known-bad results
    (Meson's) and the known-good ones (good_status)."""
    ref_doc = run["ref"]["docs"].get(lesson)
    ref_entry = find_exercise(ref_doc, name)
    ref = outcome(ref_entry)
    sta = outcome(find_exercise(run["sta"]["docs"].get(lesson), name))
    r = ref or {}
    return {"ref": ref, "starter": sta, "ref_memory_bound": memory_bound_on_real_gpus(ref_entry, ref_doc),
            "ref_thr": ratio(r.get("figure"), r.get("threshold")),
            "thr_starter": starter_ratio(ref, sta),
            "pct_ceiling": percent(r.get("fraction_of_ceiling")),
            "pct_vendor": percent(ratio(r.get("figure"), r.get("vendor_figure"))),
            "known_bad": {n: b["result"] for n, b in known_bad(run, lesson).items()
                          if b["exercise"] == exercise_number(name)},
            "known_good": {n: g["status"] for n, g in known_good(run, lesson).items()
                           if g["exercise"] == exercise_number(name)}}


def span(values):
    """(min, max) of the numbers among values, or (None, None)."""
    xs = [x for x in values if x is not None]
    return (min(xs), max(xs)) if xs else (None, None)


def median(values):
    """The median of the numbers among values, or None."""
    xs = [x for x in values if x is not None]
    return statistics.median(xs) if xs else None


def distinct(values):
    """values without repeats, in the order they first appear."""
    return list(dict.fromkeys(values))


def summarize(reps):
    """What the table shows of one exercise over the repetitions: the verdicts seen, medians of
    the figures, min and max of the two margins, each known-bad and known-good test's results."""
    def col(side, key):  # one field of the "ref" or "starter" outcome, per repetition
        return [(r[side] or {}).get(key) for r in reps]

    bad_names = distinct(n for r in reps for n in r["known_bad"])
    good_names = distinct(n for r in reps for n in r.get("known_good", {}))
    return {"ref_verdicts": distinct(verdict_text(r["ref"]) for r in reps),
            "ref_figure": median(col("ref", "figure")), "threshold": median(col("ref", "threshold")),
            "ref_thr": span(r["ref_thr"] for r in reps),
            "pct_ceiling": median(r["pct_ceiling"] for r in reps), "pct_vendor": median(r["pct_vendor"] for r in reps),
            "starter_verdicts": distinct(verdict_text(r["starter"]) for r in reps),
            "starter_figure": median(col("starter", "figure")),
            "thr_starter": span(r["thr_starter"] for r in reps),
            "known_bad": {n: [r["known_bad"].get(n, "not run") for r in reps] for n in bad_names},
            "known_good": {n: [r.get("known_good", {}).get(n, "not run") for r in reps] for n in good_names}}


def compute_rows(runs):
    """One row per exercise of the references' results (in their order, over all repetitions),
    with each repetition's cells ("reps") and what the table shows ("summary")."""
    rows = []
    for lesson in lessons_of(runs):
        names = distinct(e.get("exercise") for run in runs
                         for e in (run["ref"]["docs"].get(lesson) or {}).get("exercises") or [] if e.get("exercise"))
        for name in names:
            reps = [rep_cells(run, lesson, name) for run in runs]
            refs = [r["ref"] for r in reps if r["ref"]]
            teaching = is_teaching(name) or any(o["teaching"] for o in refs)
            rows.append({"lesson": lesson, "exercise": name, "number": exercise_number(name), "teaching": teaching,
                         "unit": next((o["unit"] for o in refs if o["unit"]), None),
                         "note": next((o["note"] for o in refs if o["note"]), ""),
                         "reps": reps, "summary": summarize(reps)})
    return rows


# ====================================================================== checks

def shorten(text, limit=200):
    """text cut to `limit` characters, with "..." where it was cut: messages can be paragraphs."""
    text = text or ""
    return text if len(text) <= limit else text[:limit] + "..."


def in_reps(indices, n):
    """" (repetitions 1, 3 of 3)" for the repetitions a finding holds in; "" with one repetition."""
    if n == 1:
        return ""
    if len(indices) == n:
        return f" (all {n} repetitions)"
    return f" (repetition{'s' if len(indices) > 1 else ''} {', '.join(str(i + 1) for i in indices)} of {n})"


def grouped(findings, n):
    """Findings given as (repetition index, text), each text once, with the repetitions it holds in."""
    where = {}
    for i, text in findings:
        where.setdefault(text, []).append(i)
    return [text + in_reps(idx, n) for text, idx in where.items()]


def emulation_allowance(dram_rich):
    """Why a memory-bound shortfall in a DRAM-rich partition (dram_rich_partition) is a note."""
    return f"allowed: emulation, {dram_rich:.0f} GB/s of DRAM per SM, more than any real GPU's {RICHEST_DRAM_PER_SM}"


def check_row(row, margin=MARGIN, mechanism=(), dram_rich=None):
    """(problems, notes) of one exercise over all repetitions: the promises and the margin rule.
    mechanism: the exercise numbers with a mechanism check (mechanism_exercises), which fails an
    unchanged starter whatever its speed: there a starter that fails for being slow within the
    margin is a note, not a problem (the starter must still fail). dram_rich: the DRAM GB/s per
    SM of a partition richer than any real GPU (dram_rich_partition), where a passing
    reference's thin margin on memory-bound work (memory_bound_on_real_gpus) is a note (the
    reference must pass)."""
    ex, reps = row["exercise"], row["reps"]
    n = len(reps)
    problems, notes = [], []
    for i, r in enumerate(reps):
        ref, sta = r["ref"], r["starter"]
        if row["teaching"]:  # ungraded, but a table that did not run is a defect of the lesson
            if ref is not None and ref["verdict"] not in ("INFO", "SKIP"):
                problems.append((i, f"{ex}: teaching table {verdict_text(ref)} {shorten(ref['message'])}"))
            continue
        if ref is None or ref["verdict"] != "PASS":
            problems.append((i, f"{ex}: reference {verdict_text(ref)} {shorten((ref or {}).get('message', ''))}".rstrip()))
        elif r["ref_thr"] is not None and r["ref_thr"] < margin:  # a failing reference is reported above
            if dram_rich and r["ref_memory_bound"]:
                notes.append((i, f"{ex}: reference only {r['ref_thr']:.2f} x its threshold (below {margin:.2f}; "
                                 f"{emulation_allowance(dram_rich)})"))
            else:
                problems.append((i, f"{ex}: reference only {r['ref_thr']:.2f} x its threshold (need >= {margin:.2f})"))
        if row["note"]:  # a documented overlap: the starter may pass, and has no margin to keep
            if sta is None or sta["verdict"] != "FAIL":
                notes.append((i, f"{ex}: starter {verdict_text(sta)} (allowed: {shorten(row['note'], 90)})"))
            continue
        if sta is None or sta["verdict"] != "FAIL":
            problems.append((i, f"{ex}: starter {verdict_text(sta)} — it must fail"))
        elif fails_slow(sta) and r["thr_starter"] is not None and r["thr_starter"] < margin:
            if row["number"] in mechanism:
                notes.append((i, f"{ex}: threshold only {r['thr_starter']:.2f} x the starter's figure (below {margin:.2f}; "
                                 f"allowed: the mechanism check separates it, failing the starter whatever its speed)"))
            else:
                problems.append((i, f"{ex}: threshold only {r['thr_starter']:.2f} x the starter's figure (need >= {margin:.2f})"))
    return grouped(problems, n), grouped(notes, n)


# The starter's verdicts of an exercise with a mechanism check, between which a flip is allowed:
# whether it comes out slower than the threshold (slow) or not (technique) is its thin margin.
MECHANISM_STARTER_VERDICTS = {"FAIL [slow]", "FAIL [technique]"}


def find_flips(rows, runs, mechanism=()):
    """Every verdict that is not the same in all repetitions: per exercise the reference's and the
    starter's (verdict and reason), per known-bad test whether it was OK, per known-good test
    whether it passed. Each flip is {"kind": "reference"|"starter"|"known-bad"|"known-good",
    "name", "values" (one per repetition), "exempt", "why"}; "exempt": a starter verdict that is
    not promised, "why" says why: the starter of an exercise with an overlap note, or of one with
    a mechanism check (mechanism: their numbers) that fails in every repetition, slow or not."""
    if len(runs) < 2:
        return []
    flips = []
    for row in rows:
        for kind, side in (("reference", "ref"), ("starter", "starter")):
            values = [verdict_text(r[side]) for r in row["reps"]]
            if len(set(values)) > 1:
                why = ""
                if kind == "starter" and row["note"]:
                    why = "overlap note"
                elif kind == "starter" and row["number"] in mechanism and set(values) <= MECHANISM_STARTER_VERDICTS:
                    why = "the mechanism check fails the starter"
                flips.append({"kind": kind, "name": row["exercise"], "values": values, "exempt": bool(why), "why": why})
    for lesson in lessons_of(runs):
        for kind, per_run, key in (("known-bad", [known_bad(run, lesson) for run in runs], "result"),
                                   ("known-good", [known_good(run, lesson) for run in runs], "status")):
            for name in distinct(n for v in per_run for n in v):
                values = [v.get(name, {}).get(key, "not run") for v in per_run]
                if len({v == "OK" for v in values}) > 1:  # OK against not OK; FAIL against TIMEOUT is no flip
                    flips.append({"kind": kind, "name": name, "values": values, "exempt": False, "why": ""})
    return flips


def flip_text(flip):
    """One line for a flip: "01.1 x: reference flips: rep1 PASS, rep2 FAIL [slow]", with
    " (allowed: why)" when it is exempt."""
    return (f"{flip['name']}: {flip['kind']} flips: " + ", ".join(f"rep{i + 1} {v}" for i, v in enumerate(flip["values"]))
            + (f" (allowed: {flip.get('why') or 'not promised'})" if flip["exempt"] else ""))


def wall_times(runs):
    """{lesson: [Meson's duration of the references' test, seconds, per repetition]} (None where
    it did not run)."""
    return {lesson: [run["ref_tests"].get(lesson, {}).get("duration") for run in runs] for lesson in lessons_of(runs)}


def emulated_slow(good, dram_rich):
    """True when a known-good variant failed only for speed on the large data of a memory-bound
    line, in a partition richer in DRAM per SM than any real GPU (dram_rich_partition): there a
    correct kernel with fewer bytes in flight per SM than the grader's falls behind the copy
    ceiling as it would on no real GPU (docs/thresholds.md, "Other GPU shapes"). A grade in the
    L2 (the bank conflicts themselves) and every other verdict stay problems."""
    # Exercise::grade says "too slow: …" for an exercise's main grade (its large data) and "too
    # slow, PART: …" for a named one (02.2's "in the L2").
    return bool(dram_rich) and good["status"] == "FAIL [slow]" and good["memory_bound"] \
        and good["message"].startswith("too slow: ")


def lesson_findings(runs, lesson, dram_rich=None):
    """Problems of a lesson as a whole, as (repetition, text, allowed): results that are missing or
    not graded, known-bad variants not rejected as they must be, known-good variants that do not
    pass (allowed: a note, not a problem, where emulated_slow says so)."""
    findings = []
    for i, run in enumerate(runs):
        doc = run["ref"]["docs"].get(lesson)
        test = run["ref_tests"].get(lesson, {})
        if doc is None and lesson not in run["ref"]["invalid"]:  # an invalid file is reported as such
            why = "SKIP — no usable GPU" if test.get("returncode") == 77 else \
                f"the references produced no results (Meson: {test.get('result', 'not run')})"
            findings.append((i, f"{lesson}: {why}", False))
        elif doc is not None and doc.get("status") != "graded":
            findings.append((i, f"{lesson}: references {doc.get('status')}: {shorten(doc.get('status_message', ''))}", False))
        sta = run["sta"]["docs"].get(lesson)
        if sta is not None and sta.get("status") != "graded":
            findings.append((i, f"{lesson}: starters {sta.get('status')}: {shorten(sta.get('status_message', ''))}", False))
        for name, b in known_bad(run, lesson).items():
            if b["result"] != "OK":
                findings.append((i, f"{name}: known-bad variant not rejected as expected ({b['result']}, exit {b['returncode']})",
                                 False))
        for name, g in known_good(run, lesson).items():
            if g["status"] != "OK":
                meson = f"Meson {g['result']}, exit {g['returncode']}"
                came = meson if g["status"] in (g["result"], f"Meson {g['result']}") else f"{g['status']}; {meson}"
                why = f" {shorten(g['message'], 120)}" if g["message"] else ""
                if emulated_slow(g, dram_rich):
                    findings.append((i, f"{name}: known-good variant {g['status']} ({emulation_allowance(dram_rich)}){why}",
                                     True))
                else:
                    findings.append((i, f"{name}: known-good variant does not pass ({came}){why}", False))
    return findings


def memcheck_findings(memcheck, lessons):
    """Problems of the memcheck phase: a lesson whose references are not OK under memcheck. A
    phase that ran out of time is shown, not counted (it is bounded on purpose)."""
    if not memcheck or memcheck.get("timed_out"):
        return []
    return [f"{lesson}: memcheck {memcheck['tests'].get(lesson, {}).get('result', 'not run')}" for lesson in lessons
            if memcheck["tests"].get(lesson, {}).get("result") != "OK"]


def partition_dram_per_sm(doc):
    """The theoretical DRAM GB/s per SM of a results document's run when it ran on part of the
    GPU (--sms); else None."""
    gpu, ceilings = (doc or {}).get("gpu"), (doc or {}).get("ceilings")
    if not isinstance(gpu, dict) or not isinstance(ceilings, dict):
        return None
    sms, total, dram = number(gpu.get("sms")), number(gpu.get("sms_total")), number(ceilings.get("dram_gbs"))
    return dram / sms if sms and total and dram and sms < total else None


def dram_rich_partition(runs):
    """The DRAM GB/s per SM of the references' runs (partition_dram_per_sm) where it exceeds
    RICHEST_DRAM_PER_SM; else None."""
    for run in runs:
        for d in run["ref"]["docs"].values():
            per_sm = partition_dram_per_sm(d)
            if per_sm and per_sm > RICHEST_DRAM_PER_SM:
                return per_sm
    return None


def evaluate(runs, memcheck=None, margin=MARGIN, mechanism=()):
    """Everything the self-test reports, from the repetitions' data (load_run) and the memcheck
    phase ({"timed_out", "tests": testlog} or None): rows, flips, wall times, problems, notes.
    mechanism: the exercise numbers with a mechanism check (mechanism_exercises; none by
    default), whose starter's margin is not promised. Builds and starts nothing."""
    n = len(runs)
    lessons = lessons_of(runs)
    problems, notes = [], []
    if not lessons:  # an empty table must not read as "all promises hold"
        problems.append("no lesson test ran (the build root's selftest.log says why)")
    for run in runs:  # files this script cannot read: their tests are otherwise left out
        problems += [*run["ref"]["invalid"].values(), *run["sta"]["invalid"].values()]
    dram_rich = dram_rich_partition(runs)
    for lesson in lessons:
        found = lesson_findings(runs, lesson, dram_rich)
        problems += grouped([(i, text) for i, text, allowed in found if not allowed], n)
        notes += grouped([(i, text) for i, text, allowed in found if allowed], n)
    rows = compute_rows(runs)
    for row in rows:
        p, k = check_row(row, margin, mechanism, dram_rich)
        problems += p
        notes += k
    flips = find_flips(rows, runs, mechanism)
    for f in flips:
        (notes if f["exempt"] else problems).append(flip_text(f))
    unit_tests = [run["ref_tests"].get("grader", {}).get("result", "not run") for run in runs]
    problems += grouped([(i, f"grader unit tests: {r}") for i, r in enumerate(unit_tests) if r != "OK"], n)
    problems += memcheck_findings(memcheck, lessons)
    mapped = {b for row in rows for b in row["summary"]["known_bad"]}
    unmapped = sorted({b for run in runs for lesson in lessons for b in known_bad(run, lesson)} - mapped)
    mapped_good = {g for row in rows for g in row["summary"]["known_good"]}
    unmapped_good = sorted({g for run in runs for lesson in lessons for g in known_good(run, lesson)} - mapped_good)
    gpus = [d["gpu"] for run in runs for d in run["ref"]["docs"].values() if isinstance(d.get("gpu"), dict)]
    gpu = next((g.get("name") for g in gpus), None)
    # The SMs the run used and the GPU's (sms_total: results files since --sms; older ones lack it).
    sms = next((g.get("sms") for g in gpus if g.get("sms") is not None), None)
    sms_total = next((g.get("sms_total") for g in gpus if g.get("sms_total") is not None), sms)
    return {"margin": margin, "repetitions": n, "gpu": gpu, "sms": sms, "sms_total": sms_total, "rows": rows, "flips": flips,
            "wall_times": wall_times(runs), "unit_tests": unit_tests, "unmapped_known_bad": unmapped,
            "unmapped_known_good": unmapped_good, "mechanism": sorted(mechanism),
            "memcheck": memcheck, "problems": problems, "notes": notes}


# ====================================================================== output

def fmt(x, suffix=""):
    """A figure rounded to a whole number, "—" when absent."""
    return "—" if x is None else f"{x:.0f}{suffix}"


def fmt_span(lo_hi, digits=2, suffix=""):
    """"1.36", or "1.31..1.40" when the repetitions differ, "—" when absent."""
    lo, hi = lo_hi
    if lo is None:
        return "—"
    a, b = f"{lo:.{digits}f}", f"{hi:.{digits}f}"
    return (a if a == b else f"{a}..{b}") + suffix


COLUMNS = ["exercise", "ref", "ref figure", "threshold", "ref/thr", "ref % ceil", "ref % vendor",
           "starter", "starter figure", "thr/starter", "known-bad", "known-good"]


def variant_cell(results, kind):
    """The known-bad or known-good column of a row: "faults:ok chunked:OK/FAIL", each test by
    the name its lesson gives it, "ok" when it came out OK in every repetition, else what it
    came to in each ("FAIL [slow]" for a known-good one); "—" when the exercise has none."""
    return " ".join(name.split(f"-{kind}-", 1)[1] + ":" + ("ok" if set(values) == {"OK"} else "/".join(distinct(values)))
                    for name, values in results.items()) or "—"


def table_cells(row):
    """The table's cells for one row (COLUMNS)."""
    s = row["summary"]
    return [row["exercise"], " / ".join(s["ref_verdicts"]), fmt(s["ref_figure"]), fmt(s["threshold"]), fmt_span(s["ref_thr"]),
            fmt(s["pct_ceiling"], "%"), fmt(s["pct_vendor"], "%"), " / ".join(s["starter_verdicts"]),
            fmt(s["starter_figure"]), fmt_span(s["thr_starter"]), variant_cell(s["known_bad"], "bad"),
            variant_cell(s.get("known_good", {}), "good")]


def units_line(rows):
    """"figures in GB/s: 01.1 01.2 · GFLOP/s: 03.1", from labels.unit of the references."""
    by_unit = {}
    for row in rows:
        if row["unit"]:
            by_unit.setdefault(row["unit"], []).append(row["number"])
    return "figures in " + " · ".join(f"{u}: {' '.join(nums)}" for u, nums in by_unit.items()) if by_unit else ""


def wall_line(times):
    """"wall time per lesson (references): lesson01 6.6 s, lesson02 7.0..7.4 s"."""
    return "wall time per lesson (references): " + ", ".join(
        f"{lesson} {fmt_span(span(ds), 1, ' s')}" for lesson, ds in times.items())


def memcheck_text(memcheck):
    """The memcheck phase in a few words."""
    if not memcheck:
        return "not run"
    if memcheck.get("timed_out"):
        return "timed out"
    return ", ".join(f"{n} {t['result']}" for n, t in sorted(memcheck["tests"].items()) if n.startswith("lesson")) or "no tests"


def render_markdown(report):
    """The report as the markdown text the self-test prints."""
    n, m = report["repetitions"], report["margin"]
    rows = report["rows"]
    body = [table_cells(r) for r in rows]
    widths = [max(len(str(x)) for x in col) for col in zip(COLUMNS, *body)]
    lines = [f"GPU self-test on {report['gpu'] or 'no GPU'}{sms_heading(report)} · {report.get('date', '')} · "
             f"{fmt(report.get('elapsed_s'))} s · {n} repetition{'s' if n > 1 else ''} · margin {m:.2f}"]
    lines += [x for x in [units_line(rows)] if x]
    lines.append(f"ref/thr = reference figure / threshold; thr/starter = the starter run's threshold / its figure; "
                 f"both >= {m:.2f} (docs/thresholds.md, Margins; thr/starter only where no mechanism check fails the starter)"
                 + (f"; over {n} repetitions: min..max of the ratios, medians of the figures" if n > 1 else ""))
    lines.append("| " + " | ".join(h.ljust(w) for h, w in zip(COLUMNS, widths)) + " |")
    lines.append("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    lines += ["| " + " | ".join(str(c).ljust(w) for c, w in zip(cells, widths)) + " |" for cells in body]
    lines.append(wall_line(report["wall_times"]))
    lines.append(f"grader unit tests: {' / '.join(distinct(report['unit_tests'])) or 'not run'}"
                 f" · memcheck of the references: {memcheck_text(report['memcheck'])}")
    if report["unmapped_known_bad"]:
        lines.append("known-bad tests whose exercise is not in the table: " + ", ".join(report["unmapped_known_bad"]))
    if report.get("unmapped_known_good"):
        lines.append("known-good tests whose exercise is not in the table: " + ", ".join(report["unmapped_known_good"]))
    lines += [f"note: {x}" for x in report["notes"]]
    problems = report["problems"]
    lines.append("all promises hold" if not problems else "PROBLEMS:\n  " + "\n  ".join(problems))
    return "\n".join(lines)


# ====================================================================== an SM sweep

def parse_sms_list(text):
    """The SM counts of --sms, in the order given, each once: "all" (the whole GPU) or a whole
    number >= 1 as text ("16"). argparse type: raises ArgumentTypeError for anything else."""
    counts = []
    for item in (x.strip() for x in text.split(",")):
        if item != "all" and not (item.isdigit() and int(item) >= 1):
            raise argparse.ArgumentTypeError(f"'{item}' is not an SM count: give whole numbers >= 1 or all, e.g. all,16,66")
        counts.append(item if item == "all" else str(int(item)))
    return distinct(counts)


def sms_env(count):
    """The environment a test phase under one SM count adds: GRADER_SMS, which the supervisor
    reads like its --sms option (an option typed on its command line would beat it). "all" is
    set too, so that a GRADER_SMS of the caller's shell does not leak into the whole-GPU table."""
    return {"GRADER_SMS": count}


def archive_name(count, k):
    """Where repetition k is archived under <build>/selftest/: repK, or sms-<count>/repK in a sweep."""
    return f"rep{k}" if count is None else f"sms-{count}/rep{k}"


def sms_heading(report):
    """" · 16 of 132 SMs (--sms=16)" for a report of a sweep, from what the results files say;
    "" outside a sweep."""
    count = report.get("sms_count")
    if count is None:
        return ""
    used, total = report.get("sms"), report.get("sms_total")
    if count == "all":
        return f" · all {total} SMs" if total else " · all SMs"
    shape = f"{used} of {total} SMs" if used and total else "? SMs"
    return f" · {shape} (--sms={count})"


def evaluate_sweep(groups, memcheck=None, margin=MARGIN, mechanism=()):
    """One report per SM count: groups is [(count, runs)] in the sweep's order; memcheck belongs
    to the first count's (it ran under it)."""
    reports = []
    for i, (count, runs) in enumerate(groups):
        report = evaluate(runs, memcheck if i == 0 else None, margin, mechanism)
        report["sms_count"] = count
        reports.append(report)
    return reports


def render_sweep(reports):
    """The tables of a sweep, one per SM count, then one line per count saying whether its
    promises hold."""
    parts = [render_markdown(r) for r in reports]
    summary = " · ".join(f"{r['sms_count']}: " + (f"{len(r['problems'])} problem{'s' if len(r['problems']) > 1 else ''}"
                                                   if r["problems"] else "all promises hold") for r in reports)
    return "\n\n".join(parts) + f"\n\nSM sweep: {summary}"


# ====================================================================== building and running

def sh(cmd, log, label, check=True, timeout=None, env=None):
    """Runs cmd, appending its output to the log file and showing its progress (Ninja's steps,
    Meson's tests) under `label` on standard error; returns the exit code (124: timed out).
    env: variables to add to this process's environment for the command."""
    rc, _ = build_progress.run(cmd, log, label, cwd=ROOT, timeout=timeout, env=env)
    if check and rc != 0:
        sys.exit(f"self-test: '{' '.join(cmd)}' failed (exit {rc}); see {log}")
    return rc


def setup(build, kernels, log, revision=""):
    """Configures (or reconfigures) one build folder for -Dkernels (and -Drevision, when the
    source folder's git metadata cannot tell the revision)."""
    again = ["--reconfigure"] if (build / "build.ninja").exists() else []
    sh(["meson", "setup", *again, str(build), f"-Dkernels={kernels}", f"-Drevision={revision}"], log,
       f"configuring {build.name} (meson setup)")


def gpu_absent():
    """Why this machine has no NVIDIA GPU to test on, or "" when it has one: nvidia-smi lists
    a GPU, or the driver shows one under /proc/driver/nvidia/gpus."""
    try:
        r = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, timeout=60)
        if r.returncode == 0 and "GPU" in r.stdout:
            return ""
        said = (r.stdout + r.stderr).strip().splitlines()
        smi = f"nvidia-smi -L says: {said[0]}" if said else f"nvidia-smi -L lists no GPU (exit {r.returncode})"
    except (OSError, subprocess.SubprocessError) as e:
        smi = "no nvidia-smi (the NVIDIA driver's tool)" if isinstance(e, FileNotFoundError) else f"nvidia-smi: {e}"
    if any(pathlib.Path("/proc/driver/nvidia/gpus").glob("*")):
        return ""
    return smi + ", and the driver shows no GPU in /proc/driver/nvidia/gpus"


# meson.build's aliases of the variants' programs: each is defined only where the build has a
# program for it (a starters' build has none, and a course may have no known-good variant), and
# ninja fails on a target it does not know.
VARIANT_ALIASES = ["known_bad_programs", "known_good_programs"]


def targets(known, variants=True, sel=(), members=None, unit_tests=True):
    """The lesson programs and, when `variants`, the known-bad variants but those that must not
    link and the known-good ones (meson.build's alias targets), the unit tests, and the default
    targets ("all": the supervisor grader/grade, which every lesson test runs). known: the
    targets the build folder's ninja knows (ninja_targets), or None when that could not be
    read; a variants' alias it does not know is left out. sel: the lessons of --lessons
    (lesson01, ...), when given only theirs: the programs of each alias (members: {alias:
    [program]}, alias_members) that belong to a lesson of sel, by name. unit_tests: the
    grader's unit tests too (the starters' build runs none)."""
    aliases = ["lesson_programs"] + [t for t in (VARIANT_ALIASES if variants else []) if known is None or t in known]
    base = ["all"] + ["grader/grader_unit_tests"] * unit_tests
    if not sel:
        return base + aliases
    return base + [p for a in aliases for p in (members or {}).get(a, []) if of_lessons(p, sel)]


def of_lessons(test, sel):
    """Whether a test or program (lesson01, lesson01-bad-faults) belongs to a lesson of sel."""
    return any(test == s or test.startswith(s + "-") for s in sel)


def parse_alias_members(text):
    """The programs of an alias target, from `ninja -t query ALIAS`'s output: the lines under
    its "  input: phony" up to "  outputs:", each "    | lesson01-bad-faults" (Ninja marks
    implicit inputs with "| ", order-only ones with "|| ")."""
    out, inputs = [], False
    for line in text.splitlines():
        t = line.strip()
        if t.startswith("input:"):
            inputs = True
        elif t.startswith("outputs:") or not line.startswith("    "):
            inputs = False
        elif inputs and t.lstrip("|").strip():
            out.append(t.lstrip("|").strip())
    return out


def alias_members(build, aliases):
    """{alias: [its programs]} of a build folder, asked of its ninja ([] for an alias it lacks)."""
    out = {}
    for a in aliases:
        done = subprocess.run(["ninja", "-C", str(build), "-t", "query", a], capture_output=True, text=True, cwd=ROOT)
        out[a] = parse_alias_members(done.stdout) if done.returncode == 0 else []
    return out


def choose_lessons(spec, build):
    """The lesson tests of --lessons ("01,06" or "lesson01,lesson06"), checked against those of
    the configured build (Meson's introspection); [] for every lesson. Exits naming the
    lessons there are when one is unknown: before anything is built."""
    wanted = distinct(w.strip().removeprefix("lesson").split("-")[0] for w in spec.split(",") if w.strip())
    if not wanted:
        return []
    there = sorted(lesson_tests(meson_info(build)[0]))
    unknown = [w for w in wanted if f"lesson{w}" not in there]
    if unknown:
        sys.exit(f"self-test: --lessons: no lesson {', '.join(unknown)}; the course has {', '.join(there)}")
    return [f"lesson{w}" for w in wanted]


def parse_ninja_targets(text):
    """The target names of `ninja -t targets all`'s output ("lesson_programs: phony", one a line)."""
    return {line.rsplit(": ", 1)[0] for line in text.splitlines() if ": " in line}


def ninja_targets(build):
    """The targets the build folder's ninja knows, or None when ninja cannot list them."""
    done = subprocess.run(["ninja", "-C", str(build), "-t", "targets", "all"], capture_output=True, text=True, cwd=ROOT)
    return parse_ninja_targets(done.stdout) if done.returncode == 0 else None


def sel_bad(build, sel):
    """With --lessons, the selected lessons, their known-bad and known-good tests and the unit tests."""
    if not sel:
        return []
    listed = subprocess.run(["meson", "test", "-C", str(build), "--list", "--no-rebuild"], capture_output=True,
                            text=True, cwd=ROOT).stdout
    names = [test_name(line.strip()) for line in listed.splitlines() if line.strip()]  # one test a line
    return distinct([n for n in names if of_lessons(n, sel)] + ["grader"])


def testlog_path(build, setup_name=""):
    """Meson's test log of the last `meson test` with that setup."""
    return build / "meson-logs" / (f"testlog-{setup_name}.json" if setup_name else "testlog.json")


def clear_outputs(build):
    """Removes the results and test logs of an earlier run, which must not be read as this run's."""
    shutil.rmtree(build / "results", ignore_errors=True)
    for old in (build / "meson-logs").glob("testlog*.json"):
        old.unlink()


def archive(build, name, setup_name=""):
    """Copies the results folder and the test log of the run just done to <build>/selftest/<name>/
    (results/, testlog.json): the next run overwrites both."""
    dest = build / ARCHIVE / name
    shutil.rmtree(dest, ignore_errors=True)
    dest.mkdir(parents=True)
    if (build / "results").is_dir():
        shutil.copytree(build / "results", dest / "results")
    if testlog_path(build, setup_name).is_file():
        shutil.copy2(testlog_path(build, setup_name), dest / "testlog.json")
    return dest


def run_repetition(ref, sta, ref_which, sta_which, name, log, env=None):
    """One test phase: the references (lessons, known-bad, known-good, unit tests), then the
    starters, each archived under `name`; returns the repetition as load_run reads it. env:
    added to the tests' environment (an SM count of a sweep)."""
    for b in (ref, sta):
        clear_outputs(b)
    sh(["meson", "test", "-C", str(ref), "--no-rebuild"] + ref_which, log, f"testing the references ({name})",
       check=False, env=env)
    sh(["meson", "test", "-C", str(sta), "--no-rebuild"] + sta_which, log, f"testing the starters ({name})",
       check=False, env=env)
    return load_run(archive(ref, name), archive(sta, name))


def run_memcheck(ref, which, timeout, log, env=None):
    """The references under compute-sanitizer memcheck, bounded in time: {"timed_out", "tests"}."""
    clear_outputs(ref)
    rc = sh(["meson", "test", "-C", str(ref), "--no-rebuild", "--setup", "memcheck"] + which, log,
            "the references under memcheck", check=False, timeout=timeout, env=env)
    dest = archive(ref, "memcheck", "memcheck")
    return {"timed_out": rc == 124, "tests": {} if rc == 124 else read_testlog(dest / "testlog.json", stdout=False)}


def gpu_slug(name):
    """A folder name for a GPU: "NVIDIA H200" -> "nvidia-h200"."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "unknown-gpu"


def save_measured(ref_rep, sta_rep, gpu, docs_measured):
    """Copies one repetition's lesson results (references and starters) to
    docs/measured/<gpu>/{reference,starter}/, where the docs build charts them
    (tools/measured_pages.py); returns the folder. Only the lessons of this run are replaced
    (with --lessons, the others keep their earlier results); a lesson the run has no results
    for in one tree loses its old file there, so the two trees never mix runs."""
    dest = pathlib.Path(docs_measured) / gpu_slug(gpu)
    ran = {f.name for src in (ref_rep, sta_rep) for f in (src / "results").glob("lesson[0-9][0-9].json")}
    for tree, src in (("reference", ref_rep), ("starter", sta_rep)):
        out = dest / tree
        out.mkdir(parents=True, exist_ok=True)
        for name in ran:
            (out / name).unlink(missing_ok=True)
            if (src / "results" / name).is_file():
                shutil.copy2(src / "results" / name, out / name)
    return dest


# The first line of a partial report (report_of after each test phase but the last).
PARTIAL_NOTE = "Partial report: the self-test is still running, or stopped before its end, after"


def report_of(groups, memcheck, sweep, mechanism, t0):
    """The report of the test phases in groups ([(count, runs)]): (markdown, JSON text, reports)."""
    stamp = {"date": time.strftime("%Y-%m-%d"), "elapsed_s": round(time.time() - t0, 1)}
    if not sweep:
        report = evaluate(groups[0][1], memcheck, mechanism=mechanism)
        report.update(stamp)
        return render_markdown(report), json.dumps(report, indent=1) + "\n", [report]
    reports = evaluate_sweep([g for g in groups if g[1]], memcheck, mechanism=mechanism)
    for r in reports:
        r.update(stamp)
    return render_sweep(reports), json.dumps({"sms_sweep": reports}, indent=1) + "\n", reports


def write_report(root, stem, text, data):
    """Writes BUILD_ROOT/<stem>.json and, where OUT is set, $OUT/<stem>.md and $OUT/<stem>.json."""
    (root / f"{stem}.json").write_text(data)
    if os.environ.get("OUT"):
        pathlib.Path(os.environ["OUT"]).mkdir(parents=True, exist_ok=True)
        pathlib.Path(os.environ["OUT"], f"{stem}.md").write_text(text + "\n")
        pathlib.Path(os.environ["OUT"], f"{stem}.json").write_text(data)


def positive_int(text):
    """argparse type: an integer >= 1."""
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def parse_args(argv=None):
    """The command line (see the module docstring)."""
    ap = argparse.ArgumentParser(prog="gpu_selftest.py", description=HELP,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lessons", default="", metavar="LIST",
                    help="only these lessons, built and run: 01,06 or lesson01,lesson06 (default: every lesson)")
    ap.add_argument("--repeat", type=positive_int, default=1, metavar="N",
                    help="run the test phase N times after one build; any verdict that changes is a problem")
    ap.add_argument("--no-known-bad", action="store_true",
                    help="a quick pass: the references, the starters and the unit tests, without the known-bad "
                         "and the known-good variants (neither is built nor run)")
    ap.add_argument("--memcheck", action="store_true", help="also run the references under compute-sanitizer memcheck "
                                                            "(correctness only; it needs compute-sanitizer)")
    ap.add_argument("--memcheck-timeout", type=int, default=300, metavar="S",
                    help="seconds the memcheck run may take (default 300); past them the table says it timed out")
    ap.add_argument("--build-root", default=str(ROOT / "build-selftest"), metavar="BUILD_ROOT",
                    help="the folder of its two builds (BUILD_ROOT/solutions, BUILD_ROOT/starter), its log and its "
                         "JSON report (default: build-selftest in the course's folder); kept, so that a second run "
                         "rebuilds only what changed")
    ap.add_argument("--no-gpu-check", action="store_true",
                    help="build and run even where no GPU is found (every lesson then reports SKIP, and the table "
                         "is empty): to check that everything builds, or where the GPU check is wrong")
    ap.add_argument("--revision", default="",
                    help="the course revision to record in the results files (default: git describe)")
    ap.add_argument("--save-measured", action="store_true",
                    help="copy the last repetition's lesson results to docs/measured/<gpu>/ for the docs' charts "
                         "(only when every promise holds; in a sweep, those of the count all)")
    ap.add_argument("--sms", type=parse_sms_list, default=None, metavar="COUNTS",
                    help="a sweep: run the test phase once per SM count (e.g. all,16,33,66; all = the whole GPU), "
                         "each confined to that many SMs with a green context, one table per count (docs/thresholds.md, "
                         "\"Other GPU shapes\"); each count's runs are kept in BUILD_ROOT/*/selftest/sms-COUNT/repK/, "
                         "memcheck runs under the first count, --save-measured saves the count all only")
    return ap.parse_args(argv)


def main(argv=None):
    """Builds, runs the repetitions (and memcheck), prints and writes the report; 1 on any problem."""
    args = parse_args(argv)
    # Without a GPU nothing can be measured: say so before minutes of building.
    absent = "" if args.no_gpu_check else gpu_absent()
    if absent:
        print(f"self-test: no NVIDIA GPU found here: {absent}.\n"
              "It measures every lesson on a GPU, so it stopped before building anything. Run it on a machine\n"
              "with an NVIDIA GPU (README, \"No GPU here?\", says where to borrow one); --no-gpu-check builds\n"
              "and runs anyway, and every lesson then reports SKIP.", file=sys.stderr)
        return NO_GPU
    root = pathlib.Path(args.build_root)
    root.mkdir(parents=True, exist_ok=True)
    log = root / "selftest.log"
    log.write_text("")
    ref, sta = root / "solutions", root / "starter"
    t0 = time.time()
    print(f"self-test: building in {root} (every command's output: {log})", file=sys.stderr)
    setup(ref, "solutions", log, args.revision)
    setup(sta, "starter", log, args.revision)
    sel = choose_lessons(args.lessons, ref)
    # Build everything up front, in parallel: the tests then only run.
    # With --lessons, the programs of those lessons alone: of each alias, the members that are theirs.
    members = {b: alias_members(b, ["lesson_programs"] + VARIANT_ALIASES) if sel else None for b in (ref, sta)}
    which = f" ({', '.join(sel)})" if sel else ""
    sh(["ninja", "-C", str(ref)] + targets(ninja_targets(ref), not args.no_known_bad, sel, members[ref]), log,
       "building the references" + which)
    sh(["ninja", "-C", str(sta)] + targets(None, False, sel, members[sta], unit_tests=False), log,
       "building the starters" + which)
    for b in (ref, sta):  # repetitions of an earlier self-test must not be read as this one's
        shutil.rmtree(b / ARCHIVE, ignore_errors=True)
    # A suite no test is in selects nothing (Meson runs those of the other suites).
    ref_which = sel_bad(ref, sel) if sel else ["--suite", "lessons", "--suite", "known-bad", "--suite", "known-good",
                                               "--suite", "grader"]
    if args.no_known_bad:
        ref_which = [n for n in sel_bad(ref, sel) if not is_variant(n)] if sel else ["--suite", "lessons", "--suite", "grader"]
    sta_which = sel or ["--suite", "lessons"]
    # Without --sms, one group with the caller's environment as it is (None: no sweep).
    counts = args.sms or [None]
    mechanism = mechanism_exercises(ROOT)  # the lessons' technique.txt, of the tree this script belongs to
    groups = []
    done, total = 0, len(counts) * args.repeat
    for count in counts:
        env = sms_env(count) if count is not None else None
        groups.append((count, []))
        for k in range(1, args.repeat + 1):
            groups[-1][1].append(run_repetition(ref, sta, ref_which, sta_which, archive_name(count, k), log, env))
            done += 1
            if done < total:  # what has landed so far, in case the rest never does (a time limit, a lost machine)
                text, data, _ = report_of(groups, None, args.sms is not None, mechanism, t0)
                write_report(root, "selftest.partial", f"{PARTIAL_NOTE} {done} of {total} test phases.\n\n" + text, data)
    first_env = sms_env(counts[0]) if counts[0] is not None else None
    memcheck = run_memcheck(ref, sel or ["--suite", "lessons"], args.memcheck_timeout, log, first_env) if args.memcheck else None

    text, data, reports = report_of(groups, memcheck, args.sms is not None, mechanism, t0)
    print(text)
    write_report(root, "selftest", text, data)
    # The docs chart the whole GPU: in a sweep, the count all's results, if it ran.
    whole = next(((c, r) for c, r in zip(counts, reports) if c in (None, "all")), None)
    if args.save_measured and whole is None:
        print("results not saved for the docs: --save-measured saves the whole GPU's, and the sweep has no count all")
    elif args.save_measured and not whole[1]["problems"] and whole[1].get("gpu"):
        last = archive_name(whole[0], args.repeat)
        dest = save_measured(ref / ARCHIVE / last, sta / ARCHIVE / last, whole[1]["gpu"], ROOT / "docs" / "measured")
        print(f"results saved for the docs: {dest} (commit them; the docs build charts them)")
    return 1 if any(r["problems"] for r in reports) else 0


if __name__ == "__main__":
    sys.exit(main())
