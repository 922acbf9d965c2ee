# SPDX-License-Identifier: MIT
"""Tests of tools/report.py and tools/measured_pages.py without a GPU: synthetic results folders
(schema 1, like the grader writes them) and real results files, frozen as fixtures, go in;
the HTML page, the SVG charts and the docs page come out.

Run from the repository root: python3 -m unittest discover -s tools/tests -t .
"""
import contextlib
import importlib.util
import io
import json
import pathlib
import re
import shutil
import tempfile
import unittest
import xml.etree.ElementTree as ET

ROOT = pathlib.Path(__file__).resolve().parents[2]
# A frozen copy of docs/measured as it was on 2026-11-22 (H200, grader revision 74641fb-dirty):
# the live folder changes whenever the self-test saves new results, these tests must not.
MEASURED = ROOT / "tools" / "tests" / "fixtures" / "measured"
H200_REFERENCE_01 = MEASURED / "nvidia-h200" / "reference" / "lesson01.json"


def load(name):
    """A script of tools/ as a module (they are scripts, not an installed package)."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


report = load("report")
measured_pages = load("measured_pages")
results_files = load("results_files")

GPU = {"name": "NVIDIA Test GPU", "arch": "sm_90", "sms": 100, "l2_bytes": 50331648, "memory_bytes": 85899345920}
CEILINGS = {"copy_gbs": 3000, "dram_gbs": 3350, "fma_gflops": 50000}


def exercise(name, verdict="PASS", reason="none", figure=None, threshold=None, ceiling=None, unit="GB/s",
             median_ms=1.0, message="", hint="", teaching=False, extra_figures=None, extra_labels=None):
    """One entry of a results file's "exercises", as grader/common/results.cpp writes it."""
    figures, labels = {}, {}
    if figure is not None:
        figures.update(figure=figure, threshold=threshold, ceiling=ceiling, median_ms=median_ms, min_ms=median_ms,
                       max_ms=median_ms, runs=21, tail_ms=0.001, fraction_of_ceiling=figure / ceiling)
        labels.update(unit=unit, ceiling=f"ceiling words {ceiling:.0f} {unit}")
    figures.update(extra_figures or {})
    labels.update(extra_labels or {})
    return {"exercise": name, "verdict": verdict, "reason": reason, "message": message, "hint": hint,
            "theory": "read lessons/x/theory.md" if verdict == "FAIL" else "", "note": "",
            "perf_graded": figure is not None, "teaching": teaching, "fraction": 0.5 if figure else 0,
            "figures": figures, "labels": labels}


def document(test, lesson, title, exercises, status="graded", status_message="", gpu=GPU, ceilings=None,
             sanitizer="", version=1, exit_code=0):
    """A results document of schema 1 (or `version`)."""
    return {"schema": "cuda-lessons-results", "schema_version": version, "test": test, "lesson": lesson,
            "title": title, "theory": f"lessons/{lesson}-x/theory.md", "submission": "/tmp/kernels",
            "grader_revision": "abc1234", "timestamp": "2026-11-22T01:02:03Z", "seed": "123456789",
            "threshold_scale": 1, "sanitizer": sanitizer, "filters": [], "expect_reject": [], "status": status,
            "status_message": status_message, "gpu": gpu, "ceilings": CEILINGS if ceilings is None else ceilings,
            "exercises": exercises, "summary": {"passed": 0, "failed": 0, "skipped": 0, "info": 0},
            "exit_code": exit_code, "wall_s": 1.5}


LESSON03 = document("lesson03", "03", "Tiling", [
    exercise("03.0 stage table", "INFO", teaching=True,
             extra_figures={"student_03_1_gflops": 6000, "naive_gflops": 1200, "cublas_gflops": 47000,
                            "mystery_gflops": 5}),
    exercise("03.1 coalesced mapping", figure=6009.21, threshold=2700.87, ceiling=47383.8, unit="GFLOP/s",
             median_ms=21.266),
    exercise("03.2 shared-memory tiles", "FAIL", "slow", figure=6010.41, threshold=6840.29, ceiling=47174.4,
             unit="GFLOP/s", median_ms=21.2618, message="too slow: 6010 GFLOP/s, needs >= 6840",
             hint="load T x T tiles into shared memory"),
], exit_code=1)

