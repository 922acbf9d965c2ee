# SPDX-License-Identifier: MIT
"""Reading the grader's results files (docs/results_schema.md) and Meson's test log, for every
tool that reads them: the GPU self-test, the student's report, the docs' measured pages, the
class grader and the student release's check."""
import json
import pathlib
import re

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


def teaching_tables(lesson, exercise):
    """The teaching tables of one exercise of a results document, in the grader's order:
    [{"caption", "unit", "relative", "columns", "rows": [{"key", "label", "student"}]}], a row
    whose key is "" being a heading (docs/results_schema.md, "Teaching tables"). Each row's
    figure is the exercise's figure of that key. `lesson` ("06") is read only for a file that
    has no `tables` (written before they were recorded, 2026-11-26): untabled_tables rebuilds them."""
    tables = exercise.get("tables")
    if not isinstance(tables, list):
        return untabled_tables(lesson, exercise)
    out = []
    for t in tables:
        if not isinstance(t, dict):
            continue
        rows = [{"key": str(r.get("key") or ""), "label": str(r.get("label") or r.get("key") or ""),
                 "student": r.get("student") is True} for r in (t.get("rows") or []) if isinstance(r, dict)]
        out.append({"caption": str(t.get("caption") or ""), "unit": str(t.get("unit") or ""),
                    "relative": t.get("relative") is True,
                    "columns": [str(c) for c in t.get("columns") or [] if isinstance(c, str)], "rows": rows})
    return out


# ---------------------------------------------------------------------- files without tables
# Results files written before the grader recorded its tables (those committed under
# docs/measured/ and tools/tests/fixtures/ on 2026-11-22 and 2026-11-26) keep only the figures,
# their keys in alphabetical order. For those files alone, the rows of each lesson's tables as
# the graders of that time wrote them: (key pattern, label); N in a pattern stands for a number
# (the keys it matches sort by it) and {N} in the label is replaced by it. Frozen: a lesson's
# new or changed rows reach the tools through the `tables` its results files carry. Delete this
# once no committed results file lacks `tables`.
UNTABLED_ROWS = {
    "01": [("offset_N_gbs", "offset {N}"), ("stride_N_gbs", "stride {N}"),
           ("double3_per_thread_gbs", "double3, one struct per thread"),
           ("double3_flat_gbs", "double3 as flat doubles")],
    "02": [("s_0_1", "s[0] (broadcast)"), ("s_1_2", "s[lane / 2] (multicast)"), ("s_1_1", "s[lane]"),
           ("s_N_1", "s[{N} lane]"), ("d_1_1", "d[lane]"), ("d_N_1", "d[{N} lane]"),
           ("tile_copy_gbs", "tile copy, no transpose"), ("naive_gbs", "naive transpose"),
           ("tile32_gbs", "tile 32 x 32"), ("tile32_padded_gbs", "tile 32 x 33"),
           ("tile64_gbs", "tile 64 x 64"), ("tile64_padded_gbs", "tile 64 x 65"),
           ("student_02_1_gbs", "your transpose_tiled (02.1)"), ("student_02_2_gbs", "your transpose_padded (02.2)"),
           ("double_naive_gbs", "double: naive"), ("double_tile32_gbs", "double: tile 32 x 32"),
           ("double_tile32_padded_gbs", "double: tile 32 x 33"),
           ("student_02_3_gbs", "your transpose_double (02.3)")],
    "03": [("cublas_gflops", "cuBLAS SGEMM, A B"), ("naive_gflops", "naive"),
           ("student_03_1_gflops", "your sgemm_coalesced (03.1)"), ("student_03_2_gflops", "your sgemm_shared (03.2)"),
           ("student_03_3_gflops", "your sgemm_coarsened (03.3)"), ("cublas_abt_gflops", "cuBLAS SGEMM, A Bt"),
           ("naive_abt_gflops", "naive A Bt"), ("student_03_4_gflops", "your sgemm_abt (03.4)")],
    "04": [(f"{v}_kN_gflops", f"{label}, k = {{N}}") for v, label in
           (("global", "filter in global memory"), ("constant", "filter in constant memory"),
            ("halo_tile", "halo tile"), ("cache_halo", "halo through the caches"),
            ("strips_one_load", "register strips, one tile load in flight"), ("npp", "NPP"))]
          + [(f"student_04_{e}_kN_gflops", f"your 04.{e}, k = {{N}}") for e in (1, 2, 3, 4)],
    "05": [(f"{i}_{r}_gbs", f"{i}: {r}") for i in ("uniform", "text", "c50", "c90", "c99", "one_value")
           for r in ("cub", "global", "privatized", "interleaved_bytes", "contiguous_bytes", "interleaved_uint4",
                     "contiguous_uint4", "aggregated", "per_lane", "student_05_1", "student_05_2", "student_05_3")],
    "06": [("stepN_best_gbs", "your step {N}"), ("block_sum_best_gbs", "block-sum ceiling"), ("cub_gbs", "CUB")],
    "07": [(f"pinned_{d}_gbs", f"pinned, {d}") for d in ("h2d", "d2h", "both")]
          + [(f"pageable_{d}_gbs", f"pageable, {d}") for d in ("h2d", "d2h", "both")]
          + [("streamsN_gbs", "{N} streams"), ("depth_streams4_gbs", "depth-first, 4 streams"),
             ("breadth_streams4_gbs", "breadth-first, 4 streams"),
             ("depth_stream_per_chunk_gbs", "depth-first, a stream per chunk"),
             ("breadth_stream_per_chunk_gbs", "breadth-first, a stream per chunk"),
             ("pipeline_gbs", "pipeline"), ("default_stream_gbs", "work on the default stream"),
             ("sync_each_gbs", "a synchronize per chunk"), ("pageable_gbs", "pageable arrays"),
             ("serial_gbs", "serial"), ("yours_gbs", "your pipeline")],
    "08": [("naive_recip_sqrt_gflops", "naive, 1/sqrtf"), ("naive_rsqrt_gflops", "naive, rsqrtf"),
           ("tiled_runtime_recip_sqrt_gflops", "tiled, 1/sqrtf"), ("tiled_runtime_rsqrt_gflops", "tiled, rsqrtf"),
           ("unroll_N_gflops", "unrolled by {N}"), ("fixed_recip_sqrt_gflops", "fixed tile, 1/sqrtf"),
           ("fixed_pow_gflops", "fixed tile, powf"), ("fixed_double_gflops", "fixed tile, double"),
           ("fixed_rsqrt_ftz_gflops", "fixed tile, rsqrtf, flush to zero"),
           ("naive_soa_gflops", "naive, SoA"), ("naive_aos7_gflops", "naive, 7-float struct"),
           ("tiled_soa_gflops", "tiled, SoA"), ("tiled_aos7_gflops", "tiled, 7-float struct"),
           ("split_N_gflops", "{N} threads per body, n = 16384"),
           ("student_08_N_gflops", "your 08.{N}")],
}


