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
        self.assertEqual(out.split("\n")[1], "  *The reference code shown here is not part of the student release.*")
        keep = "\\snippet lessons/03-tiling/grader/grade_tiling.cu cublas_row_major"
        self.assertEqual(release.rewrite_markdown(keep), keep)  # the lessons' own code stays

    def test_unbalanced_markers_are_refused(self):
        for text in ("<!-- student-release: omit -->\na\n", "a\n<!-- student-release: end -->\n",
                     "<!-- student-release: omit -->\n<!-- student-release: omit -->\n<!-- student-release: end -->\n"):
            with self.assertRaises(ValueError):
                release.rewrite_markdown(text, "README.md")


class Mentions(unittest.TestCase):
    """What the release lacks is not mentioned in what it ships: a phrase for what has one,
    otherwise the smallest passage that points at it goes."""

    def test_a_sentence_that_points_at_the_references_goes(self):
        text = ("4. Repeat until every line says `PASS`. The references are in `solutions/`, and most pages\n"
                "   show them in their last section, for after you pass.\n5. Next.")
        self.assertEqual(release.rewrite_markdown(text), "4. Repeat until every line says `PASS`.\n5. Next.")

    def test_a_named_tool_becomes_its_phrase(self):
        text = ("Measured by `python3 tools/gpu_selftest.py\n--repeat 3`, with identical code. Each run prints.\n\n"
                "Rows as they came. `tools/gpu_selftest.py` builds its table from `verdict`.\n\n"
                "`meson test -C build-ref --suite known-bad` (in a build with `-Dkernels=solutions`) replaces one")
        self.assertEqual(release.rewrite_markdown(text).split("\n\n"), [
            "Measured by the course's GPU self-test, with identical code. Each run prints.",
            "Rows as they came. The course's GPU self-test builds its table from `verdict`.",
            "The course's own test suite (in a build with `-Dkernels=solutions`) replaces one"])

    def test_asides_and_list_entries_go(self):
        text = ("The rule, which the GPU self-test\n(`tools/gpu_selftest.py`) checks (on every\nexercise).\n\n"
                "The bins add up to less than n (`lessons/05-histogram/bad/no_atomics.cu` is that kernel).\n\n"
                "`docs/` the site;\n`tools/gpu_selftest.py` the GPU self-test; `tools/grade_class.py` the class grader;\n"
                "`.ci/run` what CI runs.")
        self.assertEqual(release.rewrite_markdown(text).split("\n\n"), [
            "The rule, which the GPU self-test checks (on every exercise).",
            "The bins add up to less than n.",
            "`docs/` the site."])

    def test_rows_code_lines_and_links_to_left_out_pages_go(self):
        text = ("| file (`lessons/08-nbody/bad/`) | bug |\n|---|---|\n| `solutions/08-nbody/a.cu` | x |\n| b | y |\n\n"
                "```sh\nmeson setup build-ref -Dkernels=solutions\nmeson setup build\n```\n\n"
                "    python3 tools/gpu_selftest.py --repeat 3\n    meson test -C build\n\n"
                "- \\subpage class_grading \"Grading a class\" — the gradebook, the sandbox\n  and Slurm.\n"
                "- \\subpage trust_model \"Trust model\" — what the grader owns.")
        self.assertEqual(release.rewrite_markdown(text), (
            "| file | bug |\n|---|---|\n| b | y |\n\n```sh\nmeson setup build\n```\n\n    meson test -C build\n\n"
            "- \\subpage trust_model \"Trust model\" — what the grader owns."))

    def test_what_is_no_mention_stays_as_it_was(self):
        text = ("Configure with `-Dkernels=solutions`, the word solutions, GRADES/slurm/grade_class.sbatch,\n"
                "--slurm, `class_grading` and \\ref trust_model stay; so do\nthese line breaks.")
        self.assertEqual(release.rewrite_markdown(text), text)

    def test_a_mention_left_in_a_release_is_found(self):
        # A heading is not rewritten: the check reports it.
        with tempfile.TemporaryDirectory() as d:
            out = pathlib.Path(d)
            (out / "page.md").write_text(release.rewrite_markdown("# Using `tools/gpu_selftest.py`\n\nText.\n"))
            self.assertEqual(release.problems_in_release(out),
                             ["page.md:1: mentions tools/gpu_selftest.py, which the release lacks"])

    def test_left_out_pages_are_anchored_by_their_names(self):
        # mention_regex finds a \\ref or \\subpage to a left-out page docs/NAME.md by the anchor NAME.
        for pattern in release.LEFT_OUT:
            if pattern.startswith("docs/") and pattern.endswith(".md"):
                first = (ROOT / pattern).read_text(encoding="utf-8").split("\n")[0]
                self.assertTrue(first.endswith("{#" + pathlib.Path(pattern).stem + "}"), first)


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
