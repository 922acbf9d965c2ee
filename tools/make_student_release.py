#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the course as students get it: without the references and the known-bad variants.

    python3 tools/make_student_release.py OUT [--untracked] [--force] [--check]

The files come from `git ls-files` (so build folders, results and anything else git
ignores never leak); --untracked adds the files git does not track yet but would not
ignore (a lesson being written). Left out (LEFT_OUT below lists the paths): the references
(solutions/), the known-bad variants (lessons/*/bad/), CI (.ci/), and the instructor's tools
with their tests: the GPU self-test, the class grader and this script.

Rewritten, in every Markdown file: a block between `<!-- student-release: omit -->` and
`<!-- student-release: end -->` (each on a line of its own) is removed, so README.md can
say, for instance, how to run the course's own test suite without telling students a
command that cannot work in their copy; a `\\snippet solutions/...` line, with which a
theory page shows reference code, becomes a note. In meson.options, the default of
`revision` becomes the source's `git describe`, so results files name the release.

The lessons' meson.build files are copied unchanged: their 'bad' lists are read only by
a build configured with -Dkernels=solutions, which needs solutions/ and so stops at
configure time in a release ("solutions is not a folder") before any of them is read.
Stripping them would be a rewrite of Meson code for no effect.

--check then proves the release works, in OUT: `meson setup build` and `meson test -C
build` as the README says (each lesson SKIPs without a GPU and fails with one, because
the starters are unfinished, but none may fail to build, break the policy or miss a file;
the grader's and the tools' own tests must pass), the docs build with Doxygen warnings as
errors when Doxygen is installed, and the README's shell commands name no file the release
lacks. The build folder is removed afterwards. Exit status 0 when all of that holds.
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

# Paths (fnmatch patterns, relative to the course root) that a student release leaves out.
LEFT_OUT = [
    "solutions/*",
    "lessons/*/bad/*",
    ".ci/*",
    "tools/gpu_selftest.py",
    "tools/tests/test_gpu_selftest.py",
    "tools/grade_class.py",
    "tools/class_grading/*",
    "tools/tests/test_grade_class*",
    "tools/tests/class_fixture*",
    "tools/tests/run_class_grading.sh",
    "tools/tests/slurm*",
    "tools/make_student_release.py",
    "tools/tests/test_student_release.py",
]
# The Python modules of the tools left out (tools/NAME.py, tools/NAME/): nothing left in the
# release may import one.
LEFT_OUT_MODULES = {p.split("/")[1].removesuffix(".py") for p in LEFT_OUT
                    if p.startswith("tools/") and not p.startswith("tools/tests/")}
# A path of a tool in a shell script (python3 tools/grade_class.py, ./tools/tests/x.sh).
TOOL_PATH = re.compile(r"(?<![\w/.-])(?:\./)?(tools/[\w./-]*\.(?:py|sh))")

OMIT, END = "<!-- student-release: omit -->", "<!-- student-release: end -->"
SNIPPET = re.compile(r"^(\s*)\\(snippet|include|includelineno|dontinclude)\s+(solutions/\S+).*$")
SNIPPET_NOTE = "{indent}*The reference code shown here ({path}) is not part of the student release.*"


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
    return "\n".join(out)


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
            if "-bad-" in name:
                problems.append(f"{name}: a known-bad test exists in the release")
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
