#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the course as students get it: without the references, the known-bad and known-good
variants, or any other answer.

    python3 tools/make_student_release.py OUT [--untracked] [--force] [--check]

The files come from `git ls-files` (so build folders, results and anything else git
ignores never leak); --untracked adds the files git does not track yet but would not
ignore (a lesson being written). Left out (LEFT_OUT below lists the paths): the references
(solutions/), the known-bad and known-good variants (lessons/*/bad/, lessons/*/good/: the
latter are correct solutions), CI (.ci/), and the instructor's tools
with their tests and page: the GPU self-test, the class grader and this script.

Rewritten, in every Markdown file: a block between `<!-- student-release: omit -->` and
`<!-- student-release: end -->` (each on a line of its own) is removed, so README.md can
say, for instance, how to run the course's own test suite without telling students a
command that cannot work in their copy; a theory page's appendix of reference code is
such a block, and a `\\snippet solutions/...` outside one stops the release. Then no page
may mention what the release lacks (a path of LEFT_OUT, a name of LEFT_OUT_NAMES, a \\ref to
a section only an omitted block holds): a mention that has a phrase becomes that phrase
("the course's GPU self-test"); otherwise the smallest passage that points at it goes: a
parenthetical, a clause of a ';' list, a sentence, a table row, a line of code
(rewrite_mentions). A paragraph so rewritten is wrapped again as wide as it was.

In every C, C++ and CUDA source, a block between `// student-release: omit` and
`// student-release: end` lines is removed: the lesson graders' copies of the references'
kernels, each with the macro (LESSON04_ANSWER_KERNELS, …) that the grader's other code
tests to build without them. In meson.options, the default of `revision` becomes the
source's `git describe`, so results files name the release.

The lessons' meson.build files are copied unchanged: their 'bad' and 'good' lists are read only by
a build configured with -Dkernels=solutions, which needs solutions/ and so stops at
configure time in a release ("solutions is not a folder") before any of them is read.
Stripping them would be a rewrite of Meson code for no effect.

