# SPDX-License-Identifier: MIT
"""The mechanism checks' rules (lessons/*/technique.txt, grader/supervisor/technique.hpp) against the
course's own files.

Without a CUDA toolkit: every rule names a file the lesson has, a theory section its page
has, and every known-bad variant listed for 'technique' has a rule to be rejected by.

Where nvcc, cuobjdump and a host C++ compiler are installed: each checked exercise's starter
must fail its rule and its reference must pass it, every known-bad variant listed with
'reject': 'technique' must fail it (except those listed with grade's `--technique-from-ran`, whose fake
only the kernels the timed calls ran give away: their compiled code must hold the rule,
which is why the check reads what ran), every known-good variant of a checked exercise
must hold it, and the unusual but correct kernels of
tools/tests/fixtures/technique/ must be decided as their `// technique: EX holds|fails`
line says. Each file is compiled for one architecture, sm_75 (the oldest the course
supports, and the build's own default without a GPU), to keep the test short; set
TECHNIQUE_ARCHS="sm_75 sm_86 sm_90 sm_120" to check more. The rules were chosen on SASS
features those four share (docs/thresholds.md, "Mechanism checks"). A rule `from sm_NN` (09.3's, which
needs cp.async) is not checked on older architectures. TECHNIQUE_LESSONS="09" checks one
lesson's rules only.

cuobjdump is found as `grade` finds it (PATH, beside nvcc, $CUDA_HOME/bin, $CUDA_PATH/bin,
/usr/local/cuda/bin), or in $CUOBJDUMP, or in a pip-installed nvidia-cuda-cuobjdump. Without
it the compiled-code tests skip and say so. A student release lacks solutions/ and the
known-bad variants, and its starter/ holds the student's own work: there only the fixtures
are checked."""
import concurrent.futures
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = pathlib.Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tools" / "tests" / "fixtures" / "technique"
ARCHS = os.environ.get("TECHNIQUE_ARCHS", "sm_75").split()
# TECHNIQUE_LESSONS="09 03": only those lessons' rules (and fixtures), for a quick check of one lesson.
LESSONS = os.environ.get("TECHNIQUE_LESSONS", "").split()


def rules_files():
    return sorted(p for p in ROOT.glob("lessons/*/technique.txt") if not LESSONS or p.parent.name[:2] in LESSONS)


def rules_from_sm(path):
    """{exercise: NN} for the rules of one technique file that read only sm_NN and newer (`from sm_NN`)."""
    out, exercise = {}, None
    for line in path.read_text(encoding="utf-8").splitlines():
        m = re.match(r"\s*\[(\S+)\s+(\S+)\]\s*$", line)
        if m:
            exercise = m.group(1)
        f = re.match(r"\s*from\s+sm_(\d+)\s*$", line)
        if f and exercise:
            out[exercise] = int(f.group(1))
    return out


def arch_number(arch):
    return int(re.sub(r"\D", "", arch) or 0)