def untabled_rows(lesson, keys):
    """[(key, label)] for the figures `keys` of a file without tables, in its grader's row order
    (UNTABLED_ROWS); keys no pattern matches follow in the file's order, labelled with their key."""
    left = list(keys)
    out = []
    for pattern, label in UNTABLED_ROWS.get(lesson, []):
        rx = re.compile("^" + re.escape(pattern).replace("N", r"(\d+)") + "$")
        hits = []
        for k in left:
            m = rx.match(k)
            if m:
                hits.append((int(m.group(1)) if m.groups() else 0, k))
        for n, k in sorted(hits):
            out.append((k, label.replace("{N}", str(n))))
            left.remove(k)
    return out + [(k, k) for k in left]


def untabled_tables(lesson, exercise):
    """The tables of a teaching exercise from a file without `tables`: its numeric figures,
    one table per unit (the key's suffix: _gbs, _gflops, else a time ratio), rows in the order
    of untabled_rows; a row is the student's when its label starts with "your" or its key
    names a student."""
    figures = exercise.get("figures") if isinstance(exercise.get("figures"), dict) else {}
    keys = [k for k, v in figures.items() if isinstance(v, (int, float)) and not isinstance(v, bool)]
    tables = {}
    for key, label in untabled_rows(lesson, keys):
        unit = "GB/s" if key.endswith("_gbs") else "GFLOP/s" if key.endswith("_gflops") else \
            "time ÷ time of the reference row"
        t = tables.setdefault(unit, {"caption": "", "unit": unit, "relative": not unit.startswith("G"), "columns": [],
                                     "rows": []})
        t["rows"].append({"key": key, "label": label, "student": label.startswith("your") or "student" in key})
    return list(tables.values())


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