LESSON06 = document("lesson06", "06", "Parallel reduction", [
    exercise("06.0 reduction table", "INFO", teaching=True,
             extra_figures={"step2_best_gbs": 700, "step10_best_gbs": 900, "step1_best_gbs": 460, "cub_gbs": 3400,
                            "block_sum_best_gbs": 2200},
             extra_labels={"step1_best_gbs_best_setting": "128", "step2_best_gbs_best_setting": "256"}),
    exercise("06.1 step 1 interleaved divergent", "FAIL", "slow", figure=2.27768, threshold=190.694,
             ceiling=2383.67, message="too slow: 2 GB/s, needs >= 191 (8 % of block-sum ceiling 2384 GB/s)"),
    exercise("06.2 step 2 interleaved strided", "FAIL", "wrong", message="reduce_step2: 1 of 1 values wrong"),
], exit_code=1)

# A lesson no tool knows, whose results carry their tables (docs/results_schema.md): the charts
# come from the tables alone, in their order, with their labels and headings.
NEW_LESSON_TABLE = exercise("09.0 new table", "INFO", teaching=True,
                            extra_figures={"zeta_gbs": 100, "alpha_gbs": 300, "mine_gbs": 200, "rel_a": 1.0,
                                           "rel_b": 2.5, "not_a_row_ms": 7},
                            extra_labels={"zeta_gbs_best_setting": "64"})
NEW_LESSON_TABLE["tables"] = [
    {"caption": "Copies on this GPU, three ways:", "unit": "GB/s", "relative": False,
     "columns": ["version", "64", "128", "best", "best GB/s"],
     "rows": [{"key": "", "label": "group one", "student": False},
              {"key": "zeta_gbs", "label": "zeta kernel", "student": False},
              {"key": "", "label": "yours", "student": False},
              {"key": "mine_gbs", "label": "your kernel (09.1)", "student": True},
              {"key": "alpha_gbs", "label": "alpha kernel", "student": False}]},
    {"caption": "Patterns", "unit": "time ÷ time of a", "relative": True, "columns": ["pattern", "time ÷ time of a"],
     "rows": [{"key": "rel_b", "label": "pattern b", "student": False},
              {"key": "rel_a", "label": "pattern a", "student": False}]},
    {"caption": "A table that never got a row", "unit": "GB/s", "relative": False, "columns": ["version", "GB/s"],
     "rows": [{"key": "", "label": "a heading alone", "student": False}]},
]
LESSON09 = document("lesson09", "09", "A new lesson", [NEW_LESSON_TABLE])

SKIPPED = document("lesson02", "02", "Bank conflicts", [], status="skipped",
                   status_message="no CUDA GPU or NVIDIA driver in this machine", gpu=None, ceilings={}, exit_code=77)


def write(folder, name, doc):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(json.dumps(doc) if not isinstance(doc, str) else doc)


