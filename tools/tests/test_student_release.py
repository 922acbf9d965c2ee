# SPDX-License-Identifier: MIT
"""Tests of tools/make_student_release.py without building anything: what the release holds
and how its Markdown is rewritten. `python3 tools/make_student_release.py OUT --check`
builds and tests a release (CI runs it)."""
import fnmatch
import importlib.util
import pathlib
import re
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

    def test_reference_code_only_in_an_omitted_block(self):
        # A page's appendix of reference code is marked, and goes whole; unmarked, it is refused.
        snippet = "  \\snippet solutions/03-tiling/1_coalesced.cu coalesced"
        with self.assertRaisesRegex(ValueError, "page.md:2: reference code outside"):
            release.rewrite_markdown(f"x\n{snippet}\ny", "page.md")
        marked = f"x\n<!-- student-release: omit -->\n## Appendix {{#x_reference}}\n\n{snippet}\n<!-- student-release: end -->\ny"
        self.assertEqual(release.rewrite_markdown(marked), "x\ny")
        keep = "\\snippet lessons/03-tiling/grader/grade_tiling.cu cublas_row_major"
        self.assertEqual(release.rewrite_markdown(keep), keep)  # the lessons' own code stays

    def test_omitted_blocks_in_sources_go_with_their_markers(self):
        text = ("int a;\n// student-release: omit (why)\nint answer;\n  // student-release: end\nint b;\n"
                "    // student-release: omit\n    int other;\n    // student-release: end\n")
        self.assertEqual(release.strip_source(text), "int a;\nint b;\n")
        for bad in ("// student-release: omit\nx\n", "x\n// student-release: end\n",
                    "// student-release: omit\n// student-release: omit\n// student-release: end\n"):
            with self.assertRaises(ValueError):
                release.strip_source(bad, "a.cu")
        # A marker is a line of its own: one inside a longer comment is text.
        self.assertEqual(release.strip_source("// see student-release: omit\n"), "// see student-release: omit\n")

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
            "Measured by the course's GPU self-test, with\nidentical code. Each run prints.",
            "Rows as they came. The course's GPU self-test builds its table from\n`verdict`.",
            "The course's own test suite (in a build with `-Dkernels=solutions`) replaces one"])

    def test_asides_and_list_entries_go(self):
        text = ("The rule, which the GPU self-test\n(`tools/gpu_selftest.py`) checks (on every\nexercise).\n\n"
                "The bins add up to less than n (`lessons/05-histogram/bad/no_atomics.cu` is that kernel).\n\n"
                "`docs/` the site;\n`tools/gpu_selftest.py` the GPU self-test; `tools/grade_class.py` the class grader;\n"
                "`.ci/run` what CI runs.")
        self.assertEqual(release.rewrite_markdown(text).split("\n\n"), [
            "The rule, which the GPU self-test checks\n(on every exercise).",
            "The bins add up to less than n.",
            "`docs/` the site."])

    def test_a_rewritten_paragraph_keeps_its_width(self):
        # Wrapped again as wide as its widest line was, with the continuation lines' indent;
        # no code span broken; no line that Markdown would read as a list item, a heading, a
        # table row or a quote.
        words = [f"w{i}" for i in range(40)] + ["`a code span`", "-", "3.", "#", "|", ">"] + [f"v{i}" for i in range(40)]
        lines, line = [], "- A list item (see `tools/grade_class.py`)"
        for w in words:
            if len(line) + 1 + len(w) > 60:
                lines.append(line)
                line = "  " + w
            else:
                line += " " + w
        text = "\n".join(lines + [line]) + "\n- next item"
        out = release.rewrite_markdown(text).split("\n")
        self.assertEqual(out[-1], "- next item")
        item = out[:-1]
        self.assertGreater(len(item), 3)
        self.assertTrue(all(len(x) <= 60 or "`" in x for x in item), item)
        self.assertTrue(item[0].startswith("- A list item w0 "), item)
        for x in item[1:]:
            self.assertTrue(x.startswith("  ") and not re.match(r"\s*(?:[-*+#|>]|\d+\.)(?:\s|$)", x), x)
        self.assertIn("`a code span`", "\n".join(item))
        self.assertEqual(" ".join(item).split(), ["-", "A", "list", "item"] + " ".join(words).split())

    def test_a_reference_to_an_omitted_section_goes(self):
        pages = [("a.md", "# A {#a}\n\nText (its code: \\ref a_ref). More.\n\nSee \\ref a_ref \"the end\", for later.\n"
                          "<!-- student-release: omit -->\n## Code {#a_ref}\n<!-- student-release: end -->\n"),
                 ("b.md", "# B {#b}\n\n\\ref a and \\ref b stay.\n")]
        anchors = release.omitted_anchors(pages)
        self.assertEqual(anchors, {"a_ref"})
        lacking = release.Lacking(anchors)
        self.assertEqual(release.rewrite_markdown(pages[0][1], "a.md", lacking), "# A {#a}\n\nText. More.\n\n")
        self.assertEqual(release.rewrite_markdown(pages[1][1], "b.md", lacking), pages[1][1])

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


