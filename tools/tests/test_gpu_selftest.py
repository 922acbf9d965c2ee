# SPDX-License-Identifier: MIT
"""Tests of tools/gpu_selftest.py without a GPU: synthetic results folders (schema v1) and Meson
test logs go in, the self-test's rows, margin checks, flips and problems come out.

Run from the repository root: python3 -m unittest discover -s tools/tests -t .
"""
import contextlib
import importlib.util
import io
import json
import pathlib
import re
import sys
import tempfile
import unittest

ROOT = pathlib.Path(__file__).resolve().parents[2]


def load_selftest():
    """The self-test script as a module (it is a script in tools/, not an installed package)."""
    spec = importlib.util.spec_from_file_location("gpu_selftest", ROOT / "tools" / "gpu_selftest.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


gps = load_selftest()


def exercise(name, verdict="PASS", reason="none", figure=None, threshold=None, note="", vendor=None, unit="GB/s"):
    """One entry of a results file's "exercises", as the grader writes it."""
    figures, labels = {}, {}
    if figure is not None:
        figures.update(figure=figure, median_ms=1.0, runs=21)
        labels["unit"] = unit
    if threshold is not None:
        figures.update(threshold=threshold, ceiling=2 * threshold, fraction_of_ceiling=(figure or 0) / (2 * threshold))
    if vendor is not None:
        figures["vendor_figure"] = vendor
    return {"exercise": name, "verdict": verdict, "reason": reason, "message": f"{verdict} {reason}", "hint": "",
            "theory": "", "note": note, "perf_graded": threshold is not None, "fraction": 0.5,
            "figures": figures, "labels": labels}


def results_doc(test, exercises, **fields):
    """A whole results file of schema v1; `fields` override the defaults."""
    doc = {"schema": "cuda-lessons-results", "schema_version": 1, "test": test, "lesson": "01",
           "title": "Memory coalescing", "theory": "lessons/01-coalescing/theory.md", "submission": "/x/solutions",
           "grader_revision": "v0-test", "timestamp": "2026-11-22T01:02:03Z", "seed": "123", "threshold_scale": 1,
           "sanitizer": "", "filters": [], "expect_reject": [], "status": "graded", "status_message": "",
           "gpu": {"name": "NVIDIA H200", "arch": "sm_90", "sms": 132, "l2_bytes": 62914560, "memory_bytes": 1 << 37},
           "ceilings": {"copy_gbs": 4211, "dram_gbs": 4814, "fma_gflops": 59828}, "exercises": exercises,
           "summary": {}, "exit_code": 0, "wall_s": 6.6}
    doc.update(fields)
    return doc


def bad_doc(name, exercise_name=None, filters=("-tc=01.1*",)):
    """A known-bad test's results file: the one exercise it ran (if any) and its filter."""
    ran = [exercise(exercise_name, "FAIL", "fault")] if exercise_name else []
    return results_doc("lesson01-" + name, ran, filters=list(filters), expect_reject=["fault"])


def good_doc(name, exercise_name="01.1 mapping", verdict="PASS", reason="none", filters=("-tc=01.1*",)):
    """A known-good test's results file (lesson01-good-NAME): the one exercise it ran, if any."""
    ran = [exercise(exercise_name, verdict, reason, figure=1400, threshold=1000)] if exercise_name else []
    return results_doc("lesson01-good-" + name, ran, filters=list(filters))


def write_folder(folder, docs, tests):
    """An archived run as the self-test keeps it: results/<test>.json and Meson's testlog.json.
    tests: {test name: result} or {test name: (result, duration)}."""
    (folder / "results").mkdir(parents=True)
    for doc in docs:
        (folder / "results" / f"{doc['test']}.json").write_text(json.dumps(doc))
    lines = []
    for name, value in tests.items():
        result, duration = value if isinstance(value, tuple) else (value, 1.0)
        lines.append(json.dumps({"name": f"cuda-lessons:lessons+01-coalescing / {name}", "result": result,
                                 "returncode": 0 if result == "OK" else 1, "duration": duration}))
    (folder / "testlog.json").write_text("\n".join(lines) + "\n")


TEACHING = exercise("01.0 access patterns", "INFO")


class Scenario(unittest.TestCase):
    """Each test writes one or more repetitions of lesson01 into a temporary folder."""

    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.dir = pathlib.Path(tmp.name)

    def rep(self, k, ref, starter, bad=(), duration=6.6, good=(), **fields):
        """Repetition k: the references' exercises, the starters', known-bad and known-good
        (doc, Meson result) pairs; `fields` override the references' results file's."""
        ref_dir, sta_dir = self.dir / "ref" / f"rep{k}", self.dir / "sta" / f"rep{k}"
        variants = [*bad, *good]
        tests = {"lesson01": ("OK", duration), "grader": "OK", **{doc["test"]: result for doc, result in variants}}
        write_folder(ref_dir, [results_doc("lesson01", [TEACHING] + ref, **fields)] + [doc for doc, _ in variants], tests)
        write_folder(sta_dir, [results_doc("lesson01", [TEACHING] + starter, submission="/x/starter")],
                     {"lesson01": "FAIL"})
        return gps.load_run(ref_dir, sta_dir)

    def partition(self, sms):
        """The results file's "gpu" of an H200 confined to `sms` of its 132 SMs (--sms)."""
        return {"name": "NVIDIA H200", "arch": "sm_90", "sms": sms, "sms_total": 132, "l2_bytes": 62914560,
                "memory_bytes": 1 << 37}

    def row(self, report, prefix):
        """The report's row of exercise `prefix` ("01.1")."""
        return next(r for r in report["rows"] if r["number"] == prefix)


class Margins(Scenario):
    def test_passing_reference_and_failing_starter_hold(self):
        report = gps.evaluate([self.rep(1, [exercise("01.1 mapping", figure=1500, threshold=1000, vendor=1600)],
                                        [exercise("01.1 mapping", "FAIL", "slow", figure=500, threshold=1000)])])
        self.assertEqual(report["problems"], [])
        reps = self.row(report, "01.1")["reps"][0]
        self.assertAlmostEqual(reps["ref_thr"], 1.5)
        self.assertAlmostEqual(reps["thr_starter"], 2.0)
        self.assertAlmostEqual(reps["pct_vendor"], 1500 / 1600 * 100)
        self.assertTrue(self.row(report, "01.0")["teaching"])
        text = gps.render_markdown(report)
        self.assertIn("| ref/thr", text)
        self.assertIn("thr/starter", text)
        self.assertIn("figures in GB/s: 01.1", text)
        self.assertTrue(text.endswith("all promises hold"))
        json.dumps(report)  # the report is what selftest.json holds: it must serialize as it is

    def test_reference_below_margin_is_a_problem(self):
        report = gps.evaluate([self.rep(1, [exercise("01.1 mapping", figure=1050, threshold=1000)],
                                        [exercise("01.1 mapping", "FAIL", "slow", figure=500, threshold=1000)])])
        self.assertEqual(report["problems"], ["01.1 mapping: reference only 1.05 x its threshold (need >= 1.10)"])
        self.assertIn("PROBLEMS:", gps.render_markdown(report))

    def test_thin_memory_bound_margin_in_a_dram_rich_partition_is_a_note(self):
        ref = [exercise("01.1 mapping", figure=1050, threshold=1000)]
        sta = [exercise("01.1 mapping", "FAIL", "slow", figure=500, threshold=1000)]
        report = gps.evaluate([self.rep(1, ref, sta, gpu=self.partition(16))])  # 4814 / 16 = 301 GB/s per SM
        self.assertEqual(report["problems"], [])
        self.assertEqual(report["notes"], ["01.1 mapping: reference only 1.05 x its threshold (below 1.10; allowed: "
                                           "emulation, 301 GB/s of DRAM per SM, more than any real GPU's 54)"])

    def test_thin_margin_stays_a_problem_where_the_partition_is_like_a_real_gpu(self):
        ref = [exercise("01.1 mapping", figure=1050, threshold=1000)]
        sta = [exercise("01.1 mapping", "FAIL", "slow", figure=500, threshold=1000)]
        report = gps.evaluate([self.rep(1, ref, sta, gpu=self.partition(100))])  # 48 GB/s per SM
        self.assertEqual(len(report["problems"]), 1)

    def test_thin_compute_bound_margin_stays_a_problem_in_any_partition(self):
        ref = [exercise("01.1 mapping", figure=1050, threshold=1000, unit="GFLOP/s")]
        sta = [exercise("01.1 mapping", "FAIL", "slow", figure=500, threshold=1000, unit="GFLOP/s")]
        report = gps.evaluate([self.rep(1, ref, sta, gpu=self.partition(16))])
        self.assertEqual(report["problems"], ["01.1 mapping: reference only 1.05 x its threshold (need >= 1.10)"])

    def roofline_exercise(self, flops_per_byte, figure, threshold, verdict="PASS", reason="none"):
        """A convolution-like exercise graded on 16 SMs against its roofline's FMA side (16 SMs of
        an H200: copy 1552 GB/s, FMA peak 7250 GFLOP/s) with `flops_per_byte` FLOP per byte moved."""
        e = exercise("01.1 mapping", verdict, reason, figure=figure, threshold=threshold, unit="GFLOP/s")
        e["figures"].update(bytes=1e9, flops=flops_per_byte * 1e9)
        e["labels"]["ceiling"] = "FP32 FMA peak 7250 GFLOP/s"
        return e

    def test_thin_margin_on_a_roofline_held_to_its_fma_side_by_the_partition_is_a_note(self):
        # 10 FLOP per byte: FMA-bound at 1552 GB/s of copy, memory-bound at the 279 GB/s that
        # 54 GB/s of DRAM per SM would give 16 SMs (16 × 54 / 4814 of the copy).
        ref = [self.roofline_exercise(10, 1050, 1000)]
        sta = [self.roofline_exercise(10, 500, 1000, "FAIL", "slow")]
        ceilings = {"copy_gbs": 1552, "dram_gbs": 4814, "fma_gflops": 7250}
        report = gps.evaluate([self.rep(1, ref, sta, gpu=self.partition(16), ceilings=ceilings)])
        self.assertEqual(report["problems"], [])
        self.assertEqual(report["notes"], ["01.1 mapping: reference only 1.05 x its threshold (below 1.10; allowed: "
                                           "emulation, 301 GB/s of DRAM per SM, more than any real GPU's 54)"])

    def test_thin_margin_on_a_roofline_compute_bound_at_any_balance_stays_a_problem(self):
        # 100 FLOP per byte: FMA-bound even at the richest real balance (N-body's kind of work).
        ref = [self.roofline_exercise(100, 1050, 1000)]
        sta = [self.roofline_exercise(100, 500, 1000, "FAIL", "slow")]
        ceilings = {"copy_gbs": 1552, "dram_gbs": 4814, "fma_gflops": 7250}
        report = gps.evaluate([self.rep(1, ref, sta, gpu=self.partition(16), ceilings=ceilings)])
        self.assertEqual(report["problems"], ["01.1 mapping: reference only 1.05 x its threshold (need >= 1.10)"])
        # The same exercise on the whole GPU: no partition, no allowance.
        whole = [self.roofline_exercise(10, 1050, 1000)]
        report = gps.evaluate([self.rep(2, whole, sta, ceilings=ceilings)])
        self.assertEqual(len(report["problems"]), 1)

    def test_a_failing_reference_stays_a_problem_in_any_partition(self):
        ref = [exercise("01.1 mapping", "FAIL", "slow", figure=950, threshold=1000)]
        sta = [exercise("01.1 mapping", "FAIL", "slow", figure=500, threshold=1000)]
        report = gps.evaluate([self.rep(1, ref, sta, gpu=self.partition(16))])
        self.assertIn("01.1 mapping: reference FAIL [slow]", report["problems"][0])

    def test_reference_exactly_at_margin_holds(self):
        report = gps.evaluate([self.rep(1, [exercise("01.1 mapping", figure=1100, threshold=1000)],
                                        [exercise("01.1 mapping", "FAIL", "slow", figure=900, threshold=990)])])
        self.assertEqual(report["problems"], [])

    def test_starter_within_margin_of_threshold_is_a_problem(self):
        report = gps.evaluate([self.rep(1, [exercise("01.1 mapping", figure=1500, threshold=1000)],
                                        [exercise("01.1 mapping", "FAIL", "slow", figure=950, threshold=1000)])])
        self.assertEqual(report["problems"], ["01.1 mapping: threshold only 1.05 x the starter's figure (need >= 1.10)"])

    def test_starter_that_passes_is_a_problem(self):
        report = gps.evaluate([self.rep(1, [exercise("01.1 mapping", figure=1500, threshold=1000)],
                                        [exercise("01.1 mapping", figure=1200, threshold=1000)])])
        self.assertEqual(report["problems"], ["01.1 mapping: starter PASS — it must fail"])

    def test_starter_failing_for_another_reason_has_no_starter_margin(self):
        report = gps.evaluate([self.rep(1, [exercise("01.1 mapping", figure=1500, threshold=1000)],
                                        [exercise("01.1 mapping", "FAIL", "wrong")])])
        self.assertEqual(report["problems"], [])

    def test_overlap_note_exempts_the_starter_side(self):
        ref = [exercise("06.6 step 6", figure=1500, threshold=1000, note="the threshold overlaps the previous step")]
        passing = gps.evaluate([self.rep(1, ref, [exercise("06.6 step 6", figure=1020, threshold=1000)])])
        self.assertEqual(passing["problems"], [])
        self.assertEqual(len(passing["notes"]), 1)
        self.assertIn("06.6 step 6: starter PASS (allowed: the threshold overlaps", passing["notes"][0])
        close = gps.evaluate([self.rep(2, ref, [exercise("06.6 step 6", "FAIL", "slow", figure=980, threshold=1000)])])
        self.assertEqual(close["problems"], [])
        self.assertEqual(close["notes"], [])

    def test_overlap_note_keeps_the_reference_side(self):
        report = gps.evaluate([self.rep(1, [exercise("06.6 step 6", figure=1050, threshold=1000, note="overlap")],
                                        [exercise("06.6 step 6", figure=1020, threshold=1000)])])
        self.assertEqual(report["problems"], ["06.6 step 6: reference only 1.05 x its threshold (need >= 1.10)"])
        self.assertEqual(len(report["notes"]), 1)
        self.assertIn("starter PASS (allowed: overlap", report["notes"][0])


class Repetitions(Scenario):
    def test_flipped_reference_verdict_is_reported(self):
        runs = [self.rep(1, [exercise("01.1 mapping", figure=1500, threshold=1000)],
                         [exercise("01.1 mapping", "FAIL", "slow", figure=500, threshold=1000)], duration=6.6),
                self.rep(2, [exercise("01.1 mapping", "FAIL", "slow", figure=900, threshold=1000)],
                         [exercise("01.1 mapping", "FAIL", "wrong")], duration=7.04)]
        report = gps.evaluate(runs)
        flips = {(f["kind"], f["name"]): f["values"] for f in report["flips"]}
        self.assertEqual(flips[("reference", "01.1 mapping")], ["PASS", "FAIL [slow]"])
        self.assertEqual(flips[("starter", "01.1 mapping")], ["FAIL [slow]", "FAIL [wrong]"])
        self.assertIn("01.1 mapping: reference flips: rep1 PASS, rep2 FAIL [slow]", report["problems"])
        self.assertIn("01.1 mapping: starter flips: rep1 FAIL [slow], rep2 FAIL [wrong]", report["problems"])
        self.assertIn("01.1 mapping: reference FAIL [slow] FAIL slow (repetition 2 of 2)", report["problems"])
        self.assertEqual(self.row(report, "01.1")["summary"]["ref_thr"], (0.9, 1.5))
        text = gps.render_markdown(report)
        self.assertIn("0.90..1.50", text)
        self.assertIn("PASS / FAIL [slow]", text)
        self.assertIn("wall time per lesson (references): lesson01 6.6..7.0 s", text)

    def test_steady_repetitions_show_spans_and_no_flip(self):
        runs = [self.rep(k, [exercise("01.1 mapping", figure=fig, threshold=1000)],
                         [exercise("01.1 mapping", "FAIL", "slow", figure=500, threshold=1000)])
                for k, fig in ((1, 1400), (2, 1500), (3, 1450))]
        report = gps.evaluate(runs)
        self.assertEqual(report["flips"], [])
        self.assertEqual(report["problems"], [])
        self.assertIn("| 1.40..1.50 ", gps.render_markdown(report))
        self.assertEqual(report["wall_times"], {"lesson01": [6.6, 6.6, 6.6]})

    def test_known_bad_flip_is_reported(self):
        ref = [exercise("01.1 mapping", figure=1500, threshold=1000)]
        sta = [exercise("01.1 mapping", "FAIL", "wrong")]
        runs = [self.rep(1, ref, sta, bad=[(bad_doc("bad-faults", "01.1 mapping"), "OK")]),
                self.rep(2, ref, sta, bad=[(bad_doc("bad-faults", "01.1 mapping"), "FAIL")])]
        report = gps.evaluate(runs)
        self.assertEqual([f["name"] for f in report["flips"]], ["lesson01-bad-faults"])
        self.assertIn("lesson01-bad-faults: known-bad flips: rep1 OK, rep2 FAIL", report["problems"])
        self.assertIn("faults:OK/FAIL", gps.render_markdown(report))

    def test_overlap_starter_flip_is_a_note(self):
        ref = [exercise("06.6 step 6", figure=1500, threshold=1000, note="overlap")]
        runs = [self.rep(1, ref, [exercise("06.6 step 6", figure=1020, threshold=1000)]),
                self.rep(2, ref, [exercise("06.6 step 6", "FAIL", "slow", figure=990, threshold=1000)])]
        report = gps.evaluate(runs)
        self.assertEqual(report["problems"], [])
        self.assertTrue(report["flips"][0]["exempt"])
        self.assertTrue(any("starter flips" in n for n in report["notes"]))


class KnownBad(Scenario):
    def test_known_bad_tests_map_to_their_exercise(self):
        report = gps.evaluate([self.rep(
            1,
            [exercise("01.1 mapping", figure=1500, threshold=1000), exercise("01.2 particles", figure=1500, threshold=1000)],
            [exercise("01.1 mapping", "FAIL", "wrong"), exercise("01.2 particles", "FAIL", "wrong")],
            bad=[(bad_doc("bad-faults", "01.1 mapping"), "OK"),  # mapped through the exercise it ran
                 (bad_doc("bad-chunked", None, ["-tc=01.2*"]), "FAIL"),  # ran nothing: mapped through its filter
                 (bad_doc("bad-unknown", None, []), "OK")])])  # neither: listed apart
        self.assertEqual(self.row(report, "01.1")["summary"]["known_bad"], {"lesson01-bad-faults": ["OK"]})
        self.assertEqual(self.row(report, "01.2")["summary"]["known_bad"], {"lesson01-bad-chunked": ["FAIL"]})
        self.assertEqual(report["unmapped_known_bad"], ["lesson01-bad-unknown"])
        self.assertEqual(report["problems"], ["lesson01-bad-chunked: known-bad variant not rejected as expected (FAIL, exit 1)"])
        text = gps.render_markdown(report)
        self.assertIn("faults:ok", text)
        self.assertIn("chunked:FAIL", text)

    def test_filter_forms(self):
        self.assertEqual(gps.bad_exercise({"exercises": [], "filters": ["-tc=06.5*"]}), "06.5")
        self.assertEqual(gps.bad_exercise({"exercises": [], "filters": ["-tce=06.1*", "-tc=06.3 step 3*"]}), "06.3")
        self.assertIsNone(gps.bad_exercise({"exercises": [], "filters": []}))
        self.assertIsNone(gps.bad_exercise(None))


class KnownGood(Scenario):
    REF = [exercise("01.1 mapping", figure=1500, threshold=1000), exercise("01.2 particles", figure=1500, threshold=1000)]
    STA = [exercise("01.1 mapping", "FAIL", "wrong"), exercise("01.2 particles", "FAIL", "wrong")]

    def test_passing_known_good_holds(self):
        report = gps.evaluate([self.rep(1, self.REF, self.STA, good=[(good_doc("tiles32"), "OK")],
                                        bad=[(bad_doc("bad-faults", "01.1 mapping"), "OK")])])
        self.assertEqual(report["problems"], [])
        self.assertEqual(self.row(report, "01.1")["summary"]["known_good"], {"lesson01-good-tiles32": ["OK"]})
        self.assertEqual(self.row(report, "01.2")["summary"]["known_good"], {})
        self.assertEqual([r["lesson"] for r in report["rows"]], ["lesson01"] * 3)  # a variant is no lesson of its own
        self.assertEqual(list(report["wall_times"]), ["lesson01"])
        text = gps.render_markdown(report)
        header = next(line for line in text.splitlines() if line.startswith("| exercise"))
        self.assertRegex(header, r"\| known-bad +\| known-good +\|$")
        row = next(line for line in text.splitlines() if line.startswith("| 01.1"))
        self.assertRegex(row, r"\| faults:ok +\| tiles32:ok +\|$")
        self.assertRegex(next(line for line in text.splitlines() if line.startswith("| 01.2")), r"\| — +\| — +\|$")
        json.dumps(report)

    def test_failing_known_good_is_a_problem(self):
        report = gps.evaluate([self.rep(1, self.REF, self.STA,
                                        good=[(good_doc("tiles32", verdict="FAIL", reason="slow"), "FAIL"),
                                              (good_doc("swizzled", "01.2 particles"), "OK")])])
        self.assertEqual(report["problems"],
                         ["lesson01-good-tiles32: known-good variant does not pass (FAIL [slow]; Meson FAIL, exit 1) FAIL slow"])
        self.assertEqual(self.row(report, "01.1")["summary"]["known_good"], {"lesson01-good-tiles32": ["FAIL [slow]"]})
        text = gps.render_markdown(report)
        self.assertIn("| tiles32:FAIL [slow] ", text)
        self.assertIn("| swizzled:ok ", text)
        self.assertIn("PROBLEMS:", text)

    def slow_good(self, message):
        """A known-good results file whose one exercise failed for speed with `message`."""
        doc = good_doc("tiles32", verdict="FAIL", reason="slow")
        doc["exercises"][0]["message"] = message
        return doc

    def test_slow_known_good_on_large_data_in_a_dram_rich_partition_is_a_note(self):
        slow = "too slow: 256 GB/s, needs >= 544 (35 % of copy 1553 GB/s); median of 3 runs"
        report = gps.evaluate([self.rep(1, self.REF, self.STA, good=[(self.slow_good(slow), "FAIL")],
                                        gpu=self.partition(16))])  # 4814 / 16 = 301 GB/s of DRAM per SM
        self.assertEqual(report["problems"], [])
        self.assertEqual(report["notes"], ["lesson01-good-tiles32: known-good variant FAIL [slow] (allowed: emulation, "
                                           "301 GB/s of DRAM per SM, more than any real GPU's 54) " + slow])

    def test_slow_known_good_stays_a_problem_in_the_l2_or_on_a_real_shape(self):
        in_l2 = "too slow, in the L2: 216 GB/s, needs >= 286 (130 % of the grader's 64 × 64 blocks transposed in place)"
        report = gps.evaluate([self.rep(1, self.REF, self.STA, good=[(self.slow_good(in_l2), "FAIL")],
                                        gpu=self.partition(16))])
        self.assertEqual(len(report["problems"]), 1)
        self.assertIn("known-good variant does not pass", report["problems"][0])
        slow = "too slow: 256 GB/s, needs >= 544 (35 % of copy 1553 GB/s)"
        report = gps.evaluate([self.rep(2, self.REF, self.STA, good=[(self.slow_good(slow), "FAIL")],
                                        gpu=self.partition(100))])  # 48 GB/s per SM: a real GPU's shape
        self.assertEqual(len(report["problems"]), 1)
        self.assertIn("known-good variant does not pass", report["problems"][0])

    def test_a_test_that_fails_with_a_passing_verdict_is_a_problem(self):
        report = gps.evaluate([self.rep(1, self.REF, self.STA, good=[(good_doc("tiles32"), "FAIL")])])
        self.assertEqual(report["problems"],
                         ["lesson01-good-tiles32: known-good variant does not pass (Meson FAIL, exit 1)"])

    def test_what_a_known_good_test_came_to(self):
        graded = good_doc("x")
        self.assertEqual(gps.good_status("OK", graded), "OK")
        self.assertEqual(gps.good_status("FAIL", good_doc("x", verdict="FAIL", reason="wrong")), "FAIL [wrong]")
        self.assertEqual(gps.good_status("FAIL", graded), "Meson FAIL")
        self.assertEqual(gps.good_status("TIMEOUT", None), "TIMEOUT")  # no results file
        self.assertEqual(gps.good_status("OK", None), "no results file")
        self.assertEqual(gps.good_status("OK", good_doc("x", None)), "no exercise ran")
        self.assertEqual(gps.good_status("FAIL", results_doc("lesson01-good-x", [], status="missing_files")),
                         "missing_files")
        self.assertEqual(gps.good_status("FAIL", None, "x.json: not readable as JSON"), "unreadable results")

    def test_known_good_flip_is_reported(self):
        runs = [self.rep(1, self.REF, self.STA, good=[(good_doc("tiles32"), "OK")]),
                self.rep(2, self.REF, self.STA, good=[(good_doc("tiles32", verdict="FAIL", reason="slow"), "FAIL")]),
                self.rep(3, self.REF, self.STA, good=[(good_doc("tiles32"), "OK")])]
        report = gps.evaluate(runs)
        self.assertEqual([(f["kind"], f["name"]) for f in report["flips"]], [("known-good", "lesson01-good-tiles32")])
        self.assertIn("lesson01-good-tiles32: known-good flips: rep1 OK, rep2 FAIL [slow], rep3 OK", report["problems"])
        self.assertIn("lesson01-good-tiles32: known-good variant does not pass (FAIL [slow]; Meson FAIL, exit 1) "
                      "FAIL slow (repetition 2 of 3)", report["problems"])
        self.assertIn("| tiles32:OK/FAIL [slow] ", gps.render_markdown(report))

    def test_steady_failure_is_no_flip(self):
        failing = good_doc("tiles32", verdict="FAIL", reason="slow")
        report = gps.evaluate([self.rep(k, self.REF, self.STA, good=[(failing, "FAIL")]) for k in (1, 2)])
        self.assertEqual(report["flips"], [])
        self.assertEqual(len(report["problems"]), 1)
        self.assertIn("(all 2 repetitions)", report["problems"][0])

    def test_known_good_without_an_exercise_in_the_table_is_listed(self):
        elsewhere = good_doc("elsewhere", None, filters=["-tc=01.7*"])  # ran nothing, its filter names no row
        report = gps.evaluate([self.rep(1, self.REF, self.STA, good=[(elsewhere, "FAIL")])])
        self.assertEqual(report["unmapped_known_good"], ["lesson01-good-elsewhere"])
        self.assertIn("known-good tests whose exercise is not in the table: lesson01-good-elsewhere",
                      gps.render_markdown(report))
        self.assertEqual(len(report["problems"]), 1)  # and it does not pass: FAIL, no exercise ran
        self.assertIn("known-good variant does not pass (Meson FAIL", report["problems"][0])


class MechanismChecks(Scenario):
    """A starter that an exercise's mechanism check fails whatever its speed has no margin to keep."""
    REF = [exercise("03.2 tiles", figure=1500, threshold=1000)]
    CLOSE = [exercise("03.2 tiles", "FAIL", "slow", figure=980, threshold=1000)]

    def test_technique_files_are_read_for_their_exercises(self):
        lessons = self.dir / "lessons"
        (lessons / "03-tiling").mkdir(parents=True)
        (lessons / "03-tiling" / "technique.txt").write_text(
            "# [09.9 a comment.cu]\n\n[03.2 2_shared_tiles.cu]\ntheory Tiles\nkernel shared-store tile-loop\n"
            "hint Walk k in [tiles]\n  [03.4 4_abt.cu]  \nkernel barrier\n")
        (lessons / "04-convolution").mkdir()
        (lessons / "04-convolution" / "technique.txt").write_text("[04.1 1_constant_filter.cu]\n[04.9 too many.cu]\n[bad]\n")
        (lessons / "05-histogram").mkdir()  # no technique file: no mechanism check
        (lessons / "technique.txt").write_text("[01.1 not_a_lesson.cu]\n")  # not in a lesson's folder
        self.assertEqual(gps.mechanism_exercises(self.dir), {"03.2", "03.4", "04.1"})
        self.assertEqual(gps.mechanism_exercises(self.dir / "nowhere"), set())

    def test_the_repository_has_mechanism_checks(self):
        found = gps.mechanism_exercises(ROOT)
        self.assertIn("03.2", found)  # lessons/03-tiling/technique.txt
        for number in found:
            self.assertRegex(number, r"^\d\d\.\d+$")

    def test_thin_starter_margin_is_a_note(self):
        runs = [self.rep(1, self.REF, self.CLOSE)]
        strict = gps.evaluate(runs)
        self.assertEqual(strict["problems"], ["03.2 tiles: threshold only 1.02 x the starter's figure (need >= 1.10)"])
        report = gps.evaluate(runs, mechanism={"03.2", "04.1"})
        self.assertEqual(report["problems"], [])
        self.assertEqual(report["notes"], ["03.2 tiles: threshold only 1.02 x the starter's figure (below 1.10; "
                                           "allowed: the mechanism check separates it, failing the starter whatever its speed)"])
        self.assertIn("note: 03.2 tiles: threshold only 1.02", gps.render_markdown(report))
        self.assertEqual(report["mechanism"], ["03.2", "04.1"])
        json.dumps(report)

    def test_other_exercises_keep_the_margin(self):
        report = gps.evaluate([self.rep(1, self.REF, self.CLOSE)], mechanism={"03.3"})
        self.assertEqual(len(report["problems"]), 1)
        self.assertEqual(report["notes"], [])

    def test_the_starter_must_still_fail(self):
        report = gps.evaluate([self.rep(1, self.REF, [exercise("03.2 tiles", figure=1020, threshold=1000)])],
                              mechanism={"03.2"})
        self.assertEqual(report["problems"], ["03.2 tiles: starter PASS — it must fail"])

    def test_reference_margin_is_kept(self):
        report = gps.evaluate([self.rep(1, [exercise("03.2 tiles", figure=1050, threshold=1000)], self.CLOSE)],
                              mechanism={"03.2"})
        self.assertEqual(report["problems"], ["03.2 tiles: reference only 1.05 x its threshold (need >= 1.10)"])

    def test_starter_between_slow_and_technique_is_a_note(self):
        runs = [self.rep(1, self.REF, self.CLOSE),
                self.rep(2, self.REF, [exercise("03.2 tiles", "FAIL", "technique", figure=1010, threshold=1000)])]
        report = gps.evaluate(runs, mechanism={"03.2"})
        self.assertEqual(report["problems"], [])
        self.assertTrue(report["flips"][0]["exempt"])
        self.assertIn("03.2 tiles: starter flips: rep1 FAIL [slow], rep2 FAIL [technique] "
                      "(allowed: the mechanism check fails the starter)", report["notes"])
        self.assertEqual(len(gps.evaluate(runs)["problems"]), 2)  # without the check: the flip and the margin

    def test_starter_that_passes_once_still_flips(self):
        runs = [self.rep(1, self.REF, self.CLOSE),
                self.rep(2, self.REF, [exercise("03.2 tiles", figure=1010, threshold=1000)])]
        report = gps.evaluate(runs, mechanism={"03.2"})
        self.assertFalse(report["flips"][0]["exempt"])
        self.assertIn("03.2 tiles: starter flips: rep1 FAIL [slow], rep2 PASS", report["problems"])
        self.assertIn("03.2 tiles: starter PASS — it must fail (repetition 2 of 2)", report["problems"])


class Building(unittest.TestCase):
    def test_variant_aliases_only_where_the_build_defines_them(self):
        listed = "lesson_programs: phony\nknown_bad_programs: phony\nall: phony\ngrader/grade: cpp_LINKER\n"
        known = gps.parse_ninja_targets(listed)
        self.assertEqual(known, {"lesson_programs", "known_bad_programs", "all", "grader/grade"})
        base = ["all", "grader/grader_unit_tests", "lesson_programs"]
        self.assertEqual(gps.targets(known), base + ["known_bad_programs"])  # no known-good program: no alias
        self.assertEqual(gps.targets(known | {"known_good_programs"}), base + ["known_bad_programs", "known_good_programs"])
        self.assertEqual(gps.targets(None), base + ["known_bad_programs", "known_good_programs"])  # unknown: ask for both
        self.assertEqual(gps.targets(known, variants=False), base)
        self.assertEqual(gps.targets(None, False, unit_tests=False), ["all", "lesson_programs"])  # the starters' build

    def test_no_known_bad_says_it_covers_both_kinds(self):
        with contextlib.redirect_stdout(io.StringIO()) as out, self.assertRaises(SystemExit):
            gps.parse_args(["--help"])
        self.assertRegex(" ".join(out.getvalue().split()), r"--no-known-bad .*known-bad and the known-good variants")

    def test_help_is_written_for_a_user(self):
        # Every option described, the margin given as a number, what it writes, the exit status;
        # nothing of the code's structure (the module docstring's part for maintainers).
        with contextlib.redirect_stdout(io.StringIO()) as out, self.assertRaises(SystemExit):
            gps.parse_args(["--help"])
        text = " ".join(out.getvalue().split())
        for option in ("--lessons", "--repeat", "--memcheck-timeout", "--build-root", "--revision", "--sms",
                       "--save-measured", "--no-gpu-check"):
            self.assertRegex(text, re.escape(option) + r"( [A-Z_]+)? \w", f"{option} has no description")
        self.assertIn(f"at least {gps.MARGIN:.2f} x its threshold", text)
        self.assertNotIn("MARGIN", text)
        self.assertIn("BUILD_ROOT/selftest.json", text)
        self.assertIn(f"{gps.NO_GPU} when no GPU was found", text)
        self.assertNotIn("plain function", text)

    def test_lessons_builds_only_those_lessons(self):
        query = ("known_bad_programs:\n  input: phony\n    | lesson01-bad-faults\n    | lesson06-bad-racy\n"
                 "    | lesson10-bad-x\n  outputs:\n    all\n")
        self.assertEqual(gps.parse_alias_members(query), ["lesson01-bad-faults", "lesson06-bad-racy", "lesson10-bad-x"])
        members = {"lesson_programs": ["lesson01", "lesson06", "lesson10"],
                   "known_bad_programs": gps.parse_alias_members(query), "known_good_programs": ["lesson06-good-y"]}
        known = {"lesson_programs", "known_bad_programs", "all"}  # no known-good alias in this build
        self.assertEqual(gps.targets(known, True, ["lesson01"], members),
                         ["all", "grader/grader_unit_tests", "lesson01", "lesson01-bad-faults"])
        self.assertEqual(gps.targets(None, False, ["lesson01", "lesson10"], members),
                         ["all", "grader/grader_unit_tests", "lesson01", "lesson10"])  # lesson1 is no prefix of lesson10
        self.assertEqual(gps.targets(None, True, ["lesson06"], members),
                         ["all", "grader/grader_unit_tests", "lesson06", "lesson06-bad-racy", "lesson06-good-y"])

    def test_lessons_are_checked_before_anything_is_built(self):
        with tempfile.TemporaryDirectory() as d:
            info = pathlib.Path(d) / "meson-info"
            info.mkdir()
            (info / "intro-tests.json").write_text(json.dumps(
                [{"name": n, "suite": ["cuda-lessons:lessons", "cuda-lessons:" + n]} for n in ("lesson01", "lesson06")]
                + [{"name": "lesson01-bad-faults", "suite": ["cuda-lessons:known-bad"]}]))
            (info / "intro-targets.json").write_text("[]")
            self.assertEqual(gps.choose_lessons("06, lesson01", pathlib.Path(d)), ["lesson06", "lesson01"])
            self.assertEqual(gps.choose_lessons("", pathlib.Path(d)), [])
            with self.assertRaises(SystemExit) as e:
                gps.choose_lessons("01,6", pathlib.Path(d))
            self.assertEqual(str(e.exception), "self-test: --lessons: no lesson 6; the course has lesson01, lesson06")

    def test_without_a_gpu_it_stops_before_building(self):
        saved = gps.gpu_absent
        gps.gpu_absent = lambda: "no nvidia-smi (the NVIDIA driver's tool)"
        try:
            with tempfile.TemporaryDirectory() as d, contextlib.redirect_stderr(io.StringIO()) as err:
                rc = gps.main(["--build-root", str(pathlib.Path(d) / "b")])
                self.assertFalse((pathlib.Path(d) / "b").exists())  # nothing configured, nothing built
        finally:
            gps.gpu_absent = saved
        self.assertEqual(rc, gps.NO_GPU)
        self.assertIn("no NVIDIA GPU found here: no nvidia-smi", err.getvalue())
        self.assertIn("--no-gpu-check", err.getvalue())


class Reading(Scenario):
    def test_other_schema_version_is_reported_not_fatal(self):
        self.rep(1, [exercise("01.1 mapping", figure=1500, threshold=1000)],
                 [exercise("01.1 mapping", "FAIL", "wrong")])
        path = self.dir / "ref" / "rep1" / "results" / "lesson01.json"
        doc = json.loads(path.read_text())
        doc["schema_version"] = 2
        path.write_text(json.dumps(doc))
        report = gps.evaluate([gps.load_run(self.dir / "ref" / "rep1", self.dir / "sta" / "rep1")])
        self.assertEqual(len(report["problems"]), 1, report["problems"])
        self.assertIn("schema_version 2", report["problems"][0])
        self.assertEqual(report["rows"], [])
        self.assertIn("schema_version 2", gps.render_markdown(report))

    def test_unreadable_and_foreign_files_are_reported(self):
        folder = self.dir / "results"
        folder.mkdir()
        (folder / "lesson01.json").write_text("{not json")
        (folder / "lesson02.json").write_text(json.dumps({"schema": "something-else", "schema_version": 1}))
        (folder / "lesson03.json").write_text(json.dumps([1, 2]))
        (folder / "lesson06.json").write_text(json.dumps(results_doc("lesson06", [])))
        read = gps.read_results_dir(folder)
        self.assertEqual(list(read["docs"]), ["lesson06"])
        self.assertEqual(sorted(read["invalid"]), ["lesson01", "lesson02", "lesson03"])

    def test_stand_in_results_are_problems(self):
        ref_dir, sta_dir = self.dir / "ref", self.dir / "sta"
        write_folder(ref_dir, [results_doc("lesson01", [], status="missing_files", status_message="missing in x: a.cu",
                                           gpu=None)], {"lesson01": "FAIL", "grader": "OK"})
        write_folder(sta_dir, [], {})
        report = gps.evaluate([gps.load_run(ref_dir, sta_dir)])
        self.assertEqual(report["problems"], ["lesson01: references missing_files: missing in x: a.cu"])
        self.assertIsNone(report["gpu"])

    def test_nothing_ran_is_a_problem(self):
        ref_dir, sta_dir = self.dir / "ref", self.dir / "sta"
        write_folder(ref_dir, [], {})
        write_folder(sta_dir, [], {})
        report = gps.evaluate([gps.load_run(ref_dir, sta_dir)])
        self.assertEqual(report["problems"], ["no lesson test ran (the build root's selftest.log says why)",
                                              "grader unit tests: not run"])
        self.assertFalse(gps.render_markdown(report).endswith("all promises hold"))

    def test_sanitizer_results_files_belong_to_their_test(self):
        run = self.rep(1, [exercise("01.1 mapping", figure=1500, threshold=1000)], [exercise("01.1 mapping", "FAIL", "wrong")])
        folder = self.dir / "ref" / "rep1" / "results"
        racecheck = bad_doc("bad-unsynced", "01.1 mapping", ["-tc=01.1*"])
        racecheck["sanitizer"] = "racecheck"
        (folder / "lesson01-bad-unsynced.racecheck.json").write_text(json.dumps(racecheck))
        memcheck = results_doc("lesson01", [exercise("01.1 mapping", "FAIL", "fault")], sanitizer="memcheck")
        (folder / "lesson01.memcheck.json").write_text(json.dumps(memcheck))
        read = gps.read_results_dir(folder)
        self.assertEqual(sorted(read["docs"]), ["lesson01", "lesson01-bad-unsynced"])
        self.assertEqual(read["docs"]["lesson01"]["sanitizer"], "")  # the timed run is the one kept
        run["ref"] = read
        run["ref_tests"]["lesson01-bad-unsynced"] = {"result": "OK", "returncode": 0, "duration": 1.0}
        report = gps.evaluate([run])
        self.assertEqual(report["problems"], [])
        self.assertEqual(self.row(report, "01.1")["summary"]["known_bad"], {"lesson01-bad-unsynced": ["OK"]})

    def test_teaching_flag_of_the_results_file(self):
        table = exercise("01.5 a table", "FAIL", "fault")
        table["teaching"] = True
        report = gps.evaluate([self.rep(1, [table], [exercise("01.5 a table", "INFO")])])
        self.assertTrue(self.row(report, "01.5")["teaching"])
        self.assertEqual(report["problems"], ["01.5 a table: teaching table FAIL [fault] FAIL fault"])

    def test_archived_run_reads_back(self):
        """archive() keeps a run where load_run() reads it, including a setup's own test log."""
        build = self.dir / "build"
        write_folder(build, [results_doc("lesson01", [exercise("01.1 mapping", figure=1500, threshold=1000)])], {})
        (build / "meson-logs").mkdir()
        (build / "testlog.json").rename(build / "meson-logs" / "testlog-memcheck.json")
        dest = gps.archive(build, "memcheck", "memcheck")
        self.assertEqual(dest, build / gps.ARCHIVE / "memcheck")
        run = gps.load_run(dest, dest)
        self.assertEqual(list(run["ref"]["docs"]), ["lesson01"])
        gps.clear_outputs(build)
        self.assertFalse((build / "results").exists())
        self.assertEqual(list((build / "meson-logs").glob("testlog*.json")), [])
        self.assertTrue((dest / "results" / "lesson01.json").is_file())

    def test_saved_measured_results_land_per_gpu_and_tree(self):
        """save_measured() copies the lesson results (not known-bad ones) under <gpu>/{reference,starter}/."""
        ref_dir, sta_dir = self.dir / "r", self.dir / "s"
        write_folder(ref_dir, [results_doc("lesson01", [TEACHING]), bad_doc("lesson01-bad-faults")], {})
        write_folder(sta_dir, [results_doc("lesson01", [TEACHING])], {})
        dest = gps.save_measured(ref_dir, sta_dir, "NVIDIA H100 80GB HBM3", self.dir / "measured")
        self.assertEqual(dest, self.dir / "measured" / "nvidia-h100-80gb-hbm3")
        self.assertEqual(sorted(p.name for p in (dest / "reference").iterdir()), ["lesson01.json"])
        self.assertTrue((dest / "starter" / "lesson01.json").is_file())

    def test_saved_measured_results_keep_lessons_not_run(self):
        """A run of some lessons replaces theirs and keeps the other lessons' earlier results."""
        first_ref, first_sta, later = self.dir / "r1", self.dir / "s1", self.dir / "r2"
        write_folder(first_ref, [results_doc("lesson01", [TEACHING]), results_doc("lesson02", [TEACHING])], {})
        write_folder(first_sta, [results_doc("lesson01", [TEACHING]), results_doc("lesson02", [TEACHING])], {})
        gps.save_measured(first_ref, first_sta, "NVIDIA H200", self.dir / "measured")
        write_folder(later, [results_doc("lesson02", [TEACHING])], {})
        before = (self.dir / "measured" / "nvidia-h200" / "reference" / "lesson01.json").read_text()
        dest = gps.save_measured(later, later, "NVIDIA H200", self.dir / "measured")
        for tree in ("reference", "starter"):
            self.assertEqual(sorted(p.name for p in (dest / tree).iterdir()), ["lesson01.json", "lesson02.json"])
        self.assertEqual((dest / "reference" / "lesson01.json").read_text(), before)

    def test_meson_test_names(self):
        self.assertEqual(gps.test_name("cuda-lessons:lessons+01-coalescing / lesson01"), "lesson01")
        self.assertEqual(gps.test_name("lessons - cuda-lessons:lesson01-bad-faults"), "lesson01-bad-faults")
        self.assertEqual(gps.test_name("grader"), "grader")
        self.assertEqual(gps.test_name("known-bad+01-coalescing - cuda-lessons:lesson01-bad-faults"), "lesson01-bad-faults")

    def test_the_test_log_is_read_line_by_line(self):
        with tempfile.TemporaryDirectory() as d:
            log = pathlib.Path(d) / "testlog.json"
            self.assertEqual(gps.read_testlog(log), {})  # the phase did not run
            log.write_text("\n".join([
                json.dumps({"name": "cuda-lessons:lessons+01-coalescing / lesson01", "result": "FAIL",
                            "returncode": 1, "duration": 2.5, "stdout": "FAIL x"}),
                "not JSON", "[1, 2]", json.dumps({"result": "OK"}), "",
                json.dumps({"name": "tools - cuda-lessons:tools", "result": "OK", "returncode": 0})]) + "\n")
            self.assertEqual(gps.read_testlog(log), {
                "lesson01": {"result": "FAIL", "returncode": 1, "duration": 2.5, "stdout": "FAIL x"},
                "tools": {"result": "OK", "returncode": 0, "duration": None, "stdout": ""}})
            self.assertEqual(gps.read_testlog(log, stdout=False)["lesson01"],
                             {"result": "FAIL", "returncode": 1, "duration": 2.5})


class Sweep(Scenario):
    """--sms: one test phase per SM count, one table per count."""

    def group(self, count, ref, starter, gpu):
        """One repetition of lesson01 under an SM count, the results files saying `gpu`."""
        ref_dir, sta_dir = self.dir / "ref" / f"sms-{count}", self.dir / "sta" / f"sms-{count}"
        write_folder(ref_dir, [results_doc("lesson01", [TEACHING] + ref, gpu=gpu)], {"lesson01": "OK", "grader": "OK"})
        write_folder(sta_dir, [results_doc("lesson01", [TEACHING] + starter, gpu=gpu)], {"lesson01": "FAIL"})
        return count, [gps.load_run(ref_dir, sta_dir)]

    def test_sm_counts_are_whole_numbers_or_all_each_once(self):
        self.assertEqual(gps.parse_sms_list("all,16,33,66"), ["all", "16", "33", "66"])
        self.assertEqual(gps.parse_sms_list(" 16 , all,016,16"), ["16", "all"])  # spaces, leading zeros, repeats
        for bad in ["0", "-16", "x", "", "16,,33", "ALL", "16.5"]:
            with self.subTest(bad=bad), self.assertRaises(gps.argparse.ArgumentTypeError):
                gps.parse_sms_list(bad)

    def test_command_line(self):
        self.assertIsNone(gps.parse_args([]).sms)  # no sweep: the tests run as the caller's environment says
        self.assertEqual(gps.parse_args(["--sms", "all,16"]).sms, ["all", "16"])
        with contextlib.redirect_stderr(io.StringIO()) as err, self.assertRaises(SystemExit):
            gps.parse_args(["--sms", "16,zero"])
        self.assertIn("'zero' is not an SM count", err.getvalue())

    def test_each_count_gets_its_environment_and_its_folder(self):
        self.assertEqual(gps.sms_env("16"), {"GRADER_SMS": "16"})
        self.assertEqual(gps.sms_env("all"), {"GRADER_SMS": "all"})  # set, so that the caller's does not leak in
        self.assertEqual(gps.archive_name(None, 2), "rep2")  # no sweep: the folders of before
        self.assertEqual(gps.archive_name("16", 1), "sms-16/rep1")
        log = self.dir / "log"
        with contextlib.redirect_stderr(io.StringIO()) as progress:
            gps.sh([sys.executable, "-c", "import os; print('sms=' + os.environ['GRADER_SMS'])"], log, "a test",
                   env=gps.sms_env("33"))
        self.assertIn("a test: done", progress.getvalue())
        self.assertIn("GRADER_SMS=33 ", log.read_text())  # the log shows the variable on the command's line
        self.assertIn("sms=33", log.read_text())

    def test_one_table_per_count(self):
        whole = self.group("all", [exercise("01.1 mapping", figure=1500, threshold=1000)],
                           [exercise("01.1 mapping", "FAIL", "slow", figure=500, threshold=1000)],
                           {"name": "NVIDIA H100", "arch": "sm_90", "sms": 132, "sms_total": 132})
        small = self.group("16", [exercise("01.1 mapping", figure=400, threshold=300)],
                           [exercise("01.1 mapping", figure=390, threshold=300)],  # the starter passes on 16 SMs
                           {"name": "NVIDIA H100", "arch": "sm_90", "sms": 16, "sms_total": 132})
        memcheck = {"timed_out": False, "tests": {"lesson01": {"result": "OK"}}}
        reports = gps.evaluate_sweep([whole, small], memcheck)
        self.assertEqual([r["sms_count"] for r in reports], ["all", "16"])
        self.assertEqual(reports[0]["problems"], [])
        self.assertEqual(reports[1]["problems"], ["01.1 mapping: starter PASS — it must fail"])
        self.assertEqual((reports[0]["memcheck"], reports[1]["memcheck"]), (memcheck, None))  # it ran under the first count
        self.assertEqual((reports[1]["sms"], reports[1]["sms_total"]), (16, 132))
        self.assertAlmostEqual(self.row(reports[1], "01.1")["reps"][0]["ref_thr"], 400 / 300)  # each table its own figures
        text = gps.render_sweep(reports)
        self.assertEqual(text.count("GPU self-test on NVIDIA H100"), 2)
        self.assertIn("GPU self-test on NVIDIA H100 · all 132 SMs ·", text)
        self.assertIn("GPU self-test on NVIDIA H100 · 16 of 132 SMs (--sms=16) ·", text)
        self.assertEqual(text.count("| exercise"), 2)
        self.assertTrue(text.endswith("SM sweep: all: all promises hold · 16: 1 problem"))
        json.dumps({"sms_sweep": reports})  # what selftest.json holds in a sweep

    def test_a_partial_report_leaves_out_the_counts_not_yet_run(self):
        whole = self.group("all", [exercise("01.1 mapping", figure=1500, threshold=1000)],
                           [exercise("01.1 mapping", "FAIL", "slow", figure=500, threshold=1000)],
                           {"name": "NVIDIA H100", "arch": "sm_90", "sms": 132, "sms_total": 132})
        text, data, reports = gps.report_of([whole, ("16", [])], None, True, (), 0)  # 16 SMs: nothing landed yet
        self.assertEqual([r["sms_count"] for r in reports], ["all"])
        self.assertTrue(text.endswith("SM sweep: all: all promises hold"))
        self.assertEqual(json.loads(data)["sms_sweep"][0]["sms_count"], "all")
        out = self.dir / "out"
        old = gps.os.environ.get("OUT")
        gps.os.environ["OUT"] = str(out)
        try:
            gps.write_report(self.dir, "selftest.partial", "table", data)
        finally:
            gps.os.environ.pop("OUT") if old is None else gps.os.environ.update(OUT=old)
        self.assertEqual((out / "selftest.partial.md").read_text(), "table\n")
        self.assertEqual((out / "selftest.partial.json").read_text(), data)
        self.assertEqual((self.dir / "selftest.partial.json").read_text(), data)

    def test_no_sweep_shows_no_sm_count(self):
        report = gps.evaluate([self.rep(1, [exercise("01.1 mapping", figure=1500, threshold=1000)],
                                        [exercise("01.1 mapping", "FAIL", "slow", figure=500, threshold=1000)])])
        self.assertIn("GPU self-test on NVIDIA H200 · ", gps.render_markdown(report))
        self.assertNotIn("SMs", gps.render_markdown(report).splitlines()[0])
        self.assertEqual((report["sms"], report["sms_total"]), (132, 132))  # older files: no sms_total, sms stands in


class Docs(unittest.TestCase):
    def test_thresholds_doc_states_the_margin(self):
        """docs/thresholds.md, section "Margins", states the margin this script enforces."""
        text = (ROOT / "docs" / "thresholds.md").read_text()
        match = re.search(r"^(#+) Margins\b.*?$(.*?)(?=^#{1,2} |\Z)", text, re.M | re.S)
        self.assertIsNotNone(match, 'docs/thresholds.md has no section "Margins"')
        self.assertIn(f"{gps.MARGIN:.2f}", match.group(2),
                      f'docs/thresholds.md, section "Margins", does not state the margin {gps.MARGIN:.2f} '
                      "that tools/gpu_selftest.py enforces")


if __name__ == "__main__":
    unittest.main()
