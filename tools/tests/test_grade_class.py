# SPDX-License-Identifier: MIT
"""Tests of tools/grade_class.py and tools/class_grading/ without a GPU and without building:
synthetic submissions, records and results files (schema 1) go in; staged copies, verdicts,
the gradebook, JUnit, Gradescope, the report, the Slurm scripts and the merge come out. The
sandbox is tested for real where bubblewrap runs (skipped elsewhere).
tools/tests/run_class_grading.sh grades a generated class with real builds.

Run from the repository root: python3 -m unittest discover -s tools/tests -t .
"""
import contextlib
import csv
import io
import json
import os
import pathlib
import re
import subprocess
import sys
import tarfile
import tempfile
import unittest
import xml.etree.ElementTree as ET
import zipfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import grade_class  # noqa: E402
from class_grading import course, grading, outputs, sandbox, slurm, submissions, verdicts  # noqa: E402

LESSON01 = course.Lesson("lesson01", "01-coalescing", ["matrix_mapping.cu", "particles.cu"])


def exercise(name, verdict="PASS", reason="none", figure=None, threshold=None, teaching=False, message=""):
    """One entry of a results file's "exercises", as the grader writes it."""
    figures = {"figure": figure, "threshold": threshold} if figure is not None else {}
    return {"exercise": name, "verdict": verdict, "reason": reason, "message": message or f"{verdict} {reason}",
            "hint": "make it faster" if reason == "slow" else "", "theory": "", "note": "", "perf_graded": True,
            "teaching": teaching, "fraction": 0.5, "figures": figures, "labels": {"unit": "GB/s"} if figures else {}}


def results(test, exs=(), status="graded", message="", seed="42"):
    return {"schema": "cuda-lessons-results", "schema_version": 1, "test": test, "lesson": test[-2:], "title": "",
            "theory": "", "submission": "/grades/work/alice/submission", "grader_revision": "abc123",
            "timestamp": "2026-11-22T01:02:03Z", "seed": seed, "threshold_scale": 1, "sanitizer": "", "filters": [],
            "expect_reject": [], "status": status, "status_message": message,
            "gpu": {"name": "NVIDIA Test GPU"} if status == "graded" else None, "ceilings": {},
            "exercises": list(exs), "summary": {}, "exit_code": 0, "wall_s": 1.0}


def lesson(test="lesson01", doc=None, kernels=("matrix_mapping.cu", "particles.cu"), unchanged=(), missing=(),
           listed=()):
    return {"test": test, "dir": test, "kernels": list(kernels), "missing": list(missing),
            "unchanged": list(unchanged), "listed": list(listed), "results": doc, "problem": "", "log": "output"}


def record(student, *lessons, finished="2026-11-22T02:00:00Z"):
    return {"format": grading.RECORD_FORMAT, "version": grading.RECORD_VERSION, "student": student,
            "entry": student + ".zip", "sha256": "0", "grader_revision": "abc123", "seed": "42", "sandbox": "bwrap",
            "gpu": "0", "host": "h", "started": "2026-11-22T01:00:00Z", "finished": finished, "build_s": 30.0,
            "test_s": 60.0, "wall_s": 90.0, "problem": "", "complete": True, "notes": [], "lessons": list(lessons)}


TEACHING = exercise("01.0 coalescing on this GPU", "INFO", teaching=True)


def passing(student="alice", r1=1.5, r2=1.2):
    return record(student, lesson(doc=results("lesson01", [
        TEACHING, exercise("01.1 matrix mapping", figure=150 * r1, threshold=150),
        exercise("01.2 AoS vs SoA", figure=100 * r2, threshold=100)])))


