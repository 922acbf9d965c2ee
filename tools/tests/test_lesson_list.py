# SPDX-License-Identifier: MIT
"""Tests of tools/lesson_list.py, which writes the docs' main page with its list of lessons from
README.md's table and the theory pages: small courses in a temporary folder, and the course
itself (its README.md, theory pages and meson.build's list must agree).

Run from the repository root: python3 -m unittest discover -s tools/tests -t .
"""
import contextlib
import importlib.util
import io
import pathlib
import re
import tempfile
import unittest

ROOT = pathlib.Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("lesson_list", ROOT / "tools" / "lesson_list.py")
ll = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ll)

MAINPAGE = """# A course {#mainpage}

## Lessons {#main_lessons}

<!-- lessons: written when the docs are built,
     from README.md. -->

While you work: \\subpage thresholds.
"""
README = """# A course

| lesson | topic | status |
|---|---|---|
| 01 | memory coalescing — thread mapping, AoS vs SoA | ready |
| 02 | tiling: matrix multiplication — from naive to register-blocked | ready |

## Requirements
"""
THEORY = {"01-coalescing": "# Lesson 01 — Memory coalescing {#lesson01}\n\n> **At a glance**\n",
          "02-tiling": "# Lesson 02 — Tiling: matrix multiplication {#lesson02}\n\nText.\n"}
LESSONS = ["01-coalescing", "02-tiling"]


def meson_lessons():
    """The lesson folders of the top-level meson.build's list, in its order."""
    text = (ROOT / "meson.build").read_text(encoding="utf-8")
    m = re.search(r"^foreach l : \[([^\]]*)\]", text, re.M)
    return re.findall(r"'([^']+)'", m.group(1))


class Course:
    """A small course in a temporary folder: docs/mainpage.md, README.md, lessons/*/theory.md."""

    def __init__(self, tmp, readme=README, mainpage=MAINPAGE, theory=None):
        self.root = pathlib.Path(tmp)
        (self.root / "docs").mkdir()
        (self.root / "docs" / "mainpage.md").write_text(mainpage, encoding="utf-8")
        (self.root / "README.md").write_text(readme, encoding="utf-8")
        for d, text in (THEORY if theory is None else theory).items():
            (self.root / "lessons" / d).mkdir(parents=True)
            (self.root / "lessons" / d / "theory.md").write_text(text, encoding="utf-8")


