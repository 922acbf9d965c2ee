# SPDX-License-Identifier: MIT
"""Reading the grader's results files (docs/results_schema.md), for every tool that reads
them: the GPU self-test, the student's report and the docs' measured pages."""
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