class Answers(unittest.TestCase):
    """No file of a release reads as a reference, whole or one kernel at a time (the class
    grader's comparison), but a starter as the reference of a step before it."""

    def release_with(self, files):
        """A release folder holding `files` {path: text}; its answers_in lines."""
        with tempfile.TemporaryDirectory() as d:
            out = pathlib.Path(d)
            for path, text in files.items():
                (out / path).parent.mkdir(parents=True, exist_ok=True)
                (out / path).write_text(text)
            return release.answers_in(out)

    def test_a_grader_holding_a_reference_kernel_is_rejected(self):
        # The 04.3 reference's kernel pasted into a grader file, renamed, its comments gone and
        # its lines joined: the comparison sees through all of that.
        ref = (ROOT / "solutions/04-convolution/3_cache_halo.cu").read_text()
        kernel = ref[ref.index("__global__"):]
        disguised = re.sub(r"//[^\n]*", "", kernel).replace("conv_cache_halo_kernel", "grader_own").replace("\n", " ")
        found = self.release_with({"lessons/04-convolution/grader/helpers.cu": "// the grader's\n" + disguised})
        self.assertTrue(found, "a reference kernel went unseen")
        self.assertTrue(all(f.startswith("lessons/04-convolution/grader/helpers.cu: ") for f in found), found)
        self.assertIn("solutions/04-convolution/3_cache_halo.cu", found[0])
        # and so does problems_in_release, which --check runs first
        with tempfile.TemporaryDirectory() as d:
            out = pathlib.Path(d)
            (out / "x.cu").write_text(disguised)
            self.assertTrue(any("reads as" in p for p in release.problems_in_release(out)))

    def test_the_course_grader_files_hold_answers_that_the_release_removes(self):
        # Unstripped, today's grader files are rejected; stripped as the release writes them, not.
        graders = {p: (ROOT / p).read_text() for p in ("lessons/04-convolution/grader/versions.cu",
                                                       "lessons/05-histogram/grader/histogram_versions.cu",
                                                       "lessons/08-nbody/grader/nbody_variants.cu")}
        found = self.release_with(graders)
        for path in graders:
            self.assertTrue(any(f.startswith(path + ": ") for f in found), (path, found))
        self.assertEqual(self.release_with({p: release.strip_source(t, p) for p, t in graders.items()}), [])
        # The macro that tells a grader whether it has its answer kernels is defined in the
        # course only: inside an omitted block of every grader file that defines it.
        for path in sorted(ROOT.glob("lessons/*/grader/*")):
            text = path.read_text()
            if re.search(r"#define LESSON\d\d_ANSWER_KERNELS", text):
                self.assertNotRegex(release.strip_source(text), r"#define LESSON\d\d_ANSWER_KERNELS", path)

    def test_the_graders_own_answers_stay_out_of_the_release(self):
        # Kernels and host routines of the graders' own that pass an exercise whose answer no
        # starter ships, measured on the GPU (the 02.0 and 07.0 tables): the copy comparison
        # above cannot see them (they are not the references' code), their omitted blocks must.
        # Each pattern is the routine's definition; its uses stay, behind LESSONNN_ANSWER_KERNELS.
        definitions = {"lessons/02-bank-conflicts/grader/grade_bank_conflicts.cu": [r"__global__[^;{]*\btile_transpose\s*\("],
                       "lessons/07-streams/grader/grade_streams.cu": [r"\bvoid\s+grader_pipeline\s*\("]}
        for path, patterns in definitions.items():
            course = (ROOT / path).read_text()
            stripped = release.strip_source(course, path)
            for pattern in patterns:
                self.assertTrue(re.search(pattern, course), (path, pattern, "defined in the course"))
                self.assertIsNone(re.search(pattern, stripped), (path, pattern, "left in the release"))

    def test_a_starter_may_read_only_as_a_step_before(self):
        refs = ROOT / "solutions" / "05-histogram"
        first, second = (refs / "1_privatized.cu").read_text(), (refs / "2_coarsened.cu").read_text()
        # the chain: 05.2's starter is 05.1's reference
        self.assertEqual(self.release_with({"starter/05-histogram/2_coarsened.cu": first}), [])
        # its own step's reference, or a later step's, is an answer; so is any reference elsewhere
        for path, text in (("starter/05-histogram/2_coarsened.cu", second), ("starter/05-histogram/1_privatized.cu", second),
                           ("starter/06-reduction/step2_interleaved_strided.cu", first), ("docs/page.md", second)):
            found = self.release_with({path: text})
            self.assertTrue(found and all(f.startswith(path + ": ") for f in found), (path, found))

    def test_a_grader_copy_of_a_starter_kernel_ships_where_the_starter_does(self):
        # Lesson 09 times its own copies of the 09.2 and 09.3 starters' kernels, which are the
        # 09.1 and 09.2 references: shipped beside those starters, they reveal nothing new.
        grader = "lessons/09-tensor-cores/grader/grade_tensor_cores.cu"
        text = release.strip_source((ROOT / grader).read_text(), grader)
        starters = {f"starter/09-tensor-cores/{n}": (ROOT / "starter/09-tensor-cores" / n).read_text()
                    for n in ("2_shared_tiles.cu", "3_pipeline.cu")}
        self.assertEqual(self.release_with({grader: text, **starters}), [])
        # Without the starters that ship them, the same kernels are answers.
        found = self.release_with({grader: text})
        self.assertTrue(found and all(f.startswith(grader + ": ") for f in found), found)
        # A starter of another lesson does not excuse them.
        moved = {p.replace("09-tensor-cores", "03-tiling"): t for p, t in starters.items()}
        self.assertTrue(self.release_with({grader: text, **moved}))
        # Nor does it excuse a reference that no starter ships (09.3's own), pasted into the grader.
        answer = (ROOT / "solutions/09-tensor-cores/3_pipeline.cu").read_text()
        found = self.release_with({grader: text + answer[answer.index("__global__"):], **starters})
        self.assertTrue(found and all("3_pipeline.cu" in f for f in found), found)

    def test_a_starter_whose_kernel_is_its_references_is_listed(self):
        for path in release.SAME_KERNEL_AS_ITS_REFERENCE:
            mine = copies_kernels((ROOT / path).read_text())
            theirs = copies_kernels((ROOT / path.replace("starter/", "solutions/", 1)).read_text())
            self.assertTrue(mine & theirs, f"{path} no longer shares a kernel with its reference: drop it from the list")


def copies_kernels(text):
    return set(release.copies.fingerprints(text)[1])


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
        for p in ["meson.build", "meson.options", "README.md", "lessons/policy.txt", "grader/supervisor/grade_main.cpp",
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
