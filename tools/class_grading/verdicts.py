# SPDX-License-Identifier: MIT
"""A student's verdict and points per exercise, from their record (grading.py writes it).

Pure functions of dicts: tools/tests/test_grade_class.py tests them on synthetic records.

A record holds, per lesson test, the results file the grader wrote (docs/results_schema.md)
or the problem that left none, the lesson's kernel files, those missing and those identical
to the starter's, and the exercise names the lesson program listed. The gradebook has one
column per graded exercise (teaching tables, NN.0, are not graded); where no student's
results or listing name a lesson's exercises, the lesson gets one column of its own.

Cell verdicts: PASS; FAIL [reason] (the grader's reason, or compile, missing, policy, error
for a lesson that did not run); SKIP (nothing could run: no GPU); NOT ATTEMPTED (the
exercise's kernel file is the starter's, unchanged); NOT RUN (the lesson was not part of
this run). A passed exercise is worth one point; a lesson column is worth none. Apart from
the verdict, a cell names the kernels shipped with the course that the exercise's file
matches (copied from; copies.py), for the instructor to look at: it changes no verdict.

row() counts a student's verdicts; the gradebook, the report and the progress line all
count with it."""
import re

# A lesson's status (results file) that stopped it before its exercises, as the cell's reason.
STATUS_REASON = {"compile_error": "compile", "missing_files": "missing"}


def exercise_number(name):
    """(lesson, step) of an exercise name such as `06.3 step 3 ...`, else None."""
    m = re.match(r"^(\d+)\.(\d+)\b", name or "")
    return (m.group(1), int(m.group(2))) if m else None


def graded_names(lesson):
    """The graded (non-teaching) exercises of one lesson record: from its results file when
    it ran exercises, else from the lesson program's listing (teaching: step 0)."""
    doc = lesson.get("results") or {}
    names = [e["exercise"] for e in doc.get("exercises", []) if not e.get("teaching")]
    if names:
        return names
    return [n for n in lesson.get("listed", []) if (exercise_number(n) or (None, 0))[1] != 0]


class Column:
    """One gradebook column: an exercise of a lesson test (or the whole lesson when
    `exercise` is None) and the kernel file it grades, when that is known."""

    def __init__(self, test, exercise, kernel=None):
        self.test, self.exercise, self.kernel = test, exercise, kernel
        self.label = exercise or test
        n = exercise_number(exercise)
        self.number = f"{n[0]}.{n[1]}" if n else test
        self.points = 1 if exercise else 0

    def __repr__(self):
        return f"Column({self.test!r}, {self.exercise!r}, {self.kernel!r})"


def kernel_of(names, kernels):
    """{exercise: kernel file} where the course's convention holds: exercises NN.1 .. NN.n,
    n kernel files, the k-th file graded by exercise NN.k. Empty otherwise: such a lesson is
    not attempted only when all its files are the starter's."""
    steps = sorted((exercise_number(n) or (None, -1))[1] for n in names)
    if not names or steps != list(range(1, len(kernels) + 1)):
        return {}
    return {n: kernels[exercise_number(n)[1] - 1] for n in names}


def columns(records):
    """The gradebook's columns for these records, lesson by lesson, exercises by number."""
    tests, names, kernels = [], {}, {}
    for r in records:
        for lesson in r.get("lessons", []):
            t = lesson["test"]
            if t not in names:
                tests.append(t)
                names[t], kernels[t] = [], lesson.get("kernels", [])
            names[t] += [n for n in graded_names(lesson) if n not in names[t]]
    cols = []
    for t in sorted(tests):
        ordered = sorted(names[t], key=lambda n: (exercise_number(n) or ("", 1 << 30))[1])
        files = kernel_of(ordered, kernels[t])
        cols += [Column(t, n, files.get(n)) for n in ordered] or [Column(t, None)]
    return cols


def _cell(verdict, reason="", message="", points=0, **more):
    c = {"verdict": verdict, "reason": reason, "message": message, "hint": "", "theory": "", "note": "",
         "points": points, "figure": None, "threshold": None, "unit": "", "copied": []}
    c.update(more)
    return c


def _plain(text, doc):
    """The grader's words without the instructor's copy of the submission in them."""
    where = doc.get("submission") or ""
    return text.replace(where, "your submission") if len(where) > 1 else text


def cell(record, column):
    """The verdict of one student on one column, as a dict: verdict, reason, message, hint,
    theory, note, points, figure / threshold / unit when the exercise was timed, and
    copied: the shipped kernels the exercise's file matches."""
    lesson = next((l for l in record.get("lessons", []) if l["test"] == column.test), None)
    if lesson is None:
        return _cell("NOT RUN", message="this lesson was not graded in this run")
    c = _judged(record, lesson, column)
    found = lesson.get("copied") or {}  # absent in records made before the check existed
    files = [column.kernel] if column.kernel else list(found)
    c["copied"] = sorted({src for k in files for src in found.get(k, [])})
    return c


