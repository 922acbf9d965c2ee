# SPDX-License-Identifier: MIT
"""What the course grades, asked of Meson rather than parsed from meson.build: a build of the
starters (configured once per run) says which lesson tests exist, their folders and their
kernel files, so a lesson added to meson.build is graded without a change here."""
import json
import pathlib
import shutil
import subprocess

import build_progress  # noqa: E402  (tools/ is on sys.path: grade_class.py puts it there)

from . import verdicts


class Lesson:
    """One lesson test: `test` (lesson01), `dir` (01-coalescing), `kernels` (the files a
    submission provides, relative to its lesson folder, in meson.build's order)."""

    def __init__(self, test, dir, kernels):
        self.test, self.dir, self.kernels = test, dir, list(kernels)

    def as_dict(self):
        return {"test": self.test, "dir": self.dir, "kernels": self.kernels}

    def __repr__(self):
        return f"Lesson({self.test!r}, {self.dir!r}, {self.kernels!r})"


def revision(root):
    """`git describe --always --dirty` of the course, as meson.build records it; `unknown`."""
    try:
        r = subprocess.run(["git", "-C", str(root), "describe", "--always", "--dirty"], capture_output=True,
                           text=True, timeout=60)
        return r.stdout.strip() if r.returncode == 0 and r.stdout.strip() else "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def meson_info(build):
    """(tests, targets) as Meson's introspection files of a configured build describe them."""
    info = pathlib.Path(build) / "meson-info"
    return (json.loads((info / "intro-tests.json").read_text()), json.loads((info / "intro-targets.json").read_text()))


def _bare(name):
    return name.split(":")[-1]  # Meson writes suites as "project:suite"


def lesson_tests(tests):
    """{test name: its lesson folder} for the tests of the suite `lessons`."""
    out = {}
    for t in tests:
        suites = [_bare(s) for s in t.get("suite", [])]
        if "lessons" in suites:
            others = [s for s in suites if s != "lessons"]
            out[t["name"]] = others[0] if others else ""
    return out


def target_sources(targets, name):
    """The source files of the target called `name`, or None when there is none."""
    for t in targets:
        if t.get("name") == name:
            return [s for ts in t.get("target_sources", []) for s in ts.get("sources", [])]
    return None


def lessons_of_starter_build(build, starter_dir):
    """[Lesson] from a build configured with -Dkernels=starter: each lesson's kernel files are
    the sources of its student library (lessonNN-student, top-level meson.build)."""
    tests, targets = meson_info(build)
    lessons = []
    for test, folder in sorted(lesson_tests(tests).items()):
        base = pathlib.Path(starter_dir) / folder
        sources = target_sources(targets, test + "-student")
        if sources is None:  # not expected for the starters; their folder then says
            kernels = sorted(p.relative_to(base).as_posix() for p in base.rglob("*") if p.is_file())
        else:
            kernels = [pathlib.Path(s).relative_to(base).as_posix() for s in sources]
        lessons.append(Lesson(test, folder, kernels))
    return lessons


def configure_grader(root, build, rev, options, log):
    """Configures (or reconfigures) the class's grader build: the course with its own
    starters (trusted code, no sandbox) and the class's Meson options, so that every
    submission's build, configured alike, can link its grader (-Dprebuilt_grader).
    Returns the lessons it grades."""
    build = pathlib.Path(build)
    args = ["meson", "setup", str(build), "-Dkernels=starter", "-Drevision=" + rev, "-Ddocs=disabled"]
    args += ["-D" + o for o in options]
    if (build / "meson-private").is_dir():
        args.insert(2, "--reconfigure")
    _run(args, root, log, "configuring the grader build (meson setup)", shown=True)
    return lessons_of_starter_build(build, pathlib.Path(root) / "starter")


def target_paths(build):
    """{target name: the path of its file} of a configured build (Meson gives it absolute)."""
    return {t["name"]: pathlib.Path(t["filename"][0]) for t in meson_info(build)[1] if t.get("filename")}


def grade_targets(build, test):
    """The targets `grade` builds before it runs lesson `test`: those its arguments file
    (build/TEST.args, written by meson.build) names with --target= and --yardsticks=."""
    args = pathlib.Path(build) / (test + ".args")
    names = []
    for line in args.read_text().splitlines():
        for option in ("--target=", "--yardsticks="):
            if line.startswith(option):
                names.append(line[len(option):])
    return names


def build_grader(build, lessons, jobs, log):
    """Builds, in the grader build, what the submissions' builds link or run for `lessons`:
    the supervisor and those lessons' sealed objects (a submission's build leaves out a
    lesson whose object is not there, meson.build), and their starter programs, which list
    each lesson's exercises. Ninja's progress is shown as it goes. Returns {test: [exercise
    names]}: the course's own list, the same for every student whatever they built."""
    build = pathlib.Path(build)
    (build / SHARED_MARK).unlink(missing_ok=True)  # finished again only once this build is (mark_shared)
    path = target_paths(build)
    wanted = [path["grade"]] + [path[l.test + "-grader-sealed"] for l in lessons] + [path[l.test] for l in lessons]
    _run(["ninja", "-C", str(build), "-j", str(jobs)] + [str(p.relative_to(build)) for p in wanted], build, log,
         f"building the grader ({', '.join(l.test for l in lessons)})", shown=True)
    return list_exercises(build, lessons, log)