class Submissions(unittest.TestCase):
    def setUp(self):
        self.tmp = pathlib.Path(tempfile.mkdtemp())
        self.addCleanup(submissions.remove_tree, self.tmp)

    def test_entries_names_and_left_out(self):
        (self.tmp / "bob").mkdir()
        for name in ("alice smith.zip", "carol.tar.gz", "notes.txt", ".DS_Store"):
            (self.tmp / name).write_bytes(b"")
        entries, left = submissions.find_entries(self.tmp)
        self.assertEqual([(e.name, e.kind) for e in entries],
                         [("alice_smith", "zip"), ("bob", "folder"), ("carol", "tar")])
        self.assertEqual(left, ["notes.txt"])
        (self.tmp / "bob.zip").write_bytes(b"")
        with self.assertRaisesRegex(ValueError, "bob"):
            submissions.find_entries(self.tmp)

    def test_zip_with_an_extra_folder_and_hostile_members(self):
        path = self.tmp / "alice.zip"
        with zipfile.ZipFile(path, "w") as z:
            z.writestr("alice-work/01-coalescing/matrix_mapping.cu", "// mine\n")
            z.writestr("../escaped.cu", "x")
            z.writestr("/etc/absolute.cu", "x")
            z.writestr("__MACOSX/01-coalescing/._matrix_mapping.cu", "x")
            link = zipfile.ZipInfo("alice-work/01-coalescing/particles.cu")
            link.external_attr = 0o120777 << 16  # a symbolic link
            z.writestr(link, "/etc/passwd")
        root, notes = submissions.stage(submissions.Entry("alice", path, "zip"), self.tmp / "copy",
                                        ["01-coalescing"], 1 << 20)
        self.assertEqual(root, self.tmp / "copy" / "alice-work")
        self.assertEqual((root / "01-coalescing" / "matrix_mapping.cu").read_text(), "// mine\n")
        self.assertFalse((root / "01-coalescing" / "particles.cu").exists())
        self.assertFalse((self.tmp / "escaped.cu").exists())
        self.assertEqual(len(notes), 3, notes)
        self.assertFalse((root / "01-coalescing" / "matrix_mapping.cu").stat().st_mode & 0o222, "not read-only")

    def test_tar_and_folder_copies_leave_links_out(self):
        src = self.tmp / "src" / "01-coalescing"
        src.mkdir(parents=True)
        (src / "matrix_mapping.cu").write_text("// mine\n")
        (src / "particles.cu").symlink_to("/etc/hostname")
        with tarfile.open(self.tmp / "bob.tar.gz", "w:gz") as t:
            t.add(self.tmp / "src", arcname="bob")
        for entry, dest in ((submissions.Entry("bob", self.tmp / "bob.tar.gz", "tar"), "t"),
                            (submissions.Entry("bob", self.tmp / "src", "folder"), "f")):
            root, notes = submissions.stage(entry, self.tmp / dest, ["01-coalescing"], 1 << 20)
            self.assertTrue((root / "01-coalescing" / "matrix_mapping.cu").is_file())
            self.assertFalse((root / "01-coalescing" / "particles.cu").exists())
            self.assertTrue(any("particles.cu" in n for n in notes), notes)

    def test_size_limit_and_hash(self):
        path = self.tmp / "big.zip"
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
            z.writestr("01-coalescing/matrix_mapping.cu", "0" * 200000)
        with self.assertRaises(submissions.StagingError):
            submissions.stage(submissions.Entry("big", path, "zip"), self.tmp / "copy", ["01-coalescing"], 1000)
        (self.tmp / "d").mkdir()
        (self.tmp / "d" / "a.cu").write_text("1")
        folder = submissions.Entry("d", self.tmp / "d", "folder")
        first = submissions.entry_hash(folder)
        (self.tmp / "d" / "a.cu").write_text("2")
        self.assertNotEqual(first, submissions.entry_hash(folder))


class Course(unittest.TestCase):
    def test_missing_and_unchanged_files(self):
        with tempfile.TemporaryDirectory() as d:
            d = pathlib.Path(d)
            for who in ("starter", "mine"):
                (d / who / "01-coalescing").mkdir(parents=True)
            (d / "starter" / "01-coalescing" / "matrix_mapping.cu").write_bytes(b"int x;\n// TODO\n")
            (d / "mine" / "01-coalescing" / "matrix_mapping.cu").write_bytes(b"int x;  \r\n// TODO\r\n\r\n")
            self.assertEqual(course.compare_with_starter(d / "mine", d / "starter", LESSON01),
                             (["particles.cu"], ["matrix_mapping.cu"]))
            (d / "mine" / "01-coalescing" / "matrix_mapping.cu").write_bytes(b"int x = 1;\n")
            self.assertEqual(course.compare_with_starter(d / "mine", d / "starter", LESSON01)[1], [])

    def test_a_change_of_the_course_is_seen(self):
        with tempfile.TemporaryDirectory() as d:
            (pathlib.Path(d) / "grader").mkdir()
            (pathlib.Path(d) / "grader" / "a.cpp").write_text("x")
            os.utime(pathlib.Path(d) / "grader" / "a.cpp", (1000, 1000))
            self.assertFalse(course.changed_since(d, 2000))
            self.assertTrue(course.changed_since(d, 500))

    def test_lessons_from_meson_introspection(self):
        with tempfile.TemporaryDirectory() as d:
            info = pathlib.Path(d) / "build" / "meson-info"
            info.mkdir(parents=True)
            starter = pathlib.Path(d) / "starter"
            tests = [{"name": "lesson01", "suite": ["cuda-lessons:lessons", "cuda-lessons:01-coalescing"]},
                     {"name": "tools", "suite": ["cuda-lessons:tools"]}]
            targets = [{"name": "lesson01-student", "target_sources": [{"sources": [
                str(starter / "01-coalescing" / "matrix_mapping.cu"), str(starter / "01-coalescing" / "particles.cu")]}]}]
            (info / "intro-tests.json").write_text(json.dumps(tests))
            (info / "intro-targets.json").write_text(json.dumps(targets))
            self.assertEqual([l.as_dict() for l in course.lessons_of_starter_build(info.parent, starter)],
                             [LESSON01.as_dict()])