def _judged(record, lesson, column):
    """cell() for a lesson that was part of the run."""
    kernels, unchanged = lesson.get("kernels", []), lesson.get("unchanged", [])
    if (column.kernel and column.kernel in unchanged) or (
            not column.kernel and kernels and sorted(unchanged) == sorted(kernels)):
        files = [column.kernel] if column.kernel else kernels
        return _cell("NOT ATTEMPTED", message="identical to the starter: " + ", ".join(files))
    doc = lesson.get("results")
    if not doc:
        return _cell("FAIL", "error", lesson.get("problem") or record.get("problem") or "no results file")
    status = doc.get("status")
    if status == "skipped":
        return _cell("SKIP", "skipped", _plain(doc.get("status_message", ""), doc))
    if status != "graded" or column.exercise is None:
        reason = STATUS_REASON.get(status, status or "error")
        if status == "graded":  # a lesson column of a lesson that ran (its exercises unnamed)
            s = doc.get("summary", {})
            ok = s.get("failed", 1) == 0 and s.get("passed", 0) > 0
            return _cell("PASS" if ok else "FAIL", "" if ok else "failed", f"{s.get('passed', 0)} passed, "
                         f"{s.get('failed', 0)} failed")
        return _cell("FAIL", reason, _plain(doc.get("status_message", ""), doc))
    e = next((x for x in doc.get("exercises", []) if x.get("exercise") == column.exercise), None)
    if e is None:
        return _cell("NOT RUN", message="not run in this lesson's results (a filter, or it stopped before)")
    f, lab = e.get("figures") or {}, e.get("labels") or {}
    verdict = e.get("verdict", "FAIL")
    return _cell(verdict, "" if verdict == "PASS" else e.get("reason", ""), e.get("message", ""),
                 column.points if verdict == "PASS" else 0, hint=e.get("hint", ""), theory=e.get("theory", ""),
                 note=e.get("note", ""), figure=f.get("figure"), threshold=f.get("threshold"),
                 unit=lab.get("unit", ""))


def verdict_text(c):
    """PASS, FAIL [slow], SKIP, NOT ATTEMPTED, NOT RUN."""
    return f"{c['verdict']} [{c['reason']}]" if c["verdict"] == "FAIL" else c["verdict"]


def verdict_line(column, c):
    """The line a student reads: `FAIL [slow] 01.1 matrix mapping: 2100 GB/s, needs ...`."""
    return f"{verdict_text(c)} {column.label}" + (f": {c['message']}" if c["message"] else "")


def details(c):
    """The text under a verdict: message, hint, theory, note, one a line."""
    parts = [c["message"]]
    parts += [f"hint: {c['hint']}"] if c["hint"] else []
    parts += [f"read: {c['theory']}"] if c["theory"] else []
    parts += [f"note: {c['note']}"] if c["note"] else []
    return "\n".join(p for p in parts if p)


def ratio(c):
    """The figure as a fraction of its threshold (1 = just enough), or None."""
    f, t = c.get("figure"), c.get("threshold")
    return f / t if isinstance(f, (int, float)) and isinstance(t, (int, float)) and t > 0 else None


def graded(c):
    """Whether the exercise was judged (PASS, FAIL, NOT ATTEMPTED), rather than left
    ungraded by the run (SKIP: no GPU; NOT RUN: not among the lessons graded)."""
    return c["verdict"] not in ("SKIP", "NOT RUN")


def totals(cells, cols):
    """points, max_points, how many cells got each verdict, and how many were copied."""
    out = {"points": sum(c["points"] for c in cells), "max_points": sum(col.points for col in cols),
           "copied": sum(bool(c["copied"]) for c in cells)}
    for v in ("PASS", "FAIL", "SKIP", "NOT ATTEMPTED", "NOT RUN"):
        out[v] = sum(c["verdict"] == v for c in cells)
    return out


def row(record, cols):
    """(the student's cell per column, their totals): what every output counts."""
    cells = [cell(record, c) for c in cols]
    return cells, totals(cells, cols)


def summary(t):
    """`5 passed, 1 failed, 2 not attempted` from row()'s totals."""
    words = {"PASS": "passed", "FAIL": "failed", "SKIP": "skipped", "NOT ATTEMPTED": "not attempted"}
    text = ", ".join(f"{t[v]} {w}" for v, w in words.items() if t[v]) or "nothing graded"
    return text + (f", {t['copied']} copied (see the report)" if t["copied"] else "")


def _unique(values):
    return " ".join(sorted({v for v in values if v}))


def seeds(record):
    """The seed(s) of a student's runs (one unless lessons ran with different seeds)."""
    return _unique([(l.get("results") or {}).get("seed") for l in record.get("lessons", [])]) or record.get("seed", "")


def revisions(record):
    """The grader revision(s) the student's results record."""
    return _unique([(l.get("results") or {}).get("grader_revision") for l in record.get("lessons", [])]) or \
        record.get("grader_revision", "")