class Generated(unittest.TestCase):
    def page(self, lessons=LESSONS, **kw):
        with tempfile.TemporaryDirectory() as tmp:
            return ll.main_page(Course(tmp, **kw).root, lessons)

    def problems(self, lessons=LESSONS, **kw):
        """The problem lines main_page raises."""
        with self.assertRaises(ll.Problems) as cm:
            self.page(lessons, **kw)
        return cm.exception.lines

    def test_the_marker_becomes_one_line_per_lesson(self):
        self.assertEqual(self.page(), MAINPAGE.replace(
            "<!-- lessons: written when the docs are built,\n     from README.md. -->\n",
            '- \\subpage lesson01 "01 Memory coalescing" — thread mapping, AoS vs SoA\n'
            '- \\subpage lesson02 "02 Tiling: matrix multiplication" — from naive to register-blocked\n'))

    def test_the_order_is_meson_builds(self):
        lines = [line for line in self.page(list(reversed(LESSONS))).splitlines() if "\\subpage lesson" in line]
        self.assertEqual([line.split()[2] for line in lines], ["lesson02", "lesson01"])

    def test_a_lesson_without_a_readme_row(self):
        readme = "".join(line for line in README.splitlines(True) if not line.startswith("| 02 |"))
        self.assertEqual(self.problems(readme=readme), [
            "README.md: no row for lesson 02 (02-tiling) in the table of lessons: "
            "add '| 02 | title — summary | status |'"])

    def test_a_readme_row_without_a_lesson(self):
        readme = README.replace("## Requirements", "").rstrip() + "\n| 03 | convolution — halo tiles | planned |\n"
        self.assertEqual(self.problems(readme=readme), [
            "README.md:7: a row for lesson 03, which the list of lessons in meson.build lacks (no lessons/03-topic)"])

    def test_a_lesson_folder_missing_from_the_meson_list(self):
        self.assertEqual(self.problems(lessons=["01-coalescing"]), [
            "lessons/02-tiling: a lesson folder that the list of lessons in meson.build lacks",
            "README.md:6: a row for lesson 02, which the list of lessons in meson.build lacks (no lessons/02-topic)"])

    def test_a_topic_that_does_not_start_with_the_title(self):
        readme = README.replace("memory coalescing — thread", "coalescing — thread")
        found = self.problems(readme=readme)
        self.assertEqual(len(found), 1)
        self.assertIn("README.md:5: lesson 01's topic must be 'memory coalescing — summary'", found[0])

    def test_a_topic_without_a_summary(self):
        found = self.problems(readme=README.replace("coalescing — thread mapping, AoS vs SoA", "coalescing"))
        self.assertIn("lesson 01's topic must be", found[0])

    def test_the_title_may_differ_in_its_first_letter_only(self):
        capital = README.replace("memory coalescing", "Memory coalescing")
        self.assertIn('"01 Memory coalescing"', self.page(readme=capital))
        found = self.problems(readme=README.replace("memory coalescing", "Memory Coalescing"))
        self.assertIn("lesson 01's topic must be", found[0])

    def test_a_theory_page_without_its_heading(self):
        theory = dict(THEORY, **{"02-tiling": "# Tiling {#lesson02}\n"})
        self.assertEqual(self.problems(theory=theory), [
            "lessons/02-tiling/theory.md: its first heading must be "
            "'# Lesson NN — Title {#lessonNN}', not '# Tiling {#lesson02}'"])

    def test_a_theory_page_of_another_number(self):
        theory = dict(THEORY, **{"02-tiling": "# Lesson 03 — Tiling: matrix multiplication {#lesson03}\n"})
        self.assertEqual(self.problems(theory=theory), [
            "lessons/02-tiling/theory.md: headed as lesson 03 {#lesson03}, not lesson 02 {#lesson02}"])

    def test_no_theory_page(self):
        found = self.problems(theory={"01-coalescing": THEORY["01-coalescing"]}, lessons=LESSONS)
        self.assertEqual(len(found), 1)
        self.assertIn("02-tiling", found[0])
        self.assertIn("cannot be read", found[0])

    def test_no_table_or_a_second_row(self):
        self.assertEqual(self.problems(readme="# A course\n"),
                         ["README.md: no table headed '| lesson | topic | status |' (the table of lessons)"])
        readme = README.replace("| 02 |", "| 01 |")
        self.assertIn("README.md:6: a second row for lesson 01 (the first is on line 5)", self.problems(readme=readme))

    def test_the_marker_must_be_there_once(self):
        self.assertEqual(self.problems(mainpage="# A course {#mainpage}\n"), [
            "docs/mainpage.md: no marker '<!-- lessons: ... -->' where the list of lessons goes (one is needed)"])
        twice = MAINPAGE + "<!-- lessons: again -->\n"
        self.assertEqual(self.problems(mainpage=twice), [
            "docs/mainpage.md: 2 markers '<!-- lessons: ... -->' where the list of lessons goes (one is needed)"])
        self.assertEqual(self.problems(mainpage=MAINPAGE.replace("README.md. -->", "README.md.")), [
            "docs/mainpage.md:5: the marker '<!-- lessons: ...' is not closed by '-->'"])

    def test_every_problem_is_listed_at_once(self):
        readme = README.replace("memory coalescing — thread", "coalescing — thread") + "| 09 | x — y | ready |\n"
        found = self.problems(readme=readme, mainpage="# A course {#mainpage}\n")
        self.assertEqual(len(found), 2, found)  # the table ends at its first non-row line
        self.assertTrue(found[0].startswith("docs/mainpage.md: no marker"))
        self.assertIn("lesson 01's topic must be", found[1])


class CommandLine(unittest.TestCase):
    def test_writes_the_page_or_says_what_disagrees(self):
        with tempfile.TemporaryDirectory() as tmp:
            root = Course(tmp).root
            out = root / "build" / "docs" / "mainpage.md"
            with contextlib.redirect_stdout(io.StringIO()):
                self.assertEqual(ll.main([str(root), str(out)] + LESSONS), 0)
            self.assertIn('\\subpage lesson02 "02 Tiling: matrix multiplication"', out.read_text(encoding="utf-8"))
            out.unlink()
            err = io.StringIO()
            with contextlib.redirect_stderr(err):
                self.assertEqual(ll.main([str(root), str(out), "01-coalescing"]), 1)
            self.assertFalse(out.exists())
            self.assertIn("the docs' main page cannot list the lessons", err.getvalue())
            self.assertIn("  lessons/02-tiling: a lesson folder that the list of lessons in meson.build lacks",
                          err.getvalue())


class TheCourse(unittest.TestCase):
    """The course's own README.md, theory pages and meson.build's list agree, and the main page
    lists every lesson, in meson.build's order."""

    def test_the_course_main_page(self):
        lessons = meson_lessons()
        self.assertGreaterEqual(len(lessons), 8)
        page = ll.main_page(ROOT, lessons)
        listed = re.findall(r'^- \\subpage (lesson\d\d) "(\d\d) [^"]+" — \S', page, re.M)
        self.assertEqual([p for p, _ in listed], ["lesson" + d[:2] for d in lessons])
        self.assertEqual([n for _, n in listed], [d[:2] for d in lessons])
        self.assertNotIn(ll.MARKER, page)
        self.assertIn("\\subpage thresholds", page)  # the rest of the page is kept


if __name__ == "__main__":
    unittest.main()