class Verdicts(unittest.TestCase):
    def test_columns_come_from_results_then_listings(self):
        listed = record("bob", lesson("lesson02", listed=["02.0 table", "02.1 tiled", "02.2 padded"],
                                      kernels=["1.cu", "2.cu"], doc=results("lesson02", status="skipped")),
                        lesson("lesson03", kernels=["a.cu"], doc=results("lesson03", status="compile_error")))
        cols = verdicts.columns([passing(), listed])
        self.assertEqual([(c.test, c.exercise, c.kernel) for c in cols], [
            ("lesson01", "01.1 matrix mapping", "matrix_mapping.cu"), ("lesson01", "01.2 AoS vs SoA", "particles.cu"),
            ("lesson02", "02.1 tiled", "1.cu"), ("lesson02", "02.2 padded", "2.cu"), ("lesson03", None, None)])
        self.assertEqual([c.points for c in cols], [1, 1, 1, 1, 0])

    def test_kernel_mapping_needs_the_convention(self):
        self.assertEqual(verdicts.kernel_of(["06.2 b", "06.1 a"], ["1.cu", "2.cu"]), {"06.1 a": "1.cu", "06.2 b": "2.cu"})
        self.assertEqual(verdicts.kernel_of(["06.1 a", "06.3 c"], ["1.cu", "2.cu"]), {})
        self.assertEqual(verdicts.kernel_of(["06.1 a"], ["1.cu", "2.cu"]), {})

    def cells(self, rec, against=None):
        cols = verdicts.columns(against or [passing(), rec])
        return {c.label: verdicts.verdict_text(verdicts.cell(rec, c)) for c in cols}

    def test_every_kind_of_verdict(self):
        slow = record("s", lesson(doc=results("lesson01", [
            exercise("01.1 matrix mapping", "FAIL", "slow", figure=90, threshold=100),
            exercise("01.2 AoS vs SoA", "FAIL", "policy")])))
        self.assertEqual(self.cells(slow), {"01.1 matrix mapping": "FAIL [slow]", "01.2 AoS vs SoA": "FAIL [policy]"})
        for status, text in (("compile_error", "FAIL [compile]"), ("missing_files", "FAIL [missing]"),
                             ("policy", "FAIL [policy]"), ("error", "FAIL [error]"), ("skipped", "SKIP")):
            r = record("x", lesson(doc=results("lesson01", status=status, message="at /grades/work/alice/submission/x")))
            self.assertEqual(set(self.cells(r).values()), {text}, status)
            c = verdicts.cell(r, verdicts.columns([passing()])[0])
            self.assertEqual(c["message"], "at your submission/x")
        self.assertEqual(set(self.cells(record("n", lesson(doc=None))).values()), {"FAIL [error]"})
        self.assertEqual(set(self.cells(record("r")).values()), {"NOT RUN"})

    def test_not_attempted_per_file_and_per_lesson(self):
        one = record("u", lesson(doc=results("lesson01", status="skipped"), unchanged=["particles.cu"]))
        self.assertEqual(self.cells(one), {"01.1 matrix mapping": "SKIP", "01.2 AoS vs SoA": "NOT ATTEMPTED"})
        # The starter unchanged beats what the run said (a starter that compiles fails on speed).
        both = record("v", lesson(doc=results("lesson01", [exercise("01.1 matrix mapping", "PASS")]),
                                  unchanged=["matrix_mapping.cu", "particles.cu"]))
        self.assertEqual(set(self.cells(both).values()), {"NOT ATTEMPTED"})
        alone = record("w", lesson(doc=results("lesson01", status="skipped"), unchanged=["particles.cu"]))
        self.assertEqual(self.cells(alone, [alone]), {"lesson01": "SKIP"})  # one file of two: the lesson is attempted

    def test_copies_are_flagged_per_exercise_and_change_no_verdict(self):
        r = passing("carl")
        r["lessons"][0]["copied"] = {"particles.cu": ["solutions/01-coalescing/particles.cu"]}
        cols = verdicts.columns([r])
        cells, t = verdicts.row(r, cols)
        self.assertEqual([c["copied"] for c in cells], [[], ["solutions/01-coalescing/particles.cu"]])
        self.assertEqual([c["verdict"] for c in cells], ["PASS", "PASS"])
        self.assertEqual((t["copied"], t["points"]), (1, 2))
        self.assertEqual(verdicts.summary(t), "2 passed, 1 copied (see the report)")
        whole = verdicts.Column("lesson01", None)  # a lesson column: every file of the lesson
        self.assertEqual(verdicts.cell(r, whole)["copied"], ["solutions/01-coalescing/particles.cu"])

    def test_points_totals_and_seeds(self):
        r = passing()
        r["lessons"].append(lesson("lesson02", results("lesson02", status="compile_error", seed="43")))
        cols = verdicts.columns([r])
        t = verdicts.totals([verdicts.cell(r, c) for c in cols], cols)
        self.assertEqual((t["points"], t["max_points"], t["PASS"], t["FAIL"]), (2, 2, 2, 1))
        self.assertEqual(verdicts.seeds(r), "42 43")
        self.assertEqual(verdicts.revisions(r), "abc123")