def parse_rules(path):
    """[(exercise, file, section)] of one technique file, in its order."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        m = re.match(r"\s*\[(\S+)\s+(\S+)\]\s*$", line)
        if m:
            out.append([m.group(1), m.group(2), ""])
        elif line.strip().startswith("theory ") and out:
            out[-1][2] = line.strip()[len("theory "):].strip()
    return [tuple(r) for r in out]


def known_bad(lesson_dir):
    """The known-bad variants a lesson's meson.build lists: dicts of name, file, replaces,
    reject, exercise, and from_ran: True for a variant whose fake only the kernels its timed
    calls ran give away (grade's --technique-from-ran), which its compiled code cannot show."""
    text = (lesson_dir / "meson.build").read_text(encoding="utf-8")
    fields = r"\{\s*'name':\s*'([^']+)',\s*'file':\s*'([^']+)',\s*'replaces':\s*'([^']+)',\s*'reject':\s*'([^']+)',\s*" \
             r"'exercise':\s*'([^']+)'([^}]*)\}"
    out = []
    for m in re.finditer(fields, text):
        bad = dict(zip(("name", "file", "replaces", "reject", "exercise"), m.groups()[:5]))
        bad["from_ran"] = "'--technique-from-ran'" in m.group(6)
        out.append(bad)
    return out


def known_good(lesson_dir):
    """The known-good variants a lesson's meson.build lists: dicts of name, file, replaces, exercise."""
    text = (lesson_dir / "meson.build").read_text(encoding="utf-8")
    fields = r"\{\s*'name':\s*'([^']+)',\s*'file':\s*'(good/[^']+)',\s*'replaces':\s*'([^']+)',\s*'exercise':\s*'([^']+)'"
    return [dict(zip(("name", "file", "replaces", "exercise"), m.groups())) for m in re.finditer(fields, text)]


def lesson_kernels(lesson_dir):
    text = (lesson_dir / "meson.build").read_text(encoding="utf-8")
    m = re.search(r"'kernels':\s*\[([^\]]*)\]", text)
    return re.findall(r"'([^']+)'", m.group(1)) if m else []


def find_cuobjdump():
    if os.environ.get("CUOBJDUMP"):
        return os.environ["CUOBJDUMP"]
    found = shutil.which("cuobjdump")
    if found:
        return found
    nvcc = shutil.which("nvcc")
    candidates = [pathlib.Path(os.path.realpath(nvcc)).parent / "cuobjdump"] if nvcc else []
    candidates += [pathlib.Path(os.environ[v]) / "bin" / "cuobjdump" for v in ("CUDA_HOME", "CUDA_PATH") if os.environ.get(v)]
    candidates.append(pathlib.Path("/usr/local/cuda/bin/cuobjdump"))
    # The PyPI wheel (nvidia-cuda-cuobjdump) puts it under site-packages/nvidia/cuNN/bin.
    candidates += [p for d in sys.path if d for p in pathlib.Path(d).glob("nvidia/*/bin/cuobjdump")]
    return next((str(c) for c in candidates if c.is_file() and os.access(c, os.X_OK)), None)


def find_nvcc():
    return shutil.which("nvcc") or next((p for p in ["/usr/local/cuda/bin/nvcc"] if os.access(p, os.X_OK)), None)


class RulesMatchTheCourse(unittest.TestCase):
    """No toolkit needed: the rules, the lessons' files and pages, the known-bad lists agree."""

    def test_every_rule_names_a_lesson_file_and_a_theory_section(self):
        self.assertTrue(rules_files(), "no lessons/*/technique.txt")
        for path in rules_files():
            lesson = path.parent
            headings = re.findall(r"^## (.+?)(?:\s+\{#[\w-]+\})?\s*$", (lesson / "theory.md").read_text(encoding="utf-8"), re.M)
            for exercise, file, section in parse_rules(path):
                with self.subTest(rules=path.name, exercise=exercise):
                    self.assertTrue(exercise.startswith(lesson.name[:2] + "."), f"{exercise} is not an exercise of {lesson.name}")
                    self.assertIn(file, lesson_kernels(lesson))
                    self.assertTrue((ROOT / "starter" / lesson.name / file).is_file())
                    self.assertIn(section, headings, f"{lesson.name}/theory.md has no section \"{section}\"")

    def test_every_variant_rejected_for_its_technique_has_a_rule(self):
        for path in rules_files():
            rules = {exercise: file for exercise, file, _ in parse_rules(path)}
            for bad in known_bad(path.parent):
                if "technique" not in bad["reject"].split(","):
                    continue
                with self.subTest(variant=bad["name"]):
                    exercise = bad["exercise"].rstrip("*")
                    self.assertIn(exercise, rules)
                    self.assertEqual(rules[exercise], bad["replaces"])
                    if (path.parent / "bad").is_dir():  # a student release has none
                        self.assertTrue((path.parent / bad["file"]).is_file())


class RulesOnCompiledCode(unittest.TestCase):
    """The rules on the machine code nvcc makes of the course's files (needs the toolkit)."""

    @classmethod
    def setUpClass(cls):
        cls.nvcc, cls.cuobjdump = find_nvcc(), find_cuobjdump()
        cls.cxx = shutil.which(os.environ.get("CXX", "c++")) or shutil.which("g++")
        missing = [n for n, v in (("nvcc", cls.nvcc), ("cuobjdump", cls.cuobjdump), ("a C++ compiler", cls.cxx)) if not v]
        if missing:
            raise unittest.SkipTest(f"{', '.join(missing)} not found: the rules are not checked on compiled code here "
                                    "(pip install nvidia-cuda-cuobjdump brings cuobjdump)")
        cls.tmp = tempfile.TemporaryDirectory(prefix="technique-rules-")
        cls.probe = pathlib.Path(cls.tmp.name) / "technique_probe"
        sources = [ROOT / "grader" / f for f in ("supervisor/technique.cpp", "supervisor/sass_flow.cpp", "common/text_file.cpp",
                                                 "common/verdict.cpp", "tests/technique_probe.cpp")]
        subprocess.run([cls.cxx, "-std=c++17", "-O1", f"-I{ROOT}", *map(str, sources), "-o", str(cls.probe)], check=True)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def cases(self):
        """(rules file, exercise, source, contract folder, expected: True holds, False fails, label)."""
        out = []
        for path in rules_files():
            lesson = path.parent
            contract = lesson / "contract"
            rules = parse_rules(path)
            for exercise, file, _ in rules:
                # The starter only beside its reference: in a student release (no solutions/)
                # starter/ holds the student's own work, which had better pass.
                if (ROOT / "solutions" / lesson.name / file).is_file():
                    out.append((path, exercise, ROOT / "starter" / lesson.name / file, contract, False, "starter"))
                    out.append((path, exercise, ROOT / "solutions" / lesson.name / file, contract, True, "reference"))
            for bad in known_bad(lesson):
                if "technique" in bad["reject"].split(",") and (lesson / bad["file"]).is_file():
                    # A fake that only the kernels the timed calls ran give away holds on compiled code:
                    # that it does is why those variants need the record (grader/supervisor/technique_ran.hpp).
                    out.append((path, bad["exercise"].rstrip("*"), lesson / bad["file"], contract, bad["from_ran"],
                                "known-bad " + bad["name"] + (" (compiled code fakes it)" if bad["from_ran"] else "")))
            # A known-good variant of an exercise with a rule (an unusual but correct kernel) must hold it.
            checked = {e: f for e, f, _ in rules}
            for good in known_good(lesson):
                exercise = good["exercise"].rstrip("*")
                if checked.get(exercise) == good["replaces"] and (lesson / good["file"]).is_file():
                    out.append((path, exercise, lesson / good["file"], contract, True, "known-good " + good["name"]))
        for fixture in sorted(FIXTURES.glob("*.cu")):
            m = re.search(r"^// technique: (\S+) (holds|fails)$", fixture.read_text(encoding="utf-8"), re.M)
            self.assertIsNotNone(m, f"{fixture.name}: no '// technique: EX holds|fails' line")
            exercise = m.group(1)
            if LESSONS and exercise[:2] not in LESSONS:
                continue
            lesson = next(p.parent for p in rules_files() if p.parent.name.startswith(exercise[:2] + "-"))
            out.append((lesson / "technique.txt", exercise, fixture, lesson / "contract", m.group(2) == "holds", "fixture"))
        return out

    def decide(self, number, case, arch):
        rules, exercise, source, contract, _, _ = case
        # Numbered: a starter and its reference share a folder name and a file name.
        obj = pathlib.Path(self.tmp.name) / f"{number}_{source.stem}.{arch}.o"
        built = subprocess.run([self.nvcc, f"-arch={arch}", "-c", f"-I{contract}", str(source), "-o", str(obj)],
                               capture_output=True, text=True)
        if built.returncode != 0:
            return None, built.stderr[-2000:]
        run = subprocess.run([str(self.probe), str(rules), exercise, str(obj)], capture_output=True, text=True,
                             env={**os.environ, "CUOBJDUMP": self.cuobjdump})
        return run.returncode, run.stdout.strip() + run.stderr.strip()

    def test_starters_fail_references_and_unusual_kernels_pass_known_bad_fail(self):
        # A rule `from sm_NN` reads no code for older architectures (the exercise skips there).
        from_sm = {(path, e): sm for path in rules_files() for e, sm in rules_from_sm(path).items()}
        cases = [(c, arch) for c in self.cases() for arch in ARCHS if arch_number(arch) >= from_sm.get((c[0], c[1]), 0)]
        # nvcc is the slow part: two at a time, which the course's 2-core machines bear.
        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
            results = list(pool.map(lambda nca: self.decide(nca[0], *nca[1]), enumerate(cases)))
        for (case, arch), (rc, text) in zip(cases, results):
            _, exercise, source, _, holds, label = case
            with self.subTest(exercise=exercise, file=source.name, arch=arch, kind=label):
                self.assertIsNotNone(rc, f"{source} did not compile for {arch}: {text}")
                self.assertIn(rc, (0, 1), text)
                if holds:
                    self.assertEqual(rc, 0, f"{label} {source.name} ({arch}) should show {exercise}'s technique: {text}")
                else:
                    self.assertEqual(rc, 1, f"{label} {source.name} ({arch}) should lack {exercise}'s technique")
                    self.assertTrue(text.startswith("in ") or text.endswith("holds no kernel"), text)


if __name__ == "__main__":
    unittest.main()