Checked without building (problems_in_release): no file of the release reads as a
reference, whole or one `__global__` function at a time, once comments and names are taken
out (the class grader's comparison, class_grading/copies.py), but a starter as the reference
of a step before it, which it is by the course's design (answers_in); nothing left out is
shipped, imported, run or mentioned; the README's shell commands name no file the release
lacks. --check then proves the release works, in OUT: `meson setup build` and `meson test -C
build` as the README says (each lesson SKIPs without a GPU and fails with one, because
the starters are unfinished, but none may fail to build, break the policy or miss a file;
the grader's and the tools' own tests must pass), and the docs build with Doxygen warnings
as errors when Doxygen is installed. The build folder is removed afterwards. Exit status 0
when all of that holds.
"""
import argparse
import fnmatch
import pathlib
import re
import shutil
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from class_grading import copies, course  # noqa: E402  (beside this script)
from results_files import read_results_file, read_testlog  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent

# Paths (fnmatch patterns, relative to the course root) that a student release leaves out,
# each with the phrase that replaces a shipped page's mention of it, or None: then the
# passage that mentions it goes (rewrite_mentions). A phrase is given only to what a page
# names while saying something else worth keeping (how a table was measured).
LEFT_OUT = {
    "solutions/*": None,
    "lessons/*/bad/*": None,
    "lessons/*/good/*": None,  # unusual but correct kernels: solutions
    ".ci/*": None,
    "tools/gpu_selftest.py": "the course's GPU self-test",
    "tools/tests/test_gpu_selftest.py": None,
    "tools/grade_class.py": None,
    "tools/class_grading/*": None,
    "tools/tests/test_grade_class*": None,
    "tools/tests/class_fixture*": None,
    "tools/tests/run_class_grading.sh": None,
    "tools/tests/slurm*": None,
    "tools/make_student_release.py": None,
    "tools/tests/test_student_release.py": None,
    "docs/class_grading.md": None,  # the class grader's page
    "docs/adding_a_lesson.md": None,  # for course developers: solutions, known-bad variants
    "docs/figures/lesson_flow.svg": None,  # its figure
}
# Names, not paths, of what the release lacks: the build of solutions/ that README.md and the
# lesson pages run the course's own test suite in.
LEFT_OUT_NAMES = {"build-ref": "the course's own test suite"}
# The Python modules of the tools left out (tools/NAME.py, tools/NAME/): nothing left in the
# release may import one.
LEFT_OUT_MODULES = {p.split("/")[1].removesuffix(".py") for p in LEFT_OUT
                    if p.startswith("tools/") and not p.startswith("tools/tests/")}
# A path of a tool in a shell script (python3 tools/grade_class.py, ./tools/tests/x.sh).
TOOL_PATH = re.compile(r"(?<![\w/.-])(?:\./)?(tools/[\w./-]*\.(?:py|sh))")

# A block the release removes, each marker on a line of its own: in Markdown, and in C, C++
# and CUDA sources (where the omit marker may say, after it, what the block holds).
OMIT, END = "<!-- student-release: omit -->", "<!-- student-release: end -->"
SOURCE_OMIT, SOURCE_END = "// student-release: omit", "// student-release: end"
SOURCE_SUFFIXES = (".cu", ".cuh", ".cpp", ".hpp", ".h")
# A page's reference code, shown from solutions/: allowed only inside an omit block.
SNIPPET = re.compile(r"^(\s*)\\(snippet|include|includelineno|dontinclude)\s+(solutions/\S+).*$")
# A Doxygen anchor a page defines: {#name} after a heading, or \anchor name.
ANCHOR = re.compile(r"\{#(\w+)\}|\\anchor\s+(\w+)")


def mention_regex(pattern):
    """The text of a mention of a LEFT_OUT pattern: the path (a folder's with anything under
    it, a * as any name); a file without a * also by its bare name (`grade_class.py`); a page
    of the site (docs/NAME.md, whose anchor is NAME) also by a \\ref or \\subpage to it."""
    folder, _, base = pattern.rpartition("/")
    name = r"[\w.*-]*"
    if base == "*":
        return re.escape(folder).replace(r"\*", name) + r"/[\w./*-]*"
    if "*" in pattern:
        return re.escape(pattern).replace(r"\*", name)
    rx = (f"(?:{re.escape(folder)}/)?" if folder else "") + re.escape(base)
    if folder == "docs" and base.endswith(".md"):
        rx += r"|\\(?:ref|subpage)\s+" + re.escape(base[:-3]) + r"\w*"
    return rx


# Each mention (a regex) with its phrase. Not inside a longer path or name: `-Dkernels=solutions`
# and the anchor class_grading are no mentions.
MENTIONS = [(re.compile(r"(?<![\w/.-])(?:\./)?(?:" + rx + r")(?![\w-])"), phrase)
            for rx, phrase in [(mention_regex(p), phrase) for p, phrase in LEFT_OUT.items()]
            + [(re.escape(n), phrase) for n, phrase in LEFT_OUT_NAMES.items()]]
CODE_OR_WORD = re.compile(r"`[^`]*`|[^\s`]+")
PAREN = re.compile(r"\s*\([^()]*\)")  # an aside: one that mentions what the release lacks goes whole
LIST_MARK = re.compile(r"\s*(?:[-*+]|\d+\.)\s+")
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`*\"(\\])")
ABBREVIATIONS = ("e.g.", "i.e.", "vs.", "cf.", "etc.")
# What a rewrapped line may not start with: it would open a list, a heading, a table row, a
# quote or a code fence.
BLOCK_START = re.compile(r"(?:[-*+>]|\d+[.)]|#+|\|.*|```.*|~~~.*)")


class Lacking:
    """What the release lacks, as a page may mention it: MENTIONS, and a \\ref or \\subpage to
    one of `anchors` (anchors that only an omitted block defines, so the release has no such
    page or section). `any` finds any mention."""

    def __init__(self, anchors=()):
        self.mentions = list(MENTIONS)
        if anchors:
            names = "|".join(re.escape(a) for a in sorted(anchors))
            self.mentions.append((re.compile(r"\\(?:ref|subpage)\s+(?:" + names + r")(?!\w)"), None))
        self.any = re.compile("|".join(f"(?:{rx.pattern})" for rx, _ in self.mentions))

    def phrase_for(self, text):
        """The phrase that replaces text (a code span or a word) mentioning something left
        out, or None when one of its mentions has none."""
        phrases = [phrase for rx, phrase in self.mentions if rx.search(text)]
        return phrases[0] if phrases and all(phrases) else None


LACKING = Lacking()  # what every release lacks; a release's own adds the anchors of its omitted blocks


def sentences(text):
    """The sentences of a paragraph's text (not split after e.g., i.e. and the like)."""
    out = []
    for piece in SENTENCE_END.split(text):
        if out and out[-1].endswith(ABBREVIATIONS):
            out[-1] += " " + piece
        else:
            out.append(piece)
    return out


def rewrite_sentence(sentence, lacking=LACKING):
    """The sentence without its mentions of what the release lacks, or "" when nothing is left."""
    found = lacking.any.search
    if not found(sentence):
        return sentence
    sentence = PAREN.sub(lambda m: "" if found(m.group()) else m.group(), sentence)
    clauses = sentence.split("; ")
    if len(clauses) > 1:  # a list: an entry that starts with a mention names it, whatever its phrase
        clauses = [c for c in clauses if not ((first := CODE_OR_WORD.search(c)) and found(first.group()))]

    def named(m):
        phrase = lacking.phrase_for(m.group())
        if phrase is None:
            return m.group()
        return phrase[0].upper() + phrase[1:] if m.start() == 0 else phrase
    clauses = [CODE_OR_WORD.sub(lambda m: named(m) if found(m.group()) else m.group(), c) for c in clauses]
    kept = [c for c in clauses if not found(c)]
    if not kept:
        return ""
    text = "; ".join(kept)
    end = sentence.rstrip()[-1:]
    return text if text.rstrip()[-1:] in ".!?:" or end not in ".!?:" else text.rstrip(" ,;") + end


def wrapped(first, rest, body, width):
    """`body` as lines of at most `width` characters where words allow: the first line begins
    with `first` (a list mark or an indent), the others with `rest`. A code span is never
    broken, and no line begins with what Markdown would read as the start of another block."""
    lines, line, empty = [], first, True
    for word in re.findall(r"(?:`[^`]*`|[^\s`]|`)+", body):
        if not empty and len(line) + 1 + len(word) > width and not BLOCK_START.fullmatch(word):
            lines.append(line)
            line = rest + word
        else:
            line += ("" if empty else " ") + word
        empty = False
    return lines + [line]


def rewrite_mentions(lines, lacking=LACKING):
    """Markdown lines without mentions of what the release lacks (see the module's docstring).
    A paragraph or list item that changes is wrapped again as wide as its widest line was;
    headings are left for the check to report."""
    found = lacking.any.search
    out, fence, i = [], None, 0
    while i < len(lines):
        line = lines[i]
        s = line.strip()
        if s.startswith(("```", "~~~")):
            fence = None if fence and s.startswith(fence) else fence or s[:3]
            out.append(line)
        elif fence or line.startswith("    ") or not s:
            if not found(line):  # code, fenced or indented: a line that mentions it goes
                out.append(line)
        elif s.startswith("|"):
            row = PAREN.sub(lambda m: "" if found(m.group()) else m.group(), line)
            header = i + 1 < len(lines) and re.fullmatch(r"\s*\|[\s|:-]+\|\s*", lines[i + 1])
            if header or not found(row):
                out.append(row)
        elif s.startswith("#"):
            out.append(line)
        else:
            # A paragraph or list item: this line and its continuation lines.
            j = i + 1
            while (j < len(lines) and lines[j].strip() and not LIST_MARK.match(lines[j])
                   and not lines[j].strip().startswith(("|", "#", "```", "~~~"))):
                j += 1
            item = lines[i:j]
            text = " ".join(x.strip() for x in item)
            if found(text):
                mark = LIST_MARK.match(item[0])
                first = mark.group() if mark else item[0][:len(item[0]) - len(item[0].lstrip())]
                rest = item[1][:len(item[1]) - len(item[1].lstrip())] if len(item) > 1 else " " * len(first)
                body = " ".join(filter(None, (rewrite_sentence(x, lacking)
                                              for x in sentences(text[len(first.strip()):].strip()))))
                item = wrapped(first, rest, body, max(len(x.rstrip()) for x in item)) if body else []
            out += item
            i = j
            continue
        i += 1
    return out


def left_out(path):
    return any(fnmatch.fnmatch(path, pattern) for pattern in LEFT_OUT)


def course_files(root, untracked=False):
    """The course's files as git lists them, relative to root, that exist in the working tree."""
    cmd = ["git", "-C", str(root), "ls-files", "-z", "--cached"] + (["--others", "--exclude-standard"] if untracked else [])
    out = subprocess.run(cmd, check=True, capture_output=True).stdout.decode()
    return sorted({p for p in out.split("\0") if p and (root / p).is_file()})


def blocks(text, name, omit, end):
    """[(line number, line, omitted)] for each line of `text` that is no marker; `omit(line)`
    and `end(line)` say which lines open and close an omitted block. Raises ValueError for
    an unbalanced marker."""
    out, opened = [], None
    for number, line in enumerate(text.split("\n"), 1):
        if omit(line):
            if opened:
                raise ValueError(f"{name}:{number}: an omit marker inside the block opened on line {opened}")
            opened = number
        elif end(line):
            if not opened:
                raise ValueError(f"{name}:{number}: an end marker without an omit marker before it")
            opened = None
        else:
            out.append((number, line, opened is not None))
    if opened:
        raise ValueError(f"{name}:{opened}: an omit marker never closed by an end marker")
    return out


def markdown_blocks(text, name="the file"):
    return blocks(text, name, lambda line: line.strip() == OMIT, lambda line: line.strip() == END)


def source_blocks(text, name="the file"):
    return blocks(text, name, lambda line: line.strip() == SOURCE_OMIT or line.strip().startswith(SOURCE_OMIT + " "),
                  lambda line: line.strip() == SOURCE_END)


def strip_source(text, name="the file"):
    """C, C++ or CUDA source without its omitted blocks (and their markers)."""
    return "\n".join(line for _, line, omitted in source_blocks(text, name) if not omitted)


def omitted_anchors(pages):
    """The anchors that only omitted blocks of `pages` ((name, Markdown text) pairs) define."""
    inside, outside = set(), set()
    for name, text in pages:
        for _, line, omitted in markdown_blocks(text, name):
            for m in ANCHOR.finditer(line):
                (inside if omitted else outside).add(m.group(1) or m.group(2))
    return inside - outside


def rewrite_markdown(text, name="the file", lacking=LACKING):
    """The text with its student-release: omit blocks removed, then rewrite_mentions. Raises
    ValueError for an unbalanced marker, and for reference code (a \\snippet of solutions/)
    outside an omitted block: a page's appendix of reference code must be marked."""
    kept = []
    for number, line, omitted in markdown_blocks(text, name):
        if omitted:
            continue
        if SNIPPET.match(line):
            raise ValueError(f"{name}:{number}: reference code outside a '{OMIT}' block: {line.strip()}")
        kept.append(line)
    return "\n".join(rewrite_mentions(kept, lacking))


def lacking_in(root, files):
    """What a release of `files` (paths relative to the course `root`) lacks: Lacking with
    the anchors that only the omitted blocks of its pages define."""
    return Lacking(omitted_anchors((p, (root / p).read_text(encoding="utf-8")) for p in files if p.endswith(".md")))


def write_release(out, root=ROOT, untracked=False):
    """Writes the release into `out` (which must not exist); returns the files written."""
    files = [p for p in course_files(root, untracked) if not left_out(p)]
    lacking = lacking_in(root, files)
    written = []
    for path in files:
        src, dst = root / path, out / path
        dst.parent.mkdir(parents=True, exist_ok=True)
        if path.endswith(".md"):
            dst.write_text(rewrite_markdown(src.read_text(encoding="utf-8"), path, lacking), encoding="utf-8")
        elif path.endswith(SOURCE_SUFFIXES):
            dst.write_text(strip_source(src.read_text(encoding="utf-8"), path), encoding="utf-8")
        else:
            shutil.copyfile(src, dst)
        shutil.copymode(src, dst)
        written.append(path)
    options = out / "meson.options"
    rev = course.revision(root)
    if rev != "unknown" and options.is_file():
        text = options.read_text(encoding="utf-8")
        new = text.replace("option('revision', type: 'string', value: ''", f"option('revision', type: 'string', value: '{rev}-student'", 1)
        options.write_text(new, encoding="utf-8")
    return written


def step_of(name):
    """The step a kernel file's name numbers (`1_tiled.cu`, `step1_…`: 1), or None."""
    m = re.match(r"\D*(\d+)", name)
    return int(m.group(1)) if m else None


# By the course's design each step's starter is the reference of a step before it (copies.py
# says so too): a starter may read as a reference of an earlier step of its own lesson. As its
# own step's reference it may read one kernel at a time only where the exercise lies outside
# the kernel; each such starter, and why:
SAME_KERNEL_AS_ITS_REFERENCE = {
    "starter/04-convolution/1_constant_filter.cu":
        "the exercise is the filter's declaration: __device__ in the starter, __constant__ in the reference",
}


def may_read_as(rel, ref, whole):
    """Whether the shipped file `rel` may read as the reference `ref` (whole, or one kernel)."""
    if not rel.startswith("starter/") or rel.count("/") != 2 or ref.count("/") != 2:
        return False
    _, lesson, name = rel.split("/")
    _, ref_lesson, ref_name = ref.split("/")
    mine, theirs = step_of(name), step_of(ref_name)
    if lesson != ref_lesson:
        return False
    if mine is not None and theirs is not None and theirs < mine:
        return True
    return name == ref_name and not whole and rel in SAME_KERNEL_AS_ITS_REFERENCE


def answers_in(out, root=ROOT):
    """Where the release in `out` holds a reference of the course at `root`: each file that
    reads as a file of solutions/ once comments, whitespace and names are taken out, whole or
    one `__global__` function at a time (the class grader's comparison, copies.py), unless it
    is a starter that may (may_read_as), or a grader's kernel that a starter of its lesson
    ships as well, where that starter may. One line per match."""
    shipped = copies.Shipped(root)
    found = []
    # The kernels the release's starters ship, by form: a lesson's grader may time its own copy
    # of a starter's kernel (the yardstick of a step, lesson 09), which reads as the reference of
    # the step before exactly as the starter does, and shows nothing the starter does not.
    starter_kernels = {}
    for p in sorted(out.glob("starter/*/*")):
        if p.is_file():
            for form in copies.fingerprints(p.read_text(encoding="utf-8", errors="replace"))[1]:
                starter_kernels.setdefault(form, []).append(p.relative_to(out).as_posix())

    def shipped_by_a_starter(rel, form, ref):
        if not rel.startswith("lessons/") or "/grader/" not in rel:
            return False
        lesson = rel.split("/")[1]
        return any(s.split("/")[1] == lesson and may_read_as(s, ref, False) for s in starter_kernels.get(form, []))

    for p in sorted(out.rglob("*")):
        rel = p.relative_to(out).as_posix()
        if not p.is_file():
            continue
        whole, kernels = copies.fingerprints(p.read_text(encoding="utf-8", errors="replace"))
        for ref in shipped.files.get(whole, []):
            if ref.startswith("solutions/") and not may_read_as(rel, ref, True):
                found.append(f"{rel}: reads as {ref}, a reference, once comments and names are taken out")
        for form, name in kernels.items():
            for ref, ref_name in shipped.kernels.get(form, []):
                if ref.startswith("solutions/") and not may_read_as(rel, ref, False) and \
                        not shipped_by_a_starter(rel, form, ref):
                    found.append(f"{rel}: its kernel {name} reads as {ref_name} of {ref}, a reference")
    return found


def problems_in_release(out, root=ROOT):
    """What would make the release of the course at `root` wrong, without building it: files
    that should have been left out, imports of left-out modules, shell scripts that run a
    left-out tool, reference code (answers_in), blocks not removed, mentions of what the
    release lacks, and README commands that name a file the release lacks or a build of
    solutions/."""
    problems = answers_in(out, root)
    lacking = lacking_in(root, [p for p in course_files(root, untracked=True) if not left_out(p)])
    for p in sorted(out.rglob("*")):
        rel = p.relative_to(out).as_posix()
        if p.is_file() and left_out(rel):
            problems.append(f"{rel}: should have been left out")
        if p.suffix in SOURCE_SUFFIXES and p.is_file():
            for n, line in enumerate(p.read_text(encoding="utf-8", errors="replace").split("\n"), 1):
                if line.strip().startswith((SOURCE_OMIT, SOURCE_END)):
                    problems.append(f"{rel}:{n}: not removed: {line.strip()}")
        if p.suffix == ".py" and p.is_file():
            for m in re.finditer(r"^\s*(?:from|import)\s+([A-Za-z_][\w.]*)", p.read_text(encoding="utf-8"), re.M):
                if m.group(1).split(".")[0] in LEFT_OUT_MODULES:
                    problems.append(f"{rel}: imports {m.group(1)}, which the release leaves out")
        if p.suffix == ".sh" and p.is_file():
            for m in TOOL_PATH.finditer(p.read_text(encoding="utf-8")):
                if left_out(m.group(1)):
                    problems.append(f"{rel}: names {m.group(1)}, which the release leaves out")
        if p.suffix == ".md" and p.is_file():
            for n, line in enumerate(p.read_text(encoding="utf-8").split("\n"), 1):
                if SNIPPET.match(line) or line.strip() in (OMIT, END):
                    problems.append(f"{rel}:{n}: not rewritten: {line.strip()}")
                for m in lacking.any.finditer(line):
                    problems.append(f"{rel}:{n}: mentions {m.group()}, which the release lacks")
    readme = out / "README.md"
    if readme.is_file():
        problems += [f"README.md: {p}" for p in readme_command_problems(readme.read_text(encoding="utf-8"), out)]
    return problems


def shell_lines(markdown):
    """The lines of the Markdown's fenced shell blocks (```sh, ```bash, ```shell, ```console)."""
    lines, fence = [], None
    for line in markdown.split("\n"):
        s = line.strip()
        if fence is None and s.startswith("```"):
            fence = s[3:].strip()
        elif fence is not None and s.startswith("```"):
            fence = None
        elif fence in ("sh", "bash", "shell", "console"):
            lines.append(s[2:] if s.startswith("$ ") else s)
    return lines


def readme_command_problems(markdown, out):
    problems = []
    for line in shell_lines(markdown):
        for word in line.split():
            if "solutions" in word:
                problems.append(f"`{line}` needs solutions/, which the release leaves out")
            elif re.fullmatch(r"(tools|lessons|starter|docs|grader)/[\w./-]*\.(py|sh)", word) and not (out / word).is_file():
                problems.append(f"`{line}` runs {word}, which the release lacks")
    return problems


def run(cmd, cwd, log):
    print("$", " ".join(cmd), flush=True)
    r = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    log.append(r.stdout)
    if r.returncode != 0:
        print(r.stdout[-4000:])
    return r.returncode


def check_release(out, keep_build=False):
    """Builds and tests the release in `out` as the README tells students to; returns the
    problems found (an empty list when it works)."""
    problems = problems_in_release(out)
    log, build = [], out / "build"
    if run(["meson", "setup", "build"], out, log) != 0:
        return problems + ["`meson setup build` failed in the release"]
    try:
        run(["meson", "test", "-C", "build", "--print-errorlogs"], out, log)  # lessons fail on a GPU: read the log
        tests = read_testlog(build / "meson-logs" / "testlog.json", stdout=False)
        names = {name: t["result"] for name, t in tests.items()}
        if not names:
            problems.append("`meson test -C build` ran no test")
        for name, result in sorted(names.items()):
            if "-bad-" in name or "-good-" in name:
                problems.append(f"{name}: a known-bad or known-good test exists in the release")
            elif name.startswith("lesson"):
                doc, why = read_results_file(build / "results" / f"{name}.json")
                status = doc.get("status") if doc else why
                # A starter is unfinished: it fails on a GPU (graded) or skips without one.
                if status not in ("graded", "skipped") or result not in ("OK", "FAIL", "SKIP"):
                    problems.append(f"{name}: {result}, status {status} (a starter must build, keep the policy and be graded or skipped)")
            elif result != "OK":
                problems.append(f"{name}: {result} (the grader's and the tools' own tests must pass)")
        print("tests: " + ", ".join(f"{n} {r}" for n, r in sorted(names.items())), flush=True)
        if shutil.which("doxygen"):
            if (run(["meson", "configure", "build", "-Ddocs=enabled", "-Ddocs_strict=true"], out, log) != 0
                    or run(["ninja", "-C", "build", "docs"], out, log) != 0):
                warnings = build / "docs" / "doxygen-warnings.log"
                problems.append("the docs do not build without warnings in the release"
                                + (":\n" + warnings.read_text(errors="replace")[-3000:] if warnings.is_file() else ""))
            elif not (build / "docs" / "html" / "index.html").is_file():
                problems.append("the docs build wrote no build/docs/html/index.html")
        else:
            print("docs: not checked (no doxygen)")
    finally:
        if not keep_build:
            shutil.rmtree(build, ignore_errors=True)
    return problems


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", type=pathlib.Path, help="the folder to write (must not exist, unless --force)")
    ap.add_argument("--untracked", action="store_true", help="also files git does not track yet but would not ignore")
    ap.add_argument("--force", action="store_true", help="replace OUT if it exists")
    ap.add_argument("--check", action="store_true", help="then build, test and build the docs in OUT")
    ap.add_argument("--keep-build", action="store_true", help="with --check: keep OUT/build")
    args = ap.parse_args(argv)
    out = args.out.resolve()
    if out == ROOT or ROOT in out.parents:
        ap.error(f"{out} lies inside the course; write the release elsewhere")
    if out.exists():
        if not args.force:
            ap.error(f"{out} exists (--force replaces it)")
        shutil.rmtree(out)
    try:
        written = write_release(out, ROOT, args.untracked)
    except ValueError as e:
        sys.exit(f"make_student_release: {e}")
    print(f"wrote {len(written)} files to {out}")
    problems = check_release(out, args.keep_build) if args.check else problems_in_release(out)
    for p in problems:
        print("PROBLEM", p)
    if args.check:
        print("student release: " + ("works" if not problems else f"{len(problems)} problem(s)"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
