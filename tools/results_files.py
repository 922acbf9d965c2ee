# SPDX-License-Identifier: MIT
"""Reading the grader's results files (docs/results_schema.md) and Meson's test log, for every
tool that reads them: the GPU self-test, the student's report, the docs' measured pages, the
class grader and the student release's check."""
import json
import pathlib

SCHEMA = "cuda-lessons-results"
SCHEMA_VERSION = 1


def read_results_file(path):
    """(document, None) for a results file of the schema these tools read, else (None, the
    problem in words): a file that is not JSON, of another schema, or of another version."""
    path = pathlib.Path(path)
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        return None, f"{path}: not readable as JSON ({e})"
    if not isinstance(doc, dict) or doc.get("schema") != SCHEMA:
        schema = doc.get("schema") if isinstance(doc, dict) else None
        return None, f"{path}: not a results file (schema {schema!r}, expected {SCHEMA!r})"
    if doc.get("schema_version") != SCHEMA_VERSION:
        return None, (f"{path}: results schema_version {doc.get('schema_version')!r}; the tools read version "
                      f"{SCHEMA_VERSION} only (update tools/results_files.py with the grader)")
    return doc, None


def files_by_test(folder):
    """([(test, path)], [names of files left out]) for one results folder, in test order.

    A file is named after its test: lesson01.json, lesson01-bad-faults.json, or under a
    sanitizer setup <test>.memcheck.json / <test>.racecheck.json. Where a test has both,
    the run without a sanitizer, the one graded on speed, is kept; the other is left out."""
    folder = pathlib.Path(folder)
    paths = sorted(folder.glob("*.json")) if folder.is_dir() else []
    chosen, left_out = {}, []
    for path in sorted(paths, key=lambda p: (p.name.count("."), p.name)):  # <test>.json first
        test = path.name.split(".")[0]
        if test in chosen:
            left_out.append(path.name)
        else:
            chosen[test] = path
    return sorted(chosen.items()), left_out


def test_name(meson_name):
    """The bare test name of a Meson test-log entry.

    Meson writes "project:suite+suite / name" when a project has several suites (older
    versions), "suite - project:name" (newer ones) or just "name"."""
    if " / " in meson_name:
        return meson_name.split(" / ")[-1]
    return meson_name.split(":")[-1]


def read_testlog(path, stdout=True):
    """{test name: {"result", "returncode", "duration", "stdout"}} from Meson's test log (one
    JSON object a line); {} when there is none (the phase did not run). A line that is not a
    test's entry is skipped: where student code ran, it could have written in the log's folder.
    stdout=False leaves the tests' output out (a report that keeps the entries stays small)."""
    out = {}
    try:
        lines = pathlib.Path(path).read_text(errors="replace").splitlines()
    except OSError:
        return out
    for line in lines:
        try:
            t = json.loads(line)
            entry = {"result": t.get("result"), "returncode": t.get("returncode"), "duration": t.get("duration")}
            if stdout:
                entry["stdout"] = str(t.get("stdout") or "")
            out[test_name(t["name"])] = entry
        except (ValueError, KeyError, TypeError, AttributeError):
            continue
    return out
