# SPDX-License-Identifier: MIT
"""The class grader's flag on copies of kernels shipped with the course (tools/class_grading/copies.py),
on submissions generated from the course's own files: one that copies a reference kernel with its
variables renamed, its comments changed and its layout redone is flagged, in the record and in the
gradebook; one written otherwise, and one that leaves a starter as it is, are not.

Run from the repository root: python3 -m unittest discover -s tools/tests -t .
"""
import csv
import io
import pathlib
import re
import sys
import tempfile
import unittest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
from class_grading import copies, course, outputs  # noqa: E402
from tools.tests.test_grade_class import record, results  # noqa: E402

LESSON = "06-reduction"
STEP3 = "step3_sequential_addressing.cu"
STEP4 = "step4_first_add_during_load.cu"
LESSON06 = course.Lesson("lesson06", LESSON, [STEP3, STEP4])


def disguised(text):
    """The file as a student hiding a copy would hand it in: every comment replaced by one
    of their own, each local name and the kernel's name renamed, the layout redone."""
    text = re.sub(r"//[^\n]*", "", text)
    kernel = re.search(r"__global__ void (\w+)", text).group(1)
    locals_ = set(re.findall(r"\b(?:unsigned|size_t|int|float|T)\s*\*?\s+(\w+)\s*(?:=|;|,|\))", text))
    names = {n: f"my_{n}_{i}" for i, n in enumerate(sorted(locals_ | {kernel}))}
    text = re.sub(r"\b\w+\b", lambda m: names.get(m.group(), m.group()), text)
    text = "// my own reduction, written for the assignment\n" + re.sub(r"\{\n", "{  /* here we go */\n\n", text)
    return text, names


class Copies(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.shipped = copies.Shipped(ROOT)

    def submission(self, folder, files):
        for name, text in files.items():
            path = pathlib.Path(folder) / LESSON / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
        return copies.copied(self.shipped, folder, LESSON06)

    def test_a_disguised_copy_is_flagged_and_others_are_not(self):
        reference = (ROOT / "solutions" / LESSON / STEP3).read_text()
        copy, names = disguised(reference)
        self.assertGreaterEqual(len(names), 4, names)  # the disguise renamed the kernel and its variables
        self.assertNotIn("//!", copy)
        # Written otherwise: the same tree, its loop and its add spelled another way.
        own = reference.replace("stride /= 2", "stride >>= 1").replace("s[tid] += s[tid + stride]",
                                                                        "s[tid] = s[tid + stride] + s[tid]")
        self.assertEqual(len(re.findall(r">>= 1|= s\[tid \+ stride\] \+ s\[tid\]", own)), 2, "the reference changed")
        starter4 = (ROOT / "starter" / LESSON / STEP4).read_text()  # step 4's starter, as shipped
        with tempfile.TemporaryDirectory() as d:
            d = pathlib.Path(d)
            cheat = self.submission(d / "cheat", {STEP3: copy, STEP4: starter4})
            honest = self.submission(d / "honest", {STEP3: own, STEP4: starter4 + "\n// done later\n"})
        self.assertEqual(list(cheat), [STEP3])  # step 4 is its own starter: not flagged
        self.assertIn(f"solutions/{LESSON}/{STEP3}", cheat[STEP3])
        # The step after's starter holds this step's reference: the copy matches it too.
        self.assertTrue(any(s.startswith(f"starter/{LESSON}/{STEP4}") for s in cheat[STEP3]), cheat)
        # A starter whose comments alone changed matches step 3's reference: its own starter, not a flag.
        self.assertEqual(honest, {})

        # The flag reaches the gradebook, per exercise, and changes no verdict.
        def graded(name, found):
            return record(name, {"test": "lesson06", "dir": LESSON, "kernels": LESSON06.kernels, "missing": [],
                                 "unchanged": [], "copied": found, "listed": ["06.1 step 3", "06.2 step 4"],
                                 "log": "", "results": results("lesson06", status="skipped")})
        cols, rows = outputs.table([graded("cheat", cheat), graded("honest", honest)])
        book = {r["student"]: r for r in csv.DictReader(io.StringIO(outputs.gradebook_csv(cols, rows)))}
        self.assertIn(f"solutions/{LESSON}/{STEP3}", book["cheat"]["06.1 step 3 copied from"])
        self.assertEqual((book["cheat"]["06.2 step 4 copied from"], book["cheat"]["copied"]), ("", "1"))
        self.assertEqual((book["honest"]["06.1 step 3 copied from"], book["honest"]["copied"]), ("", "0"))
        self.assertEqual(book["cheat"]["06.1 step 3 verdict"], book["honest"]["06.1 step 3 verdict"])

    def test_a_copy_of_a_reference_is_not_also_a_copy_of_its_known_bad_variants(self):
        # Four of lesson 01's known-bad variants keep the reference's add_matrices_kernel (they
        # break the launcher): a copy of the reference is a copy of the reference alone.
        rel = "01-coalescing/matrix_mapping.cu"
        reference = (ROOT / "solutions" / rel).read_text()
        variants = [p for p in (ROOT / "lessons" / "01-coalescing" / "bad").glob("matrix_mapping_*.cu")
                    if copies.fingerprints(reference)[1].keys() & copies.fingerprints(p.read_text())[1].keys()]
        self.assertGreaterEqual(len(variants), 2, "no known-bad variant shares the reference's kernel any more")
        self.assertEqual(self.shipped.sources(disguised(reference)[0], f"starter/{rel}"), [f"solutions/{rel}"])
        # A variant's own broken kernel, copied, is still named: nothing else explains it.
        own = next(p for p in sorted((ROOT / "lessons" / "06-reduction" / "bad").glob("*.cu"))
                   if any("/bad/" in f for f in self.shipped.sources(p.read_text(), "")))
        found = self.shipped.sources(own.read_text(), "")
        self.assertIn(own.relative_to(ROOT).as_posix(), " ".join(found))

    def test_normal_forms(self):
        a = copies.fingerprints("__global__ void k(float* a, int n) { /* x */ int i = threadIdx.x;"
                                " if (i < n) a[i] += 1.0f; }" + " int pad;" * 20)
        b = copies.fingerprints("__global__ void q(float *out,\n int count) {\n  int t = threadIdx.x; // y\n"
                                "  if (t < count) out[t] += 1.0f;\n}" + " int pad;" * 20)
        self.assertEqual(a[0], b[0])
        c = copies.fingerprints("__global__ void k(float* a, int n) { int i = blockIdx.x;"
                                " if (i < n) a[i] += 1.0f; }" + " int pad;" * 20)
        self.assertNotEqual(a[0], c[0])  # a CUDA built-in is not a name to rename
        tokens = copies.tokens('printf("// not a comment"); x = \'/\' /* gone */ / 2.5e-3f;')
        self.assertEqual(tokens, ["printf", "(", '"// not a comment"', ")", ";", "x", "=", "'/'", "/", "2.5e-3f", ";"])
        kernels = copies.kernels(copies.tokens(
            "__global__ void decl(int);  template <int B> __global__ __launch_bounds__(256) void k(int* a)"
            " { if (a) { a[0] = B; } }  void host() {}  __global__ void open(int* a) { a[0] = 1;"))
        self.assertEqual([name for name, _ in kernels], ["k"])  # a declaration, or a body not closed, is no kernel
        self.assertEqual(" ".join(kernels[0][1]), "__global__ __launch_bounds__ ( 256 ) void k ( int * a ) "
                                                  "{ if ( a ) { a [ 0 ] = B ; } }")  # host() left out


if __name__ == "__main__":
    unittest.main()