class Outputs(unittest.TestCase):
    def test_every_output_is_well_formed(self):
        starter = record("dora", lesson(doc=results("lesson01", status="skipped"),
                                        unchanged=["matrix_mapping.cu", "particles.cu"]))
        slow = record("carl", lesson(doc=results("lesson01", [
            TEACHING, exercise("01.1 matrix mapping", "FAIL", "slow", figure=80, threshold=100),
            exercise("01.2 AoS vs SoA", figure=130, threshold=100)])))
        broken = record("eve", lesson(doc=results("lesson01", status="compile_error",
                                                  message="did not compile:\n  x.cu(3): error: expected a ;")))
        skipped = record("frank", lesson(doc=results("lesson01", status="skipped"), unchanged=["particles.cu"]))
        records = [passing("alice"), passing("bob", 3.0, 1.1), slow, starter, broken, skipped]
        with tempfile.TemporaryDirectory() as d:
            out = pathlib.Path(d)
            outputs.render_all(out, records)
            rows = list(csv.DictReader(io.StringIO((out / "gradebook.csv").read_text())))
            self.assertEqual([r["student"] for r in rows], ["alice", "bob", "carl", "dora", "eve", "frank"])
            self.assertEqual([r["points"] for r in rows], ["2", "2", "1", "0", "0", "0"])
            self.assertEqual(rows[2]["01.1 matrix mapping verdict"], "FAIL [slow]")
            self.assertEqual(rows[3]["01.2 AoS vs SoA verdict"], "NOT ATTEMPTED")
            self.assertEqual((rows[0]["seed"], rows[0]["grader_revision"]), ("42", "abc123"))
            suite = ET.parse(out / "junit" / "carl.xml").getroot().find("testsuite")
            self.assertEqual((suite.get("tests"), suite.get("failures")), ("2", "1"))
            failure = suite.find("testcase/failure")
            self.assertEqual(failure.get("type"), "slow")
            self.assertIn("hint: make it faster", failure.text)
            self.assertEqual(len(ET.parse(out / "junit" / "dora.xml").getroot().findall(".//skipped")), 2)
            gs = json.loads((out / "gradescope" / "bob" / "results.json").read_text())
            self.assertEqual((gs["score"], [t["max_score"] for t in gs["tests"]]), (2, [1, 1]))
            self.assertEqual({t["status"] for t in gs["tests"]}, {"passed"})
            # Not graded (no GPU) is not failed: no point at stake, no status; not attempted is failed.
            gs = json.loads((out / "gradescope" / "frank" / "results.json").read_text())
            self.assertEqual([(t["max_score"], t.get("status")) for t in gs["tests"]], [(0, None), (1, "failed")])
            self.assertTrue(gs["tests"][0]["output"].startswith("not graded: SKIP"))
            # The summary counts the points at stake in the file: its max_scores add up to 1.
            self.assertTrue(gs["output"].startswith("0 of 1 point. 1 exercise not graded in this run (SKIP or NOT RUN), "
                                                    "worth 1 point once graded. Seed 42,"), gs["output"])
            cols, [_, (r, cells, t)] = outputs.table([passing("alice"),
                                                      record("gus", lesson(doc=results("lesson01", status="skipped")))])
            gs = json.loads(outputs.gradescope_json(cols, r, cells, t))  # no GPU: both exercises SKIP
            self.assertTrue(gs["output"].startswith("Nothing graded. 2 exercises not graded in this run (SKIP or "
                                                    "NOT RUN), worth 2 points once graded."), gs["output"])
            gs = json.loads((out / "gradescope" / "bob" / "results.json").read_text())
            self.assertTrue(gs["output"].startswith("2 of 2 points. Seed 42,"), gs["output"])
            self.assertEqual(rows[5]["skipped"], "1")
            page = (out / "report.html").read_text()
            # 01.1: alice and bob passed, carl's was slow, dora left it as the starter, eve's did not
            # compile, frank's skipped (no GPU): 2 of the 5 graded pass, 2 of the 4 who attempted
            # it; frank counts in neither.
            rate = re.search(r"<tr><td>01\.1 matrix mapping</td>(.*?)</tr>", page).group(1)
            self.assertEqual(re.findall(r">([^<>]+)</td>", rate), ["2", "2", "1", "1", " 40 %", "50 %", "compile 1, slow 1"])
            # The grid scrolls sideways in its own box, its student column pinned.
            self.assertIn('<div class="wide"><table class="grid">', page)
            self.assertRegex(page, r"div\.wide \{ overflow-x: auto; \}")
            self.assertRegex(page, r"table\.grid tr > :first-child \{ position: sticky; left: 0;")
            for s in ("alice", "bob", "carl", "dora", "eve", "frank"):
                self.assertIn(f'id="student-{s}"', page)
            self.assertIn("<svg", page)  # the speed chart: three timed submissions per exercise
            self.assertIn("expected a ;", page)  # the compiler's lines
            fastest = page.split("Fastest and slowest")[1]
            self.assertLess(fastest.index("bob"), fastest.index("alice"))  # 3.0 before 1.5 on 01.1


