#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the course as students get it: without the references and the known-bad and known-good
variants.

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
command that cannot work in their copy; a `\\snippet solutions/...` line, with which a
theory page shows reference code, becomes a note. Then no page may mention what the release
lacks (a path of LEFT_OUT, a name of LEFT_OUT_NAMES): a mention that has a phrase becomes
that phrase ("the course's GPU self-test"); otherwise the smallest passage that points at it
goes: a parenthetical, a clause of a ';' list, a sentence, a table row, a line of code
(rewrite_mentions). In meson.options, the default of `revision` becomes the source's
`git describe`, so results files name the release.

The lessons' meson.build files are copied unchanged: their 'bad' and 'good' lists are read only by
a build configured with -Dkernels=solutions, which needs solutions/ and so stops at
configure time in a release ("solutions is not a folder") before any of them is read.
Stripping them would be a rewrite of Meson code for no effect.

--check then proves the release works, in OUT: `meson setup build` and `meson test -C
build` as the README says (each lesson SKIPs without a GPU and fails with one, because
the starters are unfinished, but none may fail to build, break the policy or miss a file;
the grader's and the tools' own tests must pass), the docs build with Doxygen warnings as
errors when Doxygen is installed, the README's shell commands name no file the release
lacks, and no Markdown file mentions what the release lacks. The build folder is removed afterwards. Exit status 0 when all of that holds.
"""
import argparse
import fnmatch
import pathlib
import re
import shutil
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from class_grading import course  # noqa: E402  (beside this script)
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

OMIT, END = "<!-- student-release: omit -->", "<!-- student-release: end -->"
SNIPPET = re.compile(r"^(\s*)\\(snippet|include|includelineno|dontinclude)\s+(solutions/\S+).*$")
SNIPPET_NOTE = "{indent}*The reference code shown here is not part of the student release.*"


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


# Each mention (a regex) with its phrase; MENTION finds any of them. Not inside a longer path
# or name: `-Dkernels=solutions` and the anchor class_grading are no mentions.
MENTIONS = [(re.compile(r"(?<![\w/.-])(?:\./)?(?:" + rx + r")(?![\w-])"), phrase)
            for rx, phrase in [(mention_regex(p), phrase) for p, phrase in LEFT_OUT.items()]
            + [(re.escape(n), phrase) for n, phrase in LEFT_OUT_NAMES.items()]]
MENTION = re.compile("|".join(f"(?:{rx.pattern})" for rx, _ in MENTIONS))
CODE_OR_WORD = re.compile(r"`[^`]*`|[^\s`]+")
PAREN = re.compile(r"\s*\([^()]*\)")  # an aside: one that mentions what the release lacks goes whole
LIST_MARK = re.compile(r"\s*(?:[-*+]|\d+\.)\s+")
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`*\"(\\])")
ABBREVIATIONS = ("e.g.", "i.e.", "vs.", "cf.", "etc.")


def phrase_for(text):
    """The phrase that replaces text (a code span or a word) mentioning something left out, or
    None when one of its mentions has none."""
    phrases = [phrase for rx, phrase in MENTIONS if rx.search(text)]
    return phrases[0] if phrases and all(phrases) else None


def sentences(text):
    """The sentences of a paragraph's text (not split after e.g., i.e. and the like)."""
    out = []
    for piece in SENTENCE_END.split(text):
        if out and out[-1].endswith(ABBREVIATIONS):
            out[-1] += " " + piece
        else:
            out.append(piece)
    return out