def run_report(args):
    """(exit code, stdout, stderr) of report.py's main."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = report.main([str(a) for a in args])
    return rc, out.getvalue(), err.getvalue()


def svgs_of(page):
    return re.findall(r"<svg\b.*?</svg>", page, re.S)


class ReportPage(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.build = pathlib.Path(cls.tmp.name) / "build"
        results = cls.build / "results"
        results.mkdir(parents=True)
        shutil.copy(H200_REFERENCE_01, results / "lesson01.json")  # a real file, as the fixture of lesson 01
        (results / "lesson01.json").chmod(0o644)
        write(results, "lesson01.memcheck.json", document("lesson01", "01", "x", [], sanitizer="memcheck"))
        write(results, "lesson02.json", SKIPPED)
        write(results, "lesson03.json", LESSON03)
        write(results, "lesson06.json", LESSON06)
        write(results, "lesson07.json", document("lesson07", "07", "Streams", [], version=2))
        write(results, "lesson09.json", LESSON09)
        write(results, "lesson08.memcheck.json", document(
            "lesson08", "08", "N-body", [exercise("08.1 tiles", "FAIL", "fault", message="invalid read of 4 bytes")],
            sanitizer="memcheck", ceilings={}, exit_code=1))
        write(results, "garbage.json", "{not json")
        cls.rc, cls.stdout, cls.stderr = run_report([cls.build])
        cls.path = cls.build / "report.html"
        cls.page = cls.path.read_text() if cls.path.is_file() else ""

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_written_and_path_printed(self):
        self.assertEqual(self.rc, 0, self.stderr)
        self.assertEqual(self.stdout.strip(), str(self.path))
        self.assertTrue(self.page.startswith("<!DOCTYPE html>"))

    def test_every_exercise_with_its_verdict_and_figure(self):
        real = json.loads(H200_REFERENCE_01.read_text())
        for e in real["exercises"]:
            self.assertIn(e["exercise"], self.page)
        self.assertIn("3698", self.page)  # 01.1's figure 3697.72
        self.assertIn("3825", self.page)  # 01.2's figure
        self.assertIn("4093 (cuBLAS geam (C = A + B))", self.page)  # its vendor figure
        for name in ("03.1 coalesced mapping", "03.2 shared-memory tiles", "06.1 step 1 interleaved divergent",
                     "06.2 step 2 interleaved strided"):
            self.assertIn(name, self.page)
        self.assertIn("6009", self.page)
        self.assertIn("2.28", self.page)  # 06.1's figure, small numbers keep digits
        for verdict in ("PASS", "FAIL", "INFO"):
            self.assertIn(f'<span class="{verdict}">{verdict}</span>', self.page)

    def test_header(self):
        self.assertIn("NVIDIA H200", self.page)  # the real file's GPU
        self.assertIn("NVIDIA Test GPU", self.page)  # and the synthetic files' (two GPUs: said so)
        self.assertIn("different GPUs", self.page)
        for text in ("270750118", "2026-11-22T01:43:28Z", "74641fb-dirty", "4240", "60143", "4814"):
            self.assertIn(text, self.page)

    def test_failing_messages_under_the_chart(self):
        self.assertIn("too slow: 6010 GFLOP/s, needs &gt;= 6840", self.page)
        self.assertIn("load T x T tiles into shared memory", self.page)
        self.assertIn("reduce_step2: 1 of 1 values wrong", self.page)
        chart = self.page.index("Lesson 06: your figures")
        self.assertGreater(self.page.index("too slow: 2 GB/s"), chart)

    def test_skipped_lesson_shows_its_status(self):
        section = self.page[self.page.index('id="lesson02"'):self.page.index('id="lesson03"')]
        self.assertIn("skipped", section)
        self.assertIn("no CUDA GPU or NVIDIA driver in this machine", section)
        self.assertNotIn("<svg", section)

    def test_sanitizer_runs(self):
        self.assertIn("lesson01.memcheck.json", self.page)  # listed as not charted
        section = self.page[self.page.index('id="lesson08"'):]
        self.assertIn("compute-sanitizer (memcheck)", section)
        self.assertIn("invalid read of 4 bytes", section)

    def test_other_schema_version_is_reported(self):
        self.assertIn("lesson07.json: results schema_version 2", self.page)
        self.assertIn("garbage.json: not readable as JSON", self.page)
        self.assertNotIn('id="lesson07"', self.page)

    def test_roofline_places_lesson03_and_lists_memory_bound_apart(self):
        start = self.page.index('id="roofline"')
        section = self.page[start:self.page.index("<footer")]
        svgs = svgs_of(section)
        self.assertEqual(len(svgs), 2, "the roofline and the memory-bound strip")
        roof, strip = svgs
        self.assertIn("Roofline of", roof)
        self.assertIn("03.1 6009", roof)
        self.assertIn("03.2 6010", roof)
        self.assertIn("intensity not recorded", roof)
        self.assertIn("not the bytes", section)  # says why, instead of guessing an intensity
        self.assertIn("1.278e+11", section)  # the flops of a call: 6009.21 GFLOP/s x 21.266 ms
        self.assertNotIn("01.1", roof)
        self.assertIn("Memory-bound: % of copy", strip)
        for name in ("01.1 matrix mapping", "01.2 AoS vs SoA", "06.1 step 1 interleaved divergent"):
            self.assertIn(name, strip)
        self.assertNotIn("03.1", strip)
        self.assertIn("87 % (3698 GB/s)", strip)  # 3697.72 / 4240.38

    def test_teaching_tables_in_the_graders_order(self):
        svgs = [s for s in svgs_of(self.page) if "reduction table" in s]
        self.assertEqual(len(svgs), 1)
        rows = re.findall(r">(your step \d+[^<]*|block-sum ceiling|CUB)</text>", svgs[0])
        self.assertEqual(rows, ["your step 1 (best: 128)", "your step 2 (best: 256)", "your step 10", "block-sum ceiling",
                                "CUB"])
        lesson01 = [s for s in svgs_of(self.page) if "01.0 coalescing" in s][0]
        order = re.findall(r">(offset \d+|stride \d+)</text>", lesson01)
        self.assertEqual(order[:8], ["offset 0", "offset 1", "offset 2", "offset 4", "offset 8", "offset 16",
                                     "offset 32", "stride 1"])
        lesson03 = [s for s in svgs_of(self.page) if "03.0 stage table" in s][0]
        self.assertLess(lesson03.index("cuBLAS SGEMM, A B"), lesson03.index("naive"))
        self.assertLess(lesson03.index("your sgemm_coalesced (03.1)"), lesson03.index("mystery_gflops"))

    def test_tables_of_a_new_lesson_chart_as_recorded(self):
        svgs = [s for s in svgs_of(self.page) if "09.0 new table" in s]
        self.assertEqual(len(svgs), 2, "a chart per table with rows; the table without rows is left out")
        speed, relative = svgs
        rows = re.findall(r">(zeta kernel[^<]*|your kernel \(09.1\)|alpha kernel|group one|yours)</text>", speed)
        self.assertEqual(rows, ["group one", "zeta kernel (best: 64)", "yours", "your kernel (09.1)", "alpha kernel"])
        self.assertIn('fill="#ef6c00">your kernel (09.1)</text>', speed)  # the student's row, marked
        self.assertIn('fill="#212121">alpha kernel</text>', speed)
        self.assertIn("Copies on this GPU, three ways</text>", speed)  # the caption, on one line
        self.assertIn("copy 3000 GB/s", speed)  # the reference line of a GB/s table
        self.assertNotIn("not_a_row", speed)  # a figure of the exercise that is no row of a table
        self.assertEqual(re.findall(r">(pattern \w)</text>", relative), ["pattern b", "pattern a"])
        self.assertIn("time ÷ time of a, lower is faster", relative)
        self.assertIn("1 = as fast as the reference row", relative)
        self.assertNotIn("a heading alone", self.page)

    def test_offline_and_well_formed(self):
        self.assertNotIn("<script", self.page.lower())
        self.assertNotIn("http", self.page)
        self.assertNotRegex(self.page, r"<link\b|<img\b|@import|url\(")
        for svg in svgs_of(self.page):
            ET.fromstring(svg)  # each chart is well-formed XML

    def test_footer(self):
        footer = self.page[self.page.index("<footer"):]
        self.assertIn("lesson01.json", footer)
        self.assertIn("lessons/03-x/theory.md", footer)
        self.assertIn("ninja -C build docs", footer)


def timeline_table(pipeline, caption, spans, note="", student=False):
    """One timeline entry of an exercise's "tables" as lesson 07's grader writes it
    (lessons/07-streams/grader/timeline.cpp, table_json): spans are (lane, stream, start_ms, end_ms)."""
    rows = [{"key": "", "label": lane, "student": student, "stream": stream, "start_ns": int(a * 1e6),
             "end_ns": int(b * 1e6), "bytes": 0 if lane == "work" else 4096, "name": "k" if lane == "work" else ""}
            for lane, stream, a, b in spans]
    return {"caption": caption, "kind": "timeline", "pipeline": pipeline, "unit": "ns", "relative": False,
            "end_ns": max([int(b * 1e6) for _, _, _, b in spans] + [0]), "note": note,
            "columns": ["what", "stream", "start_ns", "end_ns", "bytes", "name"], "rows": rows}


SERIAL_SPANS = [("copy in", 7, 0, 4), ("work", 7, 4, 8), ("copy out", 7, 8, 12)]
# Eight chunks over four streams, each stage 1 ms: the lanes overlap.
BEST_SPANS = [(lane, c % 4, c + k, c + k + 1) for c in range(8) for k, lane in enumerate(("copy in", "work", "copy out"))]


class ReportTimeline(unittest.TestCase):
    """07.1's timelines (docs/results_schema.md, "Timelines"): lanes in an SVG chart and as text."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.build = pathlib.Path(cls.tmp.name) / "build"
        slow = exercise("07.1 pipeline", "FAIL", "slow", figure=20, threshold=30, ceiling=40, median_ms=12.5,
                        message="too slow")
        slow["tables"] = [timeline_table("yours", "timeline of your run_pipeline", SERIAL_SPANS, student=True),
                          timeline_table("serial", "timeline of the serial pipeline", SERIAL_SPANS),
                          timeline_table("best", "timeline of the grader's pipeline", BEST_SPANS)]
        write(cls.build / "results", "lesson07.json", document("lesson07", "07", "Streams", [slow], exit_code=1))
        untraced = exercise("07.1 pipeline", figure=40, threshold=30, ceiling=40)
        untraced["tables"] = [timeline_table(p, f"timeline of {p}", [], note="CUPTI not found at build time")
                              for p in ("yours", "serial", "best")]
        write(cls.build / "results", "lesson17.json", document("lesson17", "17", "Streams again", [untraced]))
        cls.rc, cls.stdout, cls.stderr = run_report([cls.build])
        cls.page = (cls.build / "report.html").read_text()

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_read_from_the_tables(self):
        doc = json.loads((self.build / "results" / "lesson07.json").read_text())
        tls = report.timelines(doc["exercises"][0])
        self.assertEqual([t["pipeline"] for t in tls], ["yours", "serial", "best"])
        self.assertEqual([t["student"] for t in tls], [True, False, False])
        self.assertEqual(len(tls[2]["records"]), 24)
        self.assertEqual(report.timeline_end(tls[2]), 10e6)

    def test_text_lanes(self):
        serial = {"records": [{"what": lane, "start_ns": a * 1e6, "end_ns": b * 1e6} for lane, _, a, b in SERIAL_SPANS]}
        # The same picture as the grader prints for these records (timeline.cpp, lanes).
        self.assertEqual(report.text_lanes(serial, 32, 12e6), ["#" * 11 + "." * 21, "." * 10 + "#" * 12 + "." * 10,
                                                               "." * 21 + "#" * 11])
        best = {"records": [{"what": lane, "start_ns": a * 1e6, "end_ns": b * 1e6} for lane, _, a, b in BEST_SPANS]}
        lanes = report.text_lanes(best, 12, 12e6)
        # Busy from 1 to 9 ms, idle from 9 to 10 (the last copy out), blank past the end at 10 ms.
        self.assertEqual(lanes[1], "." + "#" * 8 + "." + "  ")
        self.assertTrue(all(len(x) == 12 for x in lanes))

    def test_chart_and_text_on_the_page(self):
        self.assertEqual(self.rc, 0, self.stderr)
        self.assertIn("07.1 pipeline: the timeline of one call", self.page)
        charts = [c for c in svgs_of(self.page) if "the timeline of one call" in c]
        self.assertEqual(len(charts), 1)
        ET.fromstring(charts[0])
        for caption in ("timeline of your run_pipeline", "timeline of the serial pipeline",
                        "timeline of the grader&#x27;s pipeline"):
            self.assertIn(caption, charts[0])
        self.assertEqual(charts[0].count('fill="#ef6c00" rx="0" stroke="#ffffff"'), 1 + 1 + 8)  # work bars
        pre = re.search(r"<pre>(.*?)</pre>", self.page, re.S).group(1)
        self.assertIn("  work     |", pre)
        self.assertEqual(pre.count("copy in  |"), 3)

    def test_not_recorded_says_why(self):
        self.assertIn("07.1 pipeline: no timeline was recorded (CUPTI not found at build time)", self.page)