class Grading(unittest.TestCase):
    def test_records_and_test_logs_are_read_back(self):
        with tempfile.TemporaryDirectory() as d:
            d = pathlib.Path(d)
            folder = grading.student_folder(d, "alice")
            folder.mkdir(parents=True)
            (folder / "record.json").write_text(json.dumps(passing()))
            (d / "students" / "stray").mkdir()
            (d / "students" / "stray" / "record.json").write_text('{"format": "something else"}')
            self.assertEqual([r["student"] for r in grading.load_records(d)], ["alice"])
            log = d / "testlog.json"
            log.write_text(json.dumps({"name": "lessons+01-coalescing - cuda-lessons:lesson01", "stdout": "FAIL x",
                                       "returncode": 1}) + "\n")
            self.assertEqual(grading.read_testlog(log), {"lesson01": ("FAIL x", 1)})

    def test_results_are_taken_only_from_grade(self):
        with tempfile.TemporaryDirectory() as d:
            path = pathlib.Path(d) / "lesson01.json"
            doc = results("lesson01")
            doc["exit_code"] = 1
            path.write_text(json.dumps(doc))
            self.assertEqual(grading.trusted_results(path, 1, "results: " + str(path))[0]["test"], "lesson01")
            for code, output in ((0, ""), (-9, ""), (None, ""), (1, "results: could not write " + str(path))):
                doc, why = grading.trusted_results(path, code, output)
                self.assertIsNone(doc, (code, output))
                self.assertTrue(why)
            self.assertIsNone(grading.trusted_results(None, 1, "")[0])
            link = pathlib.Path(d) / "lesson02.json"
            link.symlink_to(path)  # a link the student left: never followed
            self.assertIsNone(grading.trusted_results(link, 1, "")[0])

    def slot_build(self, d, files):
        """A slot's build folder holding `files` (each with its own name as content)."""
        build = pathlib.Path(d) / "slot-0" / "build"
        for f in files:
            (build / f).parent.mkdir(parents=True, exist_ok=True)
            (build / f).write_text(f)
        return build

    CONFIGURED = ("meson-private/coredata.dat", "build.ninja", "lesson01.args", "meson-info/intro-targets.json")
    BUILT = ("lesson01", "lesson01.p/x.o", "liblesson01-student.a.p/mine.cu.o", "results/lesson01.json",
             "meson-logs/testlog.json", ".ninja_deps")

    def mark(self, build, setup=("meson", "setup"), missing=()):
        """The record build_phase writes after `meson setup` made CONFIGURED."""
        grading.configuration_mark(build).write_text(json.dumps(
            {"setup": list(setup), "missing": list(missing), "files": grading.configured_files(build)}))

    def test_a_new_slot_needs_a_first_configuration(self):
        with tempfile.TemporaryDirectory() as d:
            build = pathlib.Path(d) / "slot-0" / "build"
            self.assertIsNone(grading.clear_build(build))
            self.assertFalse(grading.is_configured(build))

    def test_a_slot_keeps_its_configuration_and_nothing_of_the_last_student(self):
        with tempfile.TemporaryDirectory() as d:
            build = self.slot_build(d, self.CONFIGURED)
            self.mark(build, missing=["01-coalescing/particles.cu"])
            self.assertEqual(grading.configuration_mark(build).parent, pathlib.Path(d))  # out of the sandbox's reach
            for f in self.BUILT + (".ninja_log",):  # Ninja's state goes too
                (build / f).parent.mkdir(parents=True, exist_ok=True)
                (build / f).write_text("student " + f)
            kept = grading.clear_build(build)
            self.assertEqual(kept, {"setup": ["meson", "setup"], "missing": ["01-coalescing/particles.cu"]})
            files = sorted(p.relative_to(build).as_posix() for p in build.rglob("*") if p.is_file())
            self.assertEqual(files, sorted(self.CONFIGURED))

    def test_a_changed_configuration_file_means_configuring_again(self):
        with tempfile.TemporaryDirectory() as d:
            build = self.slot_build(d, self.CONFIGURED)
            self.mark(build)
            (build / "lesson01.args").write_text("--planted")  # whoever changed it, it is not kept
            (build / "lesson01.p").mkdir()
            (build / "lesson01.p" / "x.o").write_text("x")
            self.assertIsNone(grading.clear_build(build))
            self.assertFalse(grading.configuration_mark(build).exists())
            self.assertEqual([p.relative_to(build).as_posix() for p in sorted(build.rglob("*"))],
                             ["meson-private", "meson-private/coredata.dat"])
            self.assertTrue(grading.is_configured(build))  # then a reconfiguration

    def test_a_file_added_to_the_configuration_is_removed(self):
        with tempfile.TemporaryDirectory() as d:
            build = self.slot_build(d, self.CONFIGURED)
            self.mark(build)
            (build / "liblesson01-student.a.p").mkdir()
            (build / "liblesson01-student.a.p" / "planted.cu.o").write_text("x")  # for the next student's build
            self.assertIsNotNone(grading.clear_build(build))
            self.assertFalse((build / "liblesson01-student.a.p" / "planted.cu.o").exists())

    def test_an_unreadable_mark_means_configuring_again(self):
        with tempfile.TemporaryDirectory() as d:
            build = self.slot_build(d, self.CONFIGURED)
            grading.configuration_mark(build).write_text("{not json")
            self.assertIsNone(grading.clear_build(build))
            self.assertEqual(sorted(p.name for p in build.iterdir()), ["meson-private"])

    def test_a_slot_is_configured_ahead_once_as_for_a_submission_with_every_file(self):
        with tempfile.TemporaryDirectory() as d:
            d = pathlib.Path(d)
            (d / "starter" / LESSON01.dir).mkdir(parents=True)
            for k in LESSON01.kernels:
                (d / "starter" / LESSON01.dir / k).write_text("// TODO")
            calls = []

            class Box:  # stands for meson setup in the sandbox: writes what configuring writes
                def run(self, argv, cwd, log, binds=(), devices=False, gpu=None, timeout=None):
                    calls.append(argv)
                    build = pathlib.Path(argv[3] if argv[2] == "--reconfigure" else argv[2])
                    for f in Grading.CONFIGURED:
                        (build / f).parent.mkdir(parents=True, exist_ok=True)
                        (build / f).write_text(f)
                    return 0, "", False

            s = grading.Settings(sandbox=Box(), starter=d / "starter", lessons=[LESSON01], grader_build=d / "grader",
                                 work=d / "work", revision="r")
            slot = d / "work" / "slot-0"
            slot.mkdir(parents=True)
            self.assertEqual(grading.configure_slot(slot, s, d / "log"), "")
            self.assertEqual(calls, [grading.setup_command(s, slot / "build", slot / "submission")])
            self.assertFalse((slot / "submission").exists())  # the staged starter goes again
            self.assertEqual(grading.configure_slot(slot, s, d / "log"), "")  # configured already: nothing to do
            self.assertEqual(len(calls), 1)
            # build_phase keeps this configuration for a submission with every file (none missing)
            self.assertEqual(grading.clear_build(slot / "build"),
                             {"setup": grading.setup_command(s, slot / "build", slot / "submission"), "missing": [],
                              "objects": []})
            # The grader build gains a lesson's sealed object (a run of other --lessons): a build
            # configured before has no such lesson, so the slot is configured again.
            (d / "grader").mkdir()
            (d / "grader" / "lesson01-grader.o").write_text("")
            self.assertEqual(grading.configure_slot(slot, s, d / "log"), "")
            self.assertEqual(calls[1][:3], ["meson", "setup", "--reconfigure"])  # Meson's state was kept
            self.assertEqual(grading.clear_build(slot / "build")["objects"], ["lesson01-grader.o"])

    def test_a_partial_grading_keeps_the_other_lessons(self):
        with tempfile.TemporaryDirectory() as d:
            d = pathlib.Path(d)
            s = grading.Settings(out=d / "grades", work=d / "work")
            job = grading.Job(submissions.Entry("alice", d, "folder"), s, d / "slot")
            job.logs.mkdir(parents=True)
            first = passing()
            first["lessons"].append(lesson("lesson02", results("lesson02", status="skipped")))
            grading.save(job, first, s)
            job.logs.mkdir(parents=True)
            again = record("alice", lesson(doc=results("lesson01", status="compile_error")))
            grading.save(job, again, s)
            kept = grading.load_record(grading.student_folder(s.out, "alice"))
            self.assertEqual([(l["test"], l["results"]["status"]) for l in kept["lessons"]],
                             [("lesson01", "compile_error"), ("lesson02", "skipped")])
            job.logs.mkdir(parents=True)
            changed = record("alice", lesson(doc=results("lesson01")))
            changed["sha256"] = "1"  # another submission: what was graded before no longer holds
            grading.save(job, changed, s)
            self.assertEqual(len(grading.load_record(grading.student_folder(s.out, "alice"))["lessons"]), 1)

    def test_the_progress_line_counts_as_the_gradebook(self):
        """A lesson that did not compile names its exercises from the course's list (the
        grader build's), so the progress line's counts are the gradebook row's."""
        listed = ["01.0 coalescing on this GPU", "01.1 matrix mapping", "01.2 AoS vs SoA"]
        broken = record("eve", lesson(doc=results("lesson01", status="compile_error"), listed=listed))
        cols, rows = outputs.table([passing("alice"), broken])
        t = rows[1][2]
        self.assertEqual((t["FAIL"], t["max_points"]), (2, 2))
        self.assertEqual(grading.summary(broken), "2 failed")
        unlisted = record("eve", lesson(doc=results("lesson01", status="compile_error")))
        self.assertEqual(grading.summary(unlisted), "1 failed")  # a record made without the list: one lesson column

    def test_progress_lines(self):
        stream = io.StringIO()
        p = grading.Progress(2, stream)
        p.start("alice", "building")
        p.finish("alice", "2 passed (10 s)")
        self.assertRegex(stream.getvalue(), r"^\[1/2\] alice: 2 passed \(10 s\) · ETA \d+ min \d+ s\n$")
        self.assertIn("[1/2]", p.status())