def rewrite_sentence(sentence):
    """The sentence without its mentions of what the release lacks, or "" when nothing is left."""
    if not MENTION.search(sentence):
        return sentence
    sentence = PAREN.sub(lambda m: "" if MENTION.search(m.group()) else m.group(), sentence)
    clauses = sentence.split("; ")
    if len(clauses) > 1:  # a list: an entry that starts with a mention names it, whatever its phrase
        clauses = [c for c in clauses if not ((first := CODE_OR_WORD.search(c)) and MENTION.search(first.group()))]

    def named(m):
        phrase = phrase_for(m.group())
        if phrase is None:
            return m.group()
        return phrase[0].upper() + phrase[1:] if m.start() == 0 else phrase
    clauses = [CODE_OR_WORD.sub(lambda m: named(m) if MENTION.search(m.group()) else m.group(), c) for c in clauses]
    kept = [c for c in clauses if not MENTION.search(c)]
    if not kept:
        return ""
    text = "; ".join(kept)
    end = sentence.rstrip()[-1:]
    return text if text.rstrip()[-1:] in ".!?:" or end not in ".!?:" else text.rstrip(" ,;") + end


def rewrite_mentions(lines):
    """Markdown lines without mentions of what the release lacks (see the module's docstring).
    A paragraph or list item that changes is written on one line; headings are left for the
    check to report."""
    out, fence, i = [], None, 0
    while i < len(lines):
        line = lines[i]
        s = line.strip()
        if s.startswith(("```", "~~~")):
            fence = None if fence and s.startswith(fence) else fence or s[:3]
            out.append(line)
        elif fence or line.startswith("    ") or not s:
            if not MENTION.search(line):  # code, fenced or indented: a line that mentions it goes
                out.append(line)
        elif s.startswith("|"):
            row = PAREN.sub(lambda m: "" if MENTION.search(m.group()) else m.group(), line)
            header = i + 1 < len(lines) and re.fullmatch(r"\s*\|[\s|:-]+\|\s*", lines[i + 1])
            if header or not MENTION.search(row):
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
            if MENTION.search(text):
                mark = LIST_MARK.match(item[0])
                indent = mark.group() if mark else item[0][:len(item[0]) - len(item[0].lstrip())]
                body = " ".join(filter(None, (rewrite_sentence(x) for x in sentences(text[len(indent.strip()):].strip()))))
                item = [indent + body] if body else []
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


def rewrite_markdown(text, name="the file"):
    """The text with its student-release: omit blocks removed and its solution snippets
    replaced by a note. Raises ValueError for an unbalanced marker."""
    lines, out, omitting = text.split("\n"), [], None
    for number, line in enumerate(lines, 1):
        mark = line.strip()
        if mark == OMIT:
            if omitting:
                raise ValueError(f"{name}:{number}: '{OMIT}' inside a block opened on line {omitting}")
            omitting = number
        elif mark == END:
            if not omitting:
                raise ValueError(f"{name}:{number}: '{END}' without '{OMIT}'")
            omitting = None
        elif not omitting:
            m = SNIPPET.match(line)
            out.append(SNIPPET_NOTE.format(indent=m.group(1), path=m.group(3)) if m else line)
    if omitting:
        raise ValueError(f"{name}:{omitting}: '{OMIT}' is never closed by '{END}'")
    return "\n".join(rewrite_mentions(out))


def write_release(out, root=ROOT, untracked=False):
    """Writes the release into `out` (which must not exist); returns the files written."""
    written = []
    for path in course_files(root, untracked):
        if left_out(path):
            continue
        src, dst = root / path, out / path
        dst.parent.mkdir(parents=True, exist_ok=True)
        if path.endswith(".md"):
            dst.write_text(rewrite_markdown(src.read_text(encoding="utf-8"), path), encoding="utf-8")
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


def problems_in_release(out):
    """What would make the release wrong, without building it: files that should have been
    left out, imports of left-out modules, shell scripts that run a left-out tool, solution
    snippets, and README commands that name a file the release lacks or a build of solutions/."""
    problems = []
    for p in sorted(out.rglob("*")):
        rel = p.relative_to(out).as_posix()
        if p.is_file() and left_out(rel):
            problems.append(f"{rel}: should have been left out")
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
                for m in MENTION.finditer(line):
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