def sealed_objects(build):
    """The lessons' sealed objects a grader build holds (lesson01-grader.o, ...), by name: they
    decide which lessons a build that links it has (meson.build, -Dprebuilt_grader)."""
    return sorted(p.name for p in pathlib.Path(build).glob("lesson*-grader.o"))


def list_exercises(build, lessons, log):
    """{test: [exercise names]} from a built grader build's starter programs (it writes nothing
    there: a grader build shared by a Slurm array's tasks is read-only to them)."""
    build = pathlib.Path(build)
    path = target_paths(build)
    listings = {}
    for l in lessons:
        out = _run([str(path["grade"]), "--list", str(path[l.test])], build, log, f"listing {l.test}'s exercises")
        listings[l.test] = [n.strip() for n in out.splitlines() if verdicts.exercise_number(n.strip())]
    return listings


# In a grader build that a Slurm array's tasks share, written once it is built: the revision
# and the Meson options it was built with (slurm.py: the grader job builds it, then the tasks).
SHARED_MARK = "class-grader.json"


def mark_shared(build, rev, options):
    (pathlib.Path(build) / SHARED_MARK).write_text(json.dumps({"revision": rev, "meson_options": list(options)}))


def shared_refused(root, build, probe, rev, options, setup_command, log):
    """Why a task may not use the grader build `build` that another job built, or None when
    it may: it must be finished (its mark), of this revision and these options, and a build of
    the starters configured in `probe` exactly as a submission's will be (`setup_command`) must
    be let link it: meson.build refuses a grader compiled otherwise (another GPU here, another
    compiler) and says why."""
    try:
        mark = json.loads((pathlib.Path(build) / SHARED_MARK).read_text())
    except (OSError, ValueError):
        return ("no mark of a finished build there: the grader job failed (its log says why), or that folder "
                "is not on a file system this node shares")
    if mark.get("revision") != rev or mark.get("meson_options") != list(options):
        return f"it was built for revision {mark.get('revision')} with options {mark.get('meson_options')}"
    shutil.rmtree(probe, ignore_errors=True)
    try:
        _run(setup_command(probe, pathlib.Path(root) / "starter"), root, log, "configuring a build against it")
    except RuntimeError as e:
        lines = [l for l in str(e).splitlines() if "ERROR" in l or "otherwise" in l]
        return (lines[-1].strip() if lines else str(e).splitlines()[0])[:300]
    finally:
        shutil.rmtree(probe, ignore_errors=True)
    return None


def _run(args, cwd, log, what, shown=False):
    """Runs a command of the course's own (no sandbox), appending its output to `log`;
    returns the output (stdout alone unless `shown`), or raises RuntimeError with its end.
    shown: a long step, whose progress is shown on standard error (build_progress)."""
    if shown:
        rc, out = build_progress.run(args, log, what, cwd=cwd)
        if rc != 0:
            raise RuntimeError(f"{what} failed (log: {log}):\n{out[-3000:]}")
        return out
    r = subprocess.run(args, cwd=cwd, capture_output=True, text=True)
    with open(log, "a", encoding="utf-8") as f:
        f.write("$ " + " ".join(args) + "\n" + r.stdout + r.stderr)
    if r.returncode != 0:
        raise RuntimeError(f"{what} failed (log: {log}):\n{(r.stdout + r.stderr)[-3000:]}")
    return r.stdout


def _normalized(data):
    """The text as compared with the starter: line ends and trailing blanks do not count."""
    lines = [l.rstrip() for l in data.replace(b"\r\n", b"\n").split(b"\n")]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def compare_with_starter(submission, starter, lesson):
    """(missing, unchanged): the lesson's kernel files the submission lacks, and those that
    are the starter's file unchanged (not attempted)."""
    missing, unchanged = [], []
    for k in lesson.kernels:
        mine = pathlib.Path(submission) / lesson.dir / k
        if not mine.is_file():
            missing.append(k)
            continue
        theirs = pathlib.Path(starter) / lesson.dir / k
        if theirs.is_file() and _normalized(mine.read_bytes()) == _normalized(theirs.read_bytes()):
            unchanged.append(k)
    return missing, unchanged


def changed_since(root, t):
    """The course's sources (meson files, grader/, lessons/) changed after time t: a build
    made before no longer matches them, and Ninja, asked to build again in the read-only
    test phase, would fail."""
    root = pathlib.Path(root)
    files = [root / "meson.build", root / "meson.options"]
    for folder in ("grader", "lessons"):
        files += [p for p in (root / folder).rglob("*") if p.is_file()]
    return any(p.stat().st_mtime > t for p in files if p.exists())
