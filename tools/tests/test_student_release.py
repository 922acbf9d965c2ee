# SPDX-License-Identifier: MIT
"""Tests of tools/make_student_release.py without building anything: what the release holds
and how its Markdown is rewritten. `python3 tools/make_student_release.py OUT --check`
builds and tests a release (CI runs it)."""
import fnmatch
import importlib.util
import pathlib
import shutil
import tempfile
import unittest

ROOT = pathlib.Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("make_student_release", ROOT / "tools" / "make_student_release.py")
release = importlib.util.module_from_spec(spec)
spec.loader.exec_module(release)


class RewriteMarkdown(unittest.TestCase):
    def test_omit_blocks_go_and_the_rest_stays(self):
        text = "a\n<!-- student-release: omit -->\nb\n```sh\nmeson setup build-ref -Dkernels=solutions\n```\n" \
               "<!-- student-release: end -->\nc\n"
        self.assertEqual(release.rewrite_markdown(text), "a\nc\n")

    def test_a_solution_snippet_becomes_a_note(self):
        out = release.rewrite_markdown("x\n  \\snippet solutions/03-tiling/1_coalesced.cu coalesced\ny")
        self.assertEqual(out.split("\n")[1],
                         "  *The reference code shown here (solutions/03-tiling/1_coalesced.cu) is not part of the "
                         "student release.*")
        keep = "\\snippet lessons/03-tiling/grader/grade_tiling.cu cublas_row_major"
        self.assertEqual(release.rewrite_markdown(keep), keep)  # the lessons' own code stays

    def test_unbalanced_markers_are_refused(self):
        for text in ("<!-- student-release: omit -->\na\n", "a\n<!-- student-release: end -->\n",
                     "<!-- student-release: omit -->\n<!-- student-release: omit -->\n<!-- student-release: end -->\n"):
            with self.assertRaises(ValueError):
                release.rewrite_markdown(text, "README.md")


class ReadmeCommands(unittest.TestCase):
    def test_commands_that_cannot_work_in_a_release_are_found(self):
        with tempfile.TemporaryDirectory() as d:
            out = pathlib.Path(d)
            (out / "tools").mkdir()
            (out / "tools" / "report.py").write_text("")
            md = ("```sh\nmeson setup build\npython3 tools/report.py build\npython3 tools/gpu_selftest.py\n```\n"
                  "```\nmeson setup build-ref -Dkernels=solutions\n```\n"  # not a shell block: output, not read
                  "  ```sh\n  $ meson setup b -Dkernels=solutions\n  ```\n")
            problems = release.readme_command_problems(md, out)
            self.assertEqual(len(problems), 2, problems)
            self.assertIn("gpu_selftest.py", problems[0])
            self.assertIn("solutions", problems[1])


class LeftOut(unittest.TestCase):
    def test_every_pattern_matches_a_file(self):
        files = release.course_files(ROOT)
        for pattern in release.LEFT_OUT:
            self.assertTrue(any(fnmatch.fnmatch(f, pattern) for f in files), pattern)

    def test_the_modules_follow_the_paths(self):
        self.assertEqual(release.LEFT_OUT_MODULES, {"gpu_selftest", "grade_class", "class_grading", "make_student_release"})

    def test_scripts_that_need_what_was_left_out_are_found(self):
        with tempfile.TemporaryDirectory() as d:
            out = pathlib.Path(d)
            (out / "tools" / "tests").mkdir(parents=True)
            (out / "tools" / "report.py").write_text("import results_files\n")
            (out / "tools" / "tests" / "a.sh").write_text("python3 tools/report.py\npython3 tools/grade_class.py x\n")
            (out / "tools" / "tests" / "b.py").write_text("from class_grading import verdicts\n")
            problems = release.problems_in_release(out)
            self.assertEqual(len(problems), 2, problems)
            self.assertIn("tools/tests/a.sh: names tools/grade_class.py", problems[0])
            self.assertIn("tools/tests/b.py: imports class_grading", problems[1])


class TheRelease(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = pathlib.Path(tempfile.mkdtemp())
        cls.out = cls.tmp / "release"
        cls.written = release.write_release(cls.out, ROOT, untracked=True)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_left_out_what_students_must_not_have(self):
        self.assertFalse((self.out / "solutions").exists())
        self.assertEqual(list(self.out.glob("lessons/*/bad")), [])
        self.assertFalse((self.out / "tools" / "gpu_selftest.py").exists())
        self.assertFalse((self.out / ".ci").exists())
        # it runs tools/grade_class.py, which is left out
        self.assertFalse((self.out / "tools" / "tests" / "run_class_grading.sh").exists())
        self.assertTrue(self.written)
        self.assertFalse(any(p.startswith(("build", "results")) for p in self.written))

    def test_kept_what_students_need(self):
        for p in ["meson.build", "meson.options", "README.md", "lessons/policy.txt", "grader/grade_main.cpp",
                  "tools/report.py", "tools/measured_pages.py", "docs/Doxyfile.in", "subprojects/doctest.wrap"]:
            self.assertTrue((self.out / p).is_file(), p)
        self.assertTrue(list((self.out / "docs" / "measured").rglob("*.json")), "docs/measured")
        for lesson in (ROOT / "starter").iterdir():
            for f in lesson.iterdir():
                self.assertEqual((self.out / "starter" / lesson.name / f.name).read_bytes(), f.read_bytes())
        for build in (ROOT / "lessons").glob("*/meson.build"):
            # the lessons' meson.build, 'bad' lists and all: read only by a build of solutions/
            self.assertEqual((self.out / "lessons" / build.parent.name / "meson.build").read_bytes(), build.read_bytes())

    def test_nothing_in_it_needs_what_was_left_out(self):
        self.assertEqual(release.problems_in_release(self.out), [])

    def test_the_revision_is_recorded(self):
        rev = release.course.revision(ROOT)
        if rev != "unknown":
            self.assertIn(f"value: '{rev}-student'", (self.out / "meson.options").read_text())


if __name__ == "__main__":
    unittest.main()
