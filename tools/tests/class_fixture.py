#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A generated class for tools/grade_class.py, and the check of what grading it wrote.

    python3 tools/tests/class_fixture.py make SUBMISSIONS     six submissions (below)
    python3 tools/tests/class_fixture.py check GRADES [--lessons 01,02,06] [--gpu]

The class (each built from the course's own solutions/ and starter/):
  solutions-copy/             the references
  starter-copy/               the starters: every exercise NOT ATTEMPTED
  compile-error/              a missing `;` in lesson 02: lesson 02 FAIL [compile], the rest graded
  missing-file/               lesson 01 without particles.cu: lesson 01 FAIL [missing]
  extra-folder.tar.gz         the references under one extra top-level folder, with lesson 06's
                              steps 5 to 7 left as the starter's: those NOT ATTEMPTED
  policy-violation.zip        the references with a system() call in lesson 01: FAIL [policy]
                              (when the grader has its policy check, grader/supervisor/policy.hpp)

`check` verifies that every output exists and is well formed (CSV, JUnit XML, Gradescope
JSON, the HTML page with a section per student) and every verdict the class was built
for. Without a GPU (the default) every exercise that is not decided before it runs must be
SKIP; with --gpu the references must PASS. Every exercise whose file is a copy of the
references (all students' but the starters' and the missing file) must name the kernels it
was copied from (tools/class_grading/copies.py), and no other. Exit status 0 when all holds."""
import argparse
import csv
import io
import json
import pathlib
import re
import shutil
import sys
import tarfile
import xml.etree.ElementTree as ET
import zipfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
from class_grading.grading import SKIP_TEACHING  # noqa: E402
STUDENTS = ["compile-error", "extra-folder", "missing-file", "policy-violation", "solutions-copy", "starter-copy"]
BROKEN = "02-bank-conflicts/1_tiled_transpose.cu"
MISSING = "01-coalescing/particles.cu"
FORBIDDEN = "01-coalescing/matrix_mapping.cu"
UNTOUCHED = ["06-reduction/step5_unrolled_last_warp.cu", "06-reduction/step6_complete_unrolling.cu",
             "06-reduction/step7_grid_stride_shuffle.cu"]


def make(folder):
    folder = pathlib.Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    sol, sta = ROOT / "solutions", ROOT / "starter"
    shutil.copytree(sol, folder / "solutions-copy")
    shutil.copytree(sta, folder / "starter-copy")
    shutil.copytree(sol, folder / "compile-error")
    with open(folder / "compile-error" / BROKEN, "a") as f:
        f.write("\nint fixture_missing_semicolon = 1  // class-grading fixture: a compile error\n")
    shutil.copytree(sol, folder / "missing-file")
    (folder / "missing-file" / MISSING).unlink()
    staging = folder / ".staging"
    shutil.copytree(sol, staging / "my-kernels")
    for f in UNTOUCHED:
        shutil.copyfile(sta / f, staging / "my-kernels" / f)
    with tarfile.open(folder / "extra-folder.tar.gz", "w:gz") as t:
        t.add(staging / "my-kernels", arcname="my-kernels")
    shutil.copytree(sol, staging / "flat")
    with open(staging / "flat" / FORBIDDEN, "a") as f:
        f.write("\n#include <cstdlib>\n// class-grading fixture: a call the policy forbids\n"
                "int fixture_forbidden_call() { return std::system(\"true\"); }\n")
    with zipfile.ZipFile(folder / "policy-violation.zip", "w") as z:
        for p in sorted((staging / "flat").rglob("*")):
            if p.is_file():
                z.write(p, p.relative_to(staging / "flat").as_posix())
    shutil.rmtree(staging)
    print(f"class of {len(STUDENTS)} in {folder}: {', '.join(STUDENTS)}")


def expected(student, lesson, exercise, kernel, gpu, policy):
    """The verdict text a cell must show, or None where this check has no opinion."""
    lesson_dir = {"lesson01": "01-coalescing", "lesson02": "02-bank-conflicts", "lesson06": "06-reduction"}.get(lesson)
    path = f"{lesson_dir}/{kernel}" if lesson_dir and kernel else None
    ran = "PASS" if gpu else "SKIP"
    if student == "starter-copy":
        return "NOT ATTEMPTED"
    if student == "compile-error" and lesson == "lesson02":
        return "FAIL [compile]"
    if student == "missing-file" and lesson == "lesson01":
        return "FAIL [missing]"
    if student == "policy-violation" and lesson == "lesson01":
        return "FAIL [policy]" if policy else None
    if student == "extra-folder" and path in UNTOUCHED:
        return "NOT ATTEMPTED"
    if student == "extra-folder" and lesson == "lesson06" and not kernel:
        return None  # a lesson column: its exercises were not named, so no step-wise verdict
    return ran


def check(out, lessons, gpu):
    out = pathlib.Path(out)
    problems = []

    def need(ok, what):
        if not ok:
            problems.append(what)
        return ok

    policy = (ROOT / "grader" / "supervisor" / "policy.hpp").is_file()
    rows = list(csv.DictReader(io.StringIO((out / "gradebook.csv").read_text())))
    need(sorted(r["student"] for r in rows) == STUDENTS, f"gradebook.csv students: {[r['student'] for r in rows]}")
    verdict_cols = [k[: -len(" verdict")] for k in (rows[0] if rows else {}) if k.endswith(" verdict")]
    wanted = {f"lesson{l.strip()}" for l in lessons.split(",")} if lessons else None
    tests = {c if c.startswith("lesson") else "lesson" + c.split(".")[0] for c in verdict_cols}
    if wanted:
        need(tests == wanted, f"gradebook lessons {sorted(tests)}, expected {sorted(wanted)}")
    records = {r["student"]: json.loads((out / "students" / r["student"] / "record.json").read_text()) for r in rows}
    for r in rows:
        s = r["student"]
        need(r["seed"].isdigit() and r["grader_revision"], f"{s}: seed {r['seed']!r}, revision {r['grader_revision']!r}")
        need(int(r["max_points"]) == sum(not c.startswith("lesson") for c in verdict_cols), f"{s}: max_points")
        kernels, paths = {}, {}
        for lesson in records[s]["lessons"]:
            names = sorted(n for n in lesson["listed"] if not n.split(" ")[0].endswith(".0"))
            if len(names) == len(lesson["kernels"]):
                kernels.update(dict(zip(names, lesson["kernels"])))
                paths.update({n: f"{lesson['dir']}/{k}" for n, k in zip(names, lesson["kernels"])})
        for lesson in records[s]["lessons"]:  # grade was told to leave the teaching table out
            doc = lesson.get("results")
            if doc:
                need(doc.get("filters") == [SKIP_TEACHING], f"{s} / {lesson['test']}: filters {doc.get('filters')!r}, "
                                                            f"expected [{SKIP_TEACHING!r}]")
                need(not any(e.get("teaching") for e in doc.get("exercises", [])),
                     f"{s} / {lesson['test']}: a teaching table ran")
        flagged = 0
        for c in verdict_cols:
            lesson = c if c.startswith("lesson") else "lesson" + c.split(".")[0]
            want = expected(s, lesson, c, kernels.get(c), gpu, policy)
            got = r[f"{c} verdict"]
            if c in paths:
                not_copied = (s == "extra-folder" and paths[c] in UNTOUCHED) or (s == "missing-file" and paths[c] == MISSING)
                copy = s != "starter-copy" and not not_copied
                source = r[f"{c} copied from"]
                need(("solutions/" + paths[c] in source) if copy else not source,
                     f"{s} / {c}: copied from {source!r}, expected {'the reference' if copy else 'nothing'}")
                flagged += copy
            if want and not need(got == want, f"{s} / {c}: {got!r}, expected {want!r}"):
                continue
            need(r[f"{c} points"] == ("1" if got == "PASS" else "0"), f"{s} / {c}: points {r[f'{c} points']!r}")
        need(int(r["copied"]) == flagged, f"{s}: {r['copied']} copied, expected {flagged}")
        junit = out / "junit" / f"{s}.xml"
        if need(junit.is_file(), f"{junit} missing"):
            suite = ET.parse(junit).getroot().find("testsuite")
            need(suite is not None and int(suite.get("tests")) == len(verdict_cols) == len(suite.findall("testcase")),
                 f"{junit}: test cases")
        gs = out / "gradescope" / s / "results.json"
        if need(gs.is_file(), f"{gs} missing"):
            doc = json.loads(gs.read_text())
            need(doc.get("score") == int(r["points"]) and len(doc.get("tests", [])) == len(verdict_cols)
                 and all({"name", "score", "max_score", "output"} <= set(t) for t in doc["tests"]),
                 f"{gs}: not in Gradescope's format")
            for c, t in zip(verdict_cols, doc.get("tests", [])):
                # An exercise the run did not grade is no failure there: no status, nothing at stake.
                v = r[f"{c} verdict"]
                want = (None, 0) if v in ("SKIP", "NOT RUN") else ("passed" if v == "PASS" else "failed", t["max_score"])
                need((t.get("status"), t["max_score"]) == want, f"{gs} / {c} ({v}): status {t.get('status')!r}, "
                                                               f"max_score {t['max_score']}")
        for log in ("build.log", "test.log", "record.json"):
            need((out / "students" / s / log).is_file(), f"students/{s}/{log} missing")
        # A submission compiles its own files and links: the grader is the class's grader build's.
        build_log = out / "students" / s / "build.log"
        own = [l for l in (build_log.read_text(errors="replace").splitlines() if build_log.is_file() else [])
               if re.search(r"Compiling \S+ object grader/", l)]
        need(not own, f"{s}: its build compiled the grader: {own[:1]}")
    page = (out / "report.html").read_text() if (out / "report.html").is_file() else ""
    need(page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>"), "report.html not a whole page")
    for s in STUDENTS:
        need(f'id="student-{s}"' in page, f"report.html has no section for {s}")
    comp = next((l for l in records.get("compile-error", {}).get("lessons", []) if l["test"] == "lesson02"), None)
    if comp:
        need("error" in (comp.get("results") or {}).get("status_message", ""), "compile-error: no compiler lines")
    for p in problems:
        print("FAIL", p)
    print(f"class check: {len(rows)} students, {len(verdict_cols)} columns, {len(problems)} problems"
          + ("" if policy else " (no policy check in this grader: FAIL [policy] not expected)"))
    return 1 if problems else 0


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    sub.add_parser("make").add_argument("folder")
    c = sub.add_parser("check")
    c.add_argument("out")
    c.add_argument("--lessons", default="")
    c.add_argument("--gpu", action="store_true", help="graded on a GPU: the references must PASS")
    a = p.parse_args()
    if a.cmd == "make":
        make(a.folder)
        return 0
    return check(a.out, a.lessons, a.gpu)


if __name__ == "__main__":
    sys.exit(main())