class ReportEdges(unittest.TestCase):
    def test_missing_or_empty_folder(self):
        with tempfile.TemporaryDirectory() as tmp:
            rc, out, err = run_report([pathlib.Path(tmp) / "nowhere"])
            self.assertEqual(rc, 1)
            self.assertIn("no results files", err)
            (pathlib.Path(tmp) / "results").mkdir()
            rc, out, err = run_report([tmp])
            self.assertEqual(rc, 1)
            self.assertIn("no results files", err)
            self.assertFalse((pathlib.Path(tmp) / "report.html").exists())

    def test_only_unreadable_files(self):
        with tempfile.TemporaryDirectory() as tmp:
            write(pathlib.Path(tmp) / "results", "lesson01.json", document("lesson01", "01", "x", [], version=2))
            rc, out, err = run_report([tmp, "--out", pathlib.Path(tmp) / "page.html"])
            self.assertEqual(rc, 1)
            page = (pathlib.Path(tmp) / "page.html").read_text()
            self.assertIn("schema_version 2", page)

    def test_sanitizer_file_used_when_nothing_else(self):
        with tempfile.TemporaryDirectory() as tmp:
            doc = document("lesson01", "01", "Memory coalescing",
                           [exercise("01.1 matrix mapping", message="correct; speed not graded under compute-sanitizer")],
                           sanitizer="racecheck", ceilings={})
            write(pathlib.Path(tmp) / "results", "lesson01.racecheck.json", doc)
            rc, out, err = run_report([tmp])
            self.assertEqual(rc, 0, err)
            page = (pathlib.Path(tmp) / "report.html").read_text()
            self.assertIn("compute-sanitizer (racecheck)", page)
            self.assertIn("01.1 matrix mapping", page)

    def test_headings_read_alike_and_no_link_to_a_roofline_not_drawn(self):
        # Lesson 01 stopped before its program named the lesson (the memcheck setup without
        # compute-sanitizer): no lesson, no title. Without a GPU no run measured the ceilings.
        stopped = document("lesson01", "", "", [], status="skipped", gpu=None, ceilings={}, sanitizer="memcheck",
                           status_message="--setup=memcheck needs compute-sanitizer, not found", exit_code=77)
        with tempfile.TemporaryDirectory() as tmp:
            write(pathlib.Path(tmp) / "results", "lesson01.memcheck.json", stopped)
            write(pathlib.Path(tmp) / "results", "lesson02.json", SKIPPED)
            rc, out, err = run_report([tmp])
            self.assertEqual(rc, 0, err)
            page = (pathlib.Path(tmp) / "report.html").read_text()
        headings = re.findall(r'<h2 id="lesson0\d">([^<]*)<small', page)
        self.assertEqual(headings, [f"Lesson 01: {report.course_title('01')} ", "Lesson 02: Bank conflicts "])
        self.assertTrue(report.course_title("01"))  # lessons/01-coalescing/theory.md's heading
        self.assertNotIn('id="roofline"', page)
        self.assertNotIn('href="#roofline"', page)

    def test_roofline_point_where_bytes_are_known(self):
        doc = document("lesson04", "04", "x", [exercise("04.1 conv", figure=20000, threshold=10000, ceiling=50000,
                                                         unit="GFLOP/s", median_ms=2.0,
                                                         extra_figures={"bytes": 4e8})])
        data = report.roofline_data([doc])
        self.assertEqual(len(data["placed"]), 1)
        self.assertAlmostEqual(data["placed"][0]["intensity"], 20000 * 2.0 * 1e6 / 4e8)
        self.assertEqual(data["unplaced"], [])
        self.assertEqual(data["notes"], [])
        svg = report.roofline_chart(data, "t")
        ET.fromstring(svg)
        self.assertNotIn("intensity not recorded", svg)

    def test_rows_of_a_file_without_tables(self):
        keys = ["s_16_1", "d_1_1", "s_0_1", "new_key", "s_1_1", "s_1_2", "s_2_1"]
        got = [k for k, _ in results_files.untabled_rows("02", keys)]
        self.assertEqual(got, ["s_0_1", "s_1_2", "s_1_1", "s_2_1", "s_16_1", "d_1_1", "new_key"])
        self.assertEqual(results_files.untabled_rows("99", ["b", "a"]), [("b", "b"), ("a", "a")])
        tables = results_files.teaching_tables("06", LESSON06["exercises"][0])
        self.assertEqual([t["unit"] for t in tables], ["GB/s"])
        self.assertEqual([r["key"] for r in tables[0]["rows"]][:3],
                         ["step1_best_gbs", "step2_best_gbs", "step10_best_gbs"])
        self.assertTrue(tables[0]["rows"][0]["student"])

    def test_recorded_tables_win_over_the_lesson(self):
        tables = results_files.teaching_tables("06", NEW_LESSON_TABLE)  # "06" is not read: the file has tables
        self.assertEqual([t["caption"] for t in tables], ["Copies on this GPU, three ways:", "Patterns",
                                                          "A table that never got a row"])
        self.assertEqual([r["key"] for r in tables[0]["rows"]], ["", "zeta_gbs", "", "mine_gbs", "alpha_gbs"])
        self.assertEqual([r["student"] for r in tables[0]["rows"]], [False, False, False, True, False])
        self.assertEqual(results_files.teaching_tables("09", dict(NEW_LESSON_TABLE, tables=[])), [])