class Slurm(unittest.TestCase):
    def test_scripts_chunks_and_collect(self):
        with tempfile.TemporaryDirectory() as d:
            out = pathlib.Path(d) / "grades"
            names = [f"s{i}.zip" for i in range(5)]
            grader, array, collect_script, n = slurm.write_scripts(
                out, ROOT, pathlib.Path(d) / "subs", names, "77", ["--lessons=01"], chunk_size=2, gres="",
                partition="gpu", extra=["--account=x"])
            text = array.read_text()
            self.assertEqual(n, 3)
            for line in ("#SBATCH --array=0-2", "#SBATCH --partition=gpu", "#SBATCH --account=x", "--seed 77",
                         "--lessons=01", f"--class-grader {out.resolve()}/work/grader "):
                self.assertIn(line, text)
            self.assertNotIn("--gres", text)
            # The grader job: the same partition, options and lessons, the class's grader build only.
            text = grader.read_text()
            for line in ("#SBATCH --partition=gpu", "#SBATCH --account=x", "--lessons=01", "--grader-only",
                         f"--work {out.resolve()}/work "):
                self.assertIn(line, text)
            self.assertEqual((out / "slurm" / "chunk-2.txt").read_text(), "s4.zip\n")
            for script in (grader, array, collect_script):
                self.assertEqual(subprocess.run(["bash", "-n", str(script)]).returncode, 0)
            gpu_scripts = slurm.write_scripts(out, ROOT, d, names, "77", [])
            self.assertIn("--gres=gpu:1", gpu_scripts[0].read_text())  # the grader's node: one of the tasks' kind
            self.assertIn("--gres=gpu:1", gpu_scripts[1].read_text())
            # Each task's slots, and its own grader where it needs one, in a folder of its own under --work.
            grader, array = slurm.write_scripts(out, ROOT, d, names, "77", [], work="/fast disk")[:2]
            self.assertIn("--work '/fast disk'/\"$task\" --class-grader '/fast disk/grader' ", array.read_text())
            self.assertIn("--work '/fast disk' --grader-only", grader.read_text())
            # Two tasks graded s0 (a retry): the newer wins; s1 was never graded.
            for task, finished in (("0", "2026-11-22T01:00:00Z"), ("1", "2026-11-22T03:00:00Z")):
                folder = out / "parts" / task / "students" / "s0"
                folder.mkdir(parents=True)
                r = passing("s0")
                r.update(entry="s0.zip", finished=finished, host="task" + task)
                (folder / "record.json").write_text(json.dumps(r))
            (out / "slurm" / "chunk-1.txt").unlink()
            (out / "slurm" / "chunk-0.txt").write_text("s0.zip\ns1.zip\n")
            merged, missing = slurm.collect(out)
            self.assertEqual(missing, ["s1.zip"])
            self.assertEqual(grading.load_record(out / "students" / "s0")["host"], "task1")
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                self.assertEqual(grade_class.main(["collect", str(out)]), 1)  # s1 is missing
            self.assertTrue((out / "gradebook.csv").is_file())


