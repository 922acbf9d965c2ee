# SPDX-License-Identifier: MIT
"""The class's outputs, all made from the students' records (verdicts.py decides each cell):

  gradebook.csv                  one row per student, three columns per exercise (verdict, points,
                                 the shipped kernels its file matches), totals, seed, grader revision
  junit/<student>.xml            one test case per exercise, the verdict line as message
  gradescope/<student>/results.json   Gradescope's autograder results format
  report.html                    the class at a glance and a section per student (html_report.py)

Every file is written whole and then renamed into place, so a reader never sees half of one."""
import csv
import io
import json
import os
import pathlib
import xml.etree.ElementTree as ET

from . import html_report, verdicts


def write_text(path, text):
    path = pathlib.Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name("." + path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def table(records):
    """(columns, [(record, [cell per column], totals)]) for the records, sorted by student."""
    records = sorted(records, key=lambda r: r["student"])
    cols = verdicts.columns(records)
    return cols, [(r, *verdicts.row(r, cols)) for r in records]


def gradebook_csv(cols, rows):
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["student", "entry", "points", "max_points", "passed", "failed", "not_attempted", "skipped", "copied"]
               + [h for c in cols for h in (f"{c.label} verdict", f"{c.label} points", f"{c.label} copied from")]
               + ["seed", "grader_revision", "sandbox", "gpu", "graded_at", "build_s", "test_s", "problem"])
    for r, cells, t in rows:
        w.writerow([r["student"], r.get("entry", ""), t["points"], t["max_points"], t["PASS"], t["FAIL"],
                    t["NOT ATTEMPTED"], t["SKIP"], t["copied"]]
                   + [v for c in cells for v in (verdicts.verdict_text(c), c["points"], "; ".join(c["copied"]))]
                   + [verdicts.seeds(r), verdicts.revisions(r), r.get("sandbox", ""), r.get("gpu", ""),
                      r.get("finished", ""), r.get("build_s", ""), r.get("test_s", ""),
                      (r.get("problem") or "").splitlines()[0] if r.get("problem") else ""])
    return out.getvalue()


def junit_xml(cols, record, cells):
    """One <testsuite> per student (in <testsuites>): a passed exercise is a plain test case, a failed one has a
    <failure> (its type the reason), SKIP, NOT ATTEMPTED and NOT RUN are <skipped>."""
    suite = ET.Element("testsuite", name=record["student"], tests=str(len(cols)),
                       failures=str(sum(c["verdict"] == "FAIL" for c in cells)), errors="0",
                       skipped=str(sum(c["verdict"] not in ("PASS", "FAIL") for c in cells)),
                       time=str(record.get("wall_s", 0)), timestamp=record.get("started", ""),
                       hostname=record.get("host", ""))
    props = ET.SubElement(suite, "properties")
    for k, v in (("seed", verdicts.seeds(record)), ("grader_revision", verdicts.revisions(record)),
                 ("sandbox", record.get("sandbox", "")), ("entry", record.get("entry", ""))):
        ET.SubElement(props, "property", name=k, value=str(v))
    for col, c in zip(cols, cells):
        case = ET.SubElement(suite, "testcase", classname=f"{record['student']}.{col.test}", name=col.label)
        line = verdicts.verdict_line(col, c)
        if c["verdict"] == "FAIL":
            ET.SubElement(case, "failure", message=line, type=c["reason"]).text = verdicts.details(c)
        elif c["verdict"] != "PASS":
            ET.SubElement(case, "skipped", message=line)
        else:
            ET.SubElement(case, "system-out").text = line
    root = ET.Element("testsuites", name=record["student"], tests=suite.get("tests"), failures=suite.get("failures"),
                      errors="0", skipped=suite.get("skipped"), time=suite.get("time"))
    root.append(suite)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def gradescope_test(col, c):
    """One exercise as a test of Gradescope's results.json. Gradescope knows two statuses,
    passed and failed. An exercise the run could not grade (SKIP: no GPU; NOT RUN: its
    lesson was not graded) is neither: it is shown with a max_score of 0 and no status, so
    that it takes no point from the student's score and does not show as failed (without a
    status, Gradescope never shows a test of max_score 0 as failed), while
    its output says why it was not graded. Left out, the student would not see why. The
    flags of copied kernels are for the instructor, not in this file."""
    test = {"name": col.label, "number": col.number, "score": c["points"], "max_score": col.points,
            "status": "passed" if c["verdict"] == "PASS" else "failed",
            "output": verdicts.verdict_line(col, c) + ("\n" + verdicts.details(c) if c["hint"] or c["theory"] else ""),
            "tags": [col.test, c["verdict"].lower().replace(" ", "_")], "visibility": "visible"}
    if not verdicts.graded(c):
        del test["status"]
        test.update(max_score=0, output="not graded: " + test["output"])
    return test


def gradescope_json(cols, record, cells, totals):
    """Gradescope's results.json: a test per exercise (gradescope_test). Its summary counts
    the points at stake in the file, those of its tests' max_score, and says how many
    exercises were not graded (max_score 0) and what they would be worth."""
    tests = [gradescope_test(col, c) for col, c in zip(cols, cells)]
    problem = record.get("problem") or ""
    at_stake = sum(t["max_score"] for t in tests)
    left = [col for col, c in zip(cols, cells) if col.points and not verdicts.graded(c)]
    worth = sum(col.points for col in left)
    scored = f"{totals['points']} of {at_stake} point{'s' * (at_stake != 1)}." if at_stake else "Nothing graded."
    not_graded = (f" {len(left)} exercise{'s' * (len(left) != 1)} not graded in this run (SKIP or NOT RUN), "
                  f"worth {worth} point{'s' * (worth != 1)} once graded.") if left else ""
    return json.dumps({
        "score": totals["points"], "execution_time": round(record.get("wall_s", 0)),
        "output": (f"{scored}{not_graded} Seed {verdicts.seeds(record)}, grader revision {verdicts.revisions(record)}."
                   + (f"\n{problem}" if problem else "")),
        "visibility": "visible", "stdout_visibility": "hidden",
        "extra_data": {"seed": verdicts.seeds(record), "grader_revision": verdicts.revisions(record)},
        "tests": tests}, indent=1) + "\n"


def render_all(out, records):
    """Writes every output from `records`; returns the columns (for the caller's summary)."""
    out = pathlib.Path(out)
    cols, rows = table(records)
    write_text(out / "gradebook.csv", gradebook_csv(cols, rows))
    for r, cells, t in rows:
        write_text(out / "junit" / f"{r['student']}.xml", junit_xml(cols, r, cells))
        write_text(out / "gradescope" / r["student"] / "results.json", gradescope_json(cols, r, cells, t))
    write_text(out / "report.html", html_report.render(cols, rows))
    return cols