class MeasuredPages(unittest.TestCase):
    def test_page_and_charts_from_docs_measured(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = pathlib.Path(tmp) / "measured"
            out.mkdir()
            (out / "measured_stale.svg").write_text("<svg/>")
            stamp, dep = pathlib.Path(tmp) / "measured.stamp", pathlib.Path(tmp) / "measured.d"
            with contextlib.redirect_stdout(io.StringIO()):
                rc = measured_pages.main([str(MEASURED), str(out), "--stamp", str(stamp), "--depfile", str(dep)])
            self.assertEqual(rc, 0)
            page = (out / "measured.md").read_text()
            self.assertTrue(page.startswith("# Measured on the project's GPUs {#measured}\n"))
            written = {p.name for p in out.glob("*.svg")}
            self.assertNotIn("measured_stale.svg", written)
            images = re.findall(r'^\\image html (\S+) "[^"]*"$', page, re.M)
            self.assertEqual(len(images), page.count("\\image html"), "every image line has the form Doxygen reads")
            self.assertTrue(images)
            self.assertEqual(set(images), written, "every image named is written, and every SVG written is named")
            for name in written:
                root = ET.fromstring((out / name).read_text())
                self.assertEqual(root.tag, "{http://www.w3.org/2000/svg}svg")
            for gpu in measured_pages.gpu_folders(MEASURED):
                for run in ("reference", "starter"):
                    for f in (gpu / run).glob("*.json"):
                        doc = json.loads(f.read_text())
                        self.assertIn(doc["seed"], page)
                        self.assertIn(doc["timestamp"], page)
                        self.assertIn(str(f.resolve()), dep.read_text())
            self.assertIn("NVIDIA H200", page)
            self.assertIn("74641fb-dirty", page)
            self.assertNotRegex(page, r"`[^`\n]*'[^`\n]*`", "no single quote inside inline code (Doxygen garbles it)")
            self.assertTrue(stamp.is_file())

    def test_starter_as_second_bar(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = pathlib.Path(tmp)
            with contextlib.redirect_stdout(io.StringIO()):
                measured_pages.main([str(MEASURED), str(out)])
            svg = (out / "measured_nvidia-h200_lesson01_exercises.svg").read_text()
            self.assertIn("starter 1693", svg)
            self.assertIn("starter: no figure, FAIL (wrong)", svg)
            self.assertIn("3698 GB/s  PASS", svg)

    def test_no_folders(self):
        with tempfile.TemporaryDirectory() as tmp:
            text, svgs, _ = measured_pages.build(pathlib.Path(tmp))
            self.assertIn("{#measured}", text)
            self.assertEqual(svgs, {})


if __name__ == "__main__":
    unittest.main()