class SharedGrader(unittest.TestCase):
    """course.shared_refused: when a Slurm task may link the grader build its grader job made."""

    def refused(self, build, mark, probe_command):
        if mark is not None:
            (build / course.SHARED_MARK).write_text(json.dumps(mark))
        log = build / "log.txt"
        return course.shared_refused(ROOT, build, build / "probe", "abc123", ["gpu_arch=sm_90"],
                                     lambda b, k: probe_command, log)

    def test_only_a_finished_build_of_this_revision_and_options_that_meson_lets_link(self):
        with tempfile.TemporaryDirectory() as d:
            build = pathlib.Path(d)
            self.assertIn("no mark of a finished build", self.refused(build, None, ["true"]))
            self.assertIn("revision old", self.refused(build, {"revision": "old", "meson_options": ["gpu_arch=sm_90"]},
                                                       ["true"]))
            ok = {"revision": "abc123", "meson_options": ["gpu_arch=sm_90"]}
            self.assertIn("with options []", self.refused(build, {**ok, "meson_options": []}, ["true"]))
            # meson.build's refusal, as setup prints it, is the reason given
            said = ["sh", "-c", "echo 'meson.build:217:4: ERROR: -Dprebuilt_grader=/g compiled the grader otherwise "
                                "(arch=sm_80 there, arch=sm_90 here)'; exit 1"]
            self.assertIn("compiled the grader otherwise (arch=sm_80", self.refused(build, ok, said))
            self.assertIsNone(self.refused(build, ok, ["true"]))
            self.assertFalse((build / "probe").exists())

    def test_the_mark_is_what_shared_refused_reads(self):
        with tempfile.TemporaryDirectory() as d:
            course.mark_shared(d, "abc123", ["gpu_arch=sm_90"])
            self.assertIsNone(self.refused(pathlib.Path(d), None, ["true"]))


class Cli(unittest.TestCase):
    def test_lessons_and_gpus(self):
        ls = [LESSON01, course.Lesson("lesson06", "06-reduction", [])]
        self.assertEqual([l.test for l in grade_class.choose_lessons(ls, "06")], ["lesson06"])

        self.assertEqual([l.test for l in grade_class.choose_lessons(ls, "lesson01,06-reduction")],
                         ["lesson01", "lesson06"])
        with self.assertRaises(SystemExit):
            grade_class.choose_lessons(ls, "09")
        self.assertEqual(grade_class.detect_gpus("0,1"), ["0", "1"])
        self.assertEqual(grade_class.detect_gpus("none"), [None])

    def test_one_build_per_gpu_and_a_quarter_of_the_cores_without_one(self):
        self.assertEqual(grade_class.default_jobs(["0"], 16), 1)  # all 16 cores for each build
        self.assertEqual(grade_class.default_jobs(["0", "1"], 16), 2)
        self.assertEqual(grade_class.default_jobs([str(g) for g in range(8)], 16), 4)  # 4 cores each at least
        self.assertEqual(grade_class.default_jobs([None], 16), 4)
        self.assertEqual(grade_class.default_jobs([None], 2), 1)
        self.assertEqual(grade_class.default_jobs(["0", "1"], 2), 1)

    def test_teaching_tables_are_left_out_unless_asked_for_also_in_a_slurm_task(self):
        plain = grade_class.parser().parse_args(["SUBS", "--out", "G"])
        asked = grade_class.parser().parse_args(["SUBS", "--out", "G", "--teaching-tables"])
        self.assertFalse(plain.teaching_tables)
        self.assertNotIn("--teaching-tables", grade_class.forwarded(plain))
        self.assertIn("--teaching-tables", grade_class.forwarded(asked))
        self.assertFalse(grading.Settings().teaching_tables)
        # grade's exclusion filter (grader/common/wildcard.hpp: * and ? as fnmatch has them) must
        # match the teaching tables and no graded exercise
        import fnmatch
        self.assertTrue(grading.SKIP_TEACHING.startswith("-tce="))
        pattern = grading.SKIP_TEACHING[len("-tce="):]
        for name, teaching in (("01.0 coalescing on this GPU", True), ("06.0 reduction table", True),
                               ("01.1 matrix mapping", False), ("06.7 step 7 grid-stride with shuffles", False),
                               ("10.0 a table", True), ("10.10 a tenth step", False)):
            self.assertEqual(fnmatch.fnmatchcase(name, pattern), teaching, name)

    def test_help_explains_the_options(self):
        text = grade_class.parser().format_help()
        for word in ("--out", "--only", "--force", "--jobs", "--gpus", "--sandbox", "--slurm", "--slurm-gres",
                     "collect", "gradebook.csv"):
            self.assertIn(word, text)


class Environment(unittest.TestCase):
    def test_a_command_without_a_gpu_sees_none_even_without_a_sandbox(self):
        env = sandbox.Sandbox("none", ROOT).environment(None, pathlib.Path("/tmp"))
        self.assertEqual(env["CUDA_VISIBLE_DEVICES"], "")

    def test_a_worker_sees_its_own_gpu_in_bus_order(self):
        env = sandbox.Sandbox("none", ROOT).environment("1", pathlib.Path("/tmp"))
        self.assertEqual((env["CUDA_VISIBLE_DEVICES"], env["CUDA_DEVICE_ORDER"]), ("1", "PCI_BUS_ID"))


@unittest.skipUnless(sandbox.probe(ROOT) is None, "bubblewrap does not run here")
class Sandbox(unittest.TestCase):
    """The isolation docs/class_grading.md promises, checked with a shell in the sandbox."""

    def test_isolation(self):
        with tempfile.TemporaryDirectory() as d:
            d = pathlib.Path(d)
            mine, other, ro = d / "mine", d / "other", d / "ro"
            for p in (mine, other, ro):
                p.mkdir()
            (other / "secret.cu").write_text("theirs")
            (ro / "kernel.cu").write_text("mine")
            box = sandbox.Sandbox("bwrap", ROOT, hide=[other])
            os.environ["CLASS_GRADING_TEST_TOKEN"] = "leak"
            self.addCleanup(os.environ.pop, "CLASS_GRADING_TEST_TOKEN", None)
            script = ("echo $(ls -A {o} | wc -l) hidden; cat /proc/net/dev | tail -n +3 | cut -d: -f1 | tr -d ' ';"
                      "touch {m}/w && echo wrote mine; touch {r}/w 2>/dev/null || echo ro refused;"
                      "touch {c}/w 2>/dev/null || echo course refused; ls {s} | wc -l;"
                      "echo token=${{CLASS_GRADING_TEST_TOKEN:-none}}; id -u").format(
                o=other, m=mine, r=ro, c=ROOT, s=ROOT / "solutions")
            rc, out, late = box.run(["sh", "-c", script], cwd=mine, log=d / "log", binds=[("rw", mine), ("ro", ro)],
                                    timeout=60)
            self.assertEqual(rc, 0, out)
            self.assertEqual(out.split(), ["0", "hidden", "lo", "wrote", "mine", "ro", "refused", "course", "refused",
                                           "0", "token=none", str(os.getuid() or 65534)])
            rc, out, late = box.run(["sleep", "30"], cwd=mine, log=d / "log", binds=[("rw", mine)], timeout=1)
            self.assertTrue(late)

    def test_the_build_is_read_only_during_the_tests(self):
        """Student code in one lesson's test cannot change the supervisor or a lesson program
        that was built; it can write results and rebuild a lesson that did not build."""
        with tempfile.TemporaryDirectory() as d:
            work = pathlib.Path(d) / "work"  # hidden in the sandbox, as the class's work folder is
            job = grading.Job(submissions.Entry("alice", d, "folder"), grading.Settings(work=work), work / "slot")
            grader = work / "grader"
            for f in ("slot/build/lesson01", "slot/build/.ninja_log", "slot/submission/01/x.cu", "grader/grader/grade",
                      "grader/lesson01-grader.o", "other/secret.cu"):
                (work / f).parent.mkdir(parents=True, exist_ok=True)
                (work / f).write_text("x")
            (job.build / "results").mkdir()
            (job.build / "meson-logs").mkdir()
            job.lessons = [{"test": "lesson01"}, {"test": "lesson02"}]
            tries = ["lesson01", ".ninja_log", "results/r.json", "meson-logs/testlog.json", "lesson02.p/x.o", "new-file",
                     "../submission/01/x.cu", "../../grader/grader/grade", "../../grader/lesson01-grader.o"]
            script = "; ".join(f"mkdir -p $(dirname {t}); (echo y > {t}) 2>/dev/null && echo {t}" for t in tries)
            script += f"; cat {grader}/lesson01-grader.o; echo; ls {work}"  # the grader in sight; the rest of work/ not
            box = sandbox.Sandbox("bwrap", ROOT, hide=[work])
            rc, out, _ = box.run(["sh", "-c", script], cwd=job.build, log=pathlib.Path(d) / "log",
                                 binds=grading.test_binds(job, grader), timeout=60)
            self.assertEqual(out.split(), ["results/r.json", "meson-logs/testlog.json", "lesson02.p/x.o", "new-file",
                                           "x", "grader", "slot"])


if __name__ == "__main__":
    unittest.main()
