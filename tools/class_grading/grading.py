# SPDX-License-Identifier: MIT
"""Grading submissions with the course's own machinery, one Meson build per submission.

The grader itself is compiled once per class, in the class's grader build (course.py,
build_grader; on Slurm by the grader job, slurm.py), which every submission's build links and
runs read-only (-Dprebuilt_grader): a submission compiles its own files only. The grader build also
names each lesson's exercises, the same list for every student.

One submission, in two phases, in a build slot (see grade_submissions):
  build (CPU)  stage a read-only copy; compare each lesson's files with the starter's and
               with the kernels shipped with the course (copies.py);
               `meson setup BUILD -Dkernels=COPY -Dprebuilt_grader=GRADER`, unless the
               slot's last submission was configured the same way (clear_build), or, for a
               submission with every file, configure_slots did it before the class; ninja
               builds every lesson program it can (-k 0: a compile error stops only its lesson).
  test (GPU)   per lesson, `meson test -C BUILD --no-rebuild lessonNN` with the class's seed
               and, unless --teaching-tables, without the lesson's teaching table (NN.0):
               `grade` runs the lesson (and reports compile errors, missing files and policy
               findings as its status), writing BUILD/results/lessonNN.json. The build is
               read-only meanwhile, but for that results folder and Meson's test logs: student
               code cannot change the supervisor or another lesson's program.
Everything runs in the sandbox (sandbox.py). The record of the submission (record.json, with
the results files and logs beside it) goes to GRADES/students/<name>/.

The class: builds run `jobs` at a time on the CPU while the test phases run one at a time
per GPU, each worker pinned to its GPU (CUDA_VISIBLE_DEVICES)."""
import concurrent.futures
import datetime
import hashlib
import json
import pathlib
import queue
import shutil
import socket
import sys
import threading
import time
import traceback

import results_files  # noqa: E402  (tools/ is on sys.path: grade_class.py puts it there)
from results_files import files_by_test, read_results_file  # noqa: E402

from . import copies
from . import course as course_mod
from . import verdicts
from .submissions import Entry, StagingError, entry_hash, remove_tree, stage

RECORD_FORMAT, RECORD_VERSION = "cuda-lessons-class-record", 1
# grade's filter that leaves out each lesson's teaching table (exercise NN.0): it grades
# nothing and costs a large share of a submission's GPU time (docs/class_grading.md, "What
# to expect"). --teaching-tables keeps it.
SKIP_TEACHING = "-tce=??.0*"
LOG_CHARS = 60000  # of each lesson's test output kept in the record (the whole log is kept beside it)


class Settings:
    """What a class run needs; tools/grade_class.py fills it from the command line."""

    def __init__(self, **kw):
        self.course = self.out = self.work = self.starter = None
        self.lessons, self.revision, self.seed, self.timeout = [], "unknown", "", None
        self.jobs, self.ninja_jobs, self.gpus, self.sandbox = 1, 1, [None], None
        self.build_limit, self.test_limit, self.meson_options = 1800, 7200, []
        self.keep_work, self.max_bytes, self.teaching_tables = False, 50 << 20, False
        # The class's grader build (-Dprebuilt_grader), each lesson's exercise names as the
        # course lists them, and the course's own kernels (copies.Shipped).
        self.grader_build, self.listings, self.shipped = None, {}, None
        self.__dict__.update(kw)


def student_folder(out, name):
    return pathlib.Path(out) / "students" / name


def load_record(folder):
    """The record in one student folder, or None (absent, unreadable, another format)."""
    try:
        r = json.loads((pathlib.Path(folder) / "record.json").read_text())
    except (OSError, ValueError):
        return None
    return r if isinstance(r, dict) and r.get("format") == RECORD_FORMAT and r.get("version") == RECORD_VERSION else None


def load_records(out):
    """Every student's record under GRADES/students, by name."""
    folder = pathlib.Path(out) / "students"
    found = (load_record(d) for d in sorted(folder.iterdir()) if d.is_dir()) if folder.is_dir() else ()
    return [r for r in found if r]


def now():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


class Job:
    """One submission between its phases, in its build slot."""

    def __init__(self, entry, s, slot):
        self.entry, self.name, self.slot = entry, entry.name, pathlib.Path(slot)
        self.copy, self.root, self.build = self.slot / "submission", None, self.slot / "build"
        self.logs = pathlib.Path(s.work) / "logs" / entry.name
        self.log = self.logs / "build.log"
        self.lessons, self.notes = [], []
        self.problem, self.complete = "", True
        self.started, self.t0, self.build_s, self.test_s = now(), time.monotonic(), 0.0, 0.0
        self.wall0 = time.time()
        self.sha256 = ""


def _left(t0, limit):
    return max(1.0, limit - (time.monotonic() - t0))


# What a slot keeps from one submission to the next, so that the next one needs no `meson
# setup`: every file `meson setup` wrote, checked against the hashes taken when it wrote them.
# Everything the last build or its tests made goes: objects, programs, results, logs, Ninja's
# state.
TEST_OUTPUTS = ("results", "meson-logs")  # written by the test phase: never kept


def configuration_mark(build):
    """The record of what configured a slot's build (configure's command, the files the
    submission lacked, the hash of every file configure wrote). It lies beside the slot, which
    is all the sandbox can write: no student code can change it."""
    build = pathlib.Path(build)
    return build.parent.parent / (build.parent.name + ".configured.json")


def file_hash(path):
    """The sha256 of a regular file; None for anything else (absent, a folder, a link)."""
    path = pathlib.Path(path)
    if path.is_symlink() or not path.is_file():
        return None
    return hashlib.sha256(path.read_bytes()).hexdigest()


def configured_files(build):
    """{path relative to the build: sha256} of every regular file in the build folder but the
    test phase's folders and Ninja's own state."""
    build, found = pathlib.Path(build), {}
    for p in sorted(build.rglob("*")) if build.is_dir() else []:
        rel = p.relative_to(build).as_posix()
        h = None if rel.split("/")[0] in TEST_OUTPUTS or rel.startswith(".ninja") else file_hash(p)
        if h:
            found[rel] = h
    return found


def clear_build(build):
    """Empties a slot's build folder of the last submission's build. When every file of the
    recorded configuration is there unchanged (configuration_mark), those files stay and the
    record is returned (configuration's, without the hashes): the same
    configuration needs no `meson setup` at all. Otherwise only Meson's own state stays
    (meson-private: the options, the compilers found and their checks), so that configuring
    there is a reconfiguration, seconds faster than a first one, and None is returned."""
    build, mark = pathlib.Path(build), configuration_mark(build)
    try:
        record = json.loads(mark.read_text())
        files = dict(record["files"])
    except (OSError, ValueError, KeyError, TypeError):
        record, files = None, {}
    intact = bool(files) and all(file_hash(build / rel) == h for rel, h in files.items())
    for p in sorted(build.rglob("*"), reverse=True) if build.is_dir() else []:  # files before their folders
        rel = p.relative_to(build).as_posix()
        top = rel.split("/")[0]
        if intact:
            keep = rel in files or (p.is_dir() and not p.is_symlink() and top not in TEST_OUTPUTS)
        else:
            keep = top == "meson-private"
        if not keep:
            remove_tree(p)
    if not intact:
        mark.unlink(missing_ok=True)
        return None
    return {k: v for k, v in record.items() if k != "files"}


def is_configured(build):
    """Whether Meson's state is in the build folder (then `meson setup --reconfigure`)."""
    return (pathlib.Path(build) / "meson-private" / "coredata.dat").is_file()


def setup_command(s, build, kernels):
    """`meson setup` of a build of `kernels` that links the class's grader build: configured as
    that build was (the same options), as meson.build requires."""
    return ["meson", "setup", str(build), "-Dkernels=" + str(kernels), "-Drevision=" + s.revision,
            "-Ddocs=disabled", "-Dprebuilt_grader=" + str(s.grader_build)] + ["-D" + o for o in s.meson_options]


def configuration(s, build, root, missing):
    """What configures a slot's build, as its configuration_mark records it and clear_build
    returns it: the same command, the same lesson files missing and the same lessons' sealed
    objects in the class's grader build (a lesson without one is left out) give the same build."""
    return {"setup": setup_command(s, build, root), "missing": missing,
            "objects": course_mod.sealed_objects(s.grader_build)}


def configure(slot, copy, root, missing, s, log, t0):
    """`meson setup` of the slot's build for the staged copy whose lesson files are at `root`
    (`missing`: the lesson files it lacks), in the sandbox; a reconfiguration where Meson's
    state is kept. Records the configuration (configuration_mark) and returns "", or returns
    why it failed."""
    build = slot / "build"
    box, binds = s.sandbox, [("rw", slot), ("ro", copy), ("ro", s.grader_build)]
    wanted = configuration(s, build, root, missing)
    setup = wanted["setup"]
    configuration_mark(build).unlink(missing_ok=True)
    configured = is_configured(build)
    rc, out, late = box.run(setup[:2] + ["--reconfigure"] * configured + setup[2:], cwd=s.course, log=log,
                            binds=binds, devices=True, timeout=_left(t0, s.build_limit))
    if rc != 0 and configured and not late:  # a slot left broken: start it afresh
        remove_tree(build)
        rc, out, late = box.run(setup, cwd=s.course, log=log, binds=binds, devices=True,
                                timeout=_left(t0, s.build_limit))
    if rc != 0:
        return "meson setup failed" + (" (over the time limit)" if late else "") + ":\n" + out[-3000:]
    configuration_mark(build).write_text(json.dumps(dict(wanted, files=configured_files(build))))
    return ""


def configure_slot(slot, s, log):
    """Configures an empty slot once per class, before its first submission, as for a
    submission with every lesson file (the starter staged in its place): that submission, and
    any later one with every file, then builds without `meson setup`. A slot already configured
    so by an earlier run is left as it is. Returns "" or why it failed (its first submission
    then configures, as without this step)."""
    slot = pathlib.Path(slot)
    copy = slot / "submission"
    if clear_build(slot / "build") == configuration(s, slot / "build", copy, []):
        return ""
    remove_tree(copy)
    try:
        root, _ = stage(Entry("starter", s.starter, "folder"), copy, [l.dir for l in s.lessons], s.max_bytes)
        return configure(slot, copy, root, [], s, log, time.monotonic())
    except StagingError as e:
        return f"the starter could not be staged: {e}"
    finally:
        remove_tree(copy)


def build_phase(job, s):
    """Stages, configures and builds one submission in its slot (see the module's docstring)."""
    remove_tree(job.logs)
    job.logs.mkdir(parents=True)
    job.log.write_text(f"# {job.name}: {job.entry.path}\n")
    job.sha256 = entry_hash(job.entry)
    remove_tree(job.copy)
    kept = clear_build(job.build)
    try:
        job.root, job.notes = stage(job.entry, job.copy, [l.dir for l in s.lessons], s.max_bytes)
    except StagingError as e:
        job.problem = f"the submission could not be read: {e}"
        return
    for l in s.lessons:
        missing, unchanged = course_mod.compare_with_starter(job.root, s.starter, l)
        job.lessons.append({"test": l.test, "dir": l.dir, "kernels": l.kernels, "missing": missing,
                            "unchanged": unchanged, "copied": copies.copied(s.shipped, job.root, l),
                            "listed": s.listings.get(l.test, []), "results": None, "problem": "", "log": ""})
    # What configure reads of a submission is which kernel files it has (meson.build): the
    # same command and the same files missing give the same configuration, kept from the
    # last submission in this slot (or from configure_slot).
    missing = sorted(l["dir"] + "/" + k for l in job.lessons for k in l["missing"])
    if kept == configuration(s, job.build, job.root, missing):
        with open(job.log, "a") as f:
            f.write("# configured for the last submission in this slot as for this one: no meson setup\n")
    else:
        problem = configure(job.slot, job.copy, job.root, missing, s, job.log, job.t0)
        if problem:
            job.problem = problem
            job.complete = False  # most likely the machine's, not the student's: a re-run tries again
            return
    box, binds = s.sandbox, [("rw", job.slot), ("ro", job.copy), ("ro", s.grader_build)]
    targets = course_mod.meson_info(job.build)[1]
    # What `grade` builds for each lesson, as its arguments file names it (--target, and the
    # student-free --yardsticks program): in the sandbox the build folder is read-only, so it
    # is all built here. A lesson with files missing has no program, and is not built.
    present = {t["name"] for t in targets if t["type"] == "executable"}
    wanted = {name for l in s.lessons if l.test in present for name in course_mod.grade_targets(job.build, l.test)}
    programs = [str(pathlib.Path(t["filename"][0]).relative_to(job.build)) for t in targets
                if t["name"] in wanted and t["type"] == "executable"]
    if not programs:  # ninja without targets would build the default ones: the whole grader
        with open(job.log, "a") as f:
            f.write("# nothing to build: every lesson graded has files missing\n")
        job.build_s = time.monotonic() - job.t0
        return
    rc, out, late = box.run(["ninja", "-C", str(job.build), "-k", "0", "-j", str(s.ninja_jobs)] + programs,
                            cwd=job.slot, log=job.log, binds=binds, timeout=_left(job.t0, s.build_limit))
    if late:
        job.problem = "the build went over its time limit (--build-time-limit): not graded"
        return
    job.build_s = time.monotonic() - job.t0


def course_changed(job, s):
    """Marks the job when the course changed since its build began (graded again next run)."""
    if course_mod.changed_since(s.course, job.wall0 - 1):
        job.problem = "the course changed while this submission was graded: run again to grade it"
        job.complete = False
    return bool(job.problem)


def plain_file(path, most=64 << 20):
    """Whether a file the sandbox could write is safe to read here: a regular file (not a link
    to a device or to a file of the instructor's), of a sane size."""
    path = pathlib.Path(path)
    return not path.is_symlink() and path.is_file() and path.stat().st_size <= most


def read_testlog(path):
    """{test: (its output, its exit code)} from Meson's test log, when it is a plain file (the
    sandbox could write in its folder; results_files.read_testlog skips lines not Meson's)."""
    tests = results_files.read_testlog(path) if plain_file(path) else {}
    return {name: (t["stdout"], t["returncode"]) for name, t in tests.items()}


def trusted_results(path, returncode, output):
    """(results document, None) or (None, why it is not taken). Student code runs during the
    test with its results folder writable: a file is taken only when `grade` ended by itself
    with the exit code the file records, and did not say it could not write it."""
    if path is None:
        return None, f"no results file (the test ended with exit code {returncode})"
    if not plain_file(path, 16 << 20):
        return None, "the results file is not a plain file: not taken"
    doc, problem = read_results_file(path)
    if doc is None:
        return None, problem
    if not isinstance(returncode, int) or returncode < 0 or returncode != doc.get("exit_code"):
        return None, (f"the results file says exit code {doc.get('exit_code')!r} but the test ended with "
                      f"{returncode!r}: not taken")
    if "results: could not write" in output:
        return None, "grade could not write its results file: the one found is not taken"
    return doc, None


def test_phase(job, s, gpu):
    """Runs each lesson test of one built submission on `gpu`, one `meson test` each, with the
    build read-only but for its results and test-log folders, and reads the results."""
    t0 = time.monotonic()
    if job.problem or course_changed(job, s):
        return
    args = ["--seed=" + s.seed] if s.seed else []
    args += [f"--timeout={s.timeout}"] if s.timeout else []
    args += [] if s.teaching_tables else [SKIP_TEACHING]
    results, logs = job.build / "results", job.build / "meson-logs"
    for folder in (results, logs):  # meson-logs is not kept between submissions (clear_build)
        folder.mkdir(exist_ok=True)
    before = {p: set(p.iterdir()) for p in (job.slot, job.build, logs)}
    binds = test_binds(job, s.grader_build)
    for lesson in job.lessons:
        for p in list(results.iterdir()) + list(logs.glob("testlog*")):
            remove_tree(p)
        rc, out, late = s.sandbox.run(
            ["meson", "test", "-C", str(job.build), "--no-rebuild", "--test-args=" + " ".join(args), lesson["test"]],
            cwd=job.slot, log=job.logs / "test.log", binds=binds, devices=True, gpu=gpu,
            timeout=_left(t0, s.test_limit))
        output, code = read_testlog(logs / "testlog.json").get(lesson["test"], ("", None))
        lesson["log"] = output[-LOG_CHARS:]
        if late:
            lesson["problem"] = "over the time limit of the tests (--test-time-limit): not graded"
            continue
        path = dict(files_by_test(results)[0]).get(lesson["test"])
        lesson["results"], problem = trusted_results(path, code, output)
        lesson["problem"] = problem or ""
        if lesson["results"]:
            shutil.copyfile(path, job.logs / path.name)
    course_changed(job, s)
    for folder, had in before.items():  # whatever the tests left beside the build goes
        for p in set(folder.iterdir()) - had:
            remove_tree(p)
    job.test_s = time.monotonic() - t0


def test_binds(job, grader_build):
    """The sandbox's mounts for the test phase: the slot writable, but every part of the build
    read-only (each lesson program that was built, Ninja's and Meson's state) except the
    results folder, Meson's test logs, and the folders of the lessons that did not build,
    which `grade` builds again to show the compiler's errors; the class's grader build
    (the supervisor, the grader's objects) read-only. Student code in one lesson's test can
    then change neither the grader nor another lesson's program."""
    failed = {l["test"] for l in job.lessons if not (job.build / l["test"]).is_file()}
    writable = {"results", "meson-logs", ".ninja_lock"} | {n for t in failed for n in
                                                          (t + ".p", f"lib{t}-student.a", f"lib{t}-student.a.p")}
    return [("rw", job.slot), ("ro", job.copy), ("ro", grader_build)] + [
        ("ro", p) for p in sorted(job.build.iterdir()) if p.name not in writable]


def record_of(job, s, gpu):
    return {"format": RECORD_FORMAT, "version": RECORD_VERSION, "student": job.name, "entry": job.entry.path.name,
            "sha256": job.sha256, "grader_revision": s.revision, "seed": s.seed,
            "sandbox": s.sandbox.mode, "gpu": "" if gpu is None else str(gpu), "host": socket.gethostname(),
            "started": job.started, "finished": now(), "build_s": round(job.build_s, 1),
            "test_s": round(job.test_s, 1), "wall_s": round(time.monotonic() - job.t0, 1),
            "problem": job.problem, "complete": job.complete, "notes": job.notes, "lessons": job.lessons}


def save(job, record, s):
    """Writes the student's folder (record, results files, logs) in one rename. Lessons graded
    before but not in this run (--lessons) are kept when the submission is the same."""
    final = student_folder(s.out, job.name)
    tmp = final.with_name("." + job.name + ".new")
    remove_tree(tmp)
    (tmp / "results").mkdir(parents=True)
    old = load_record(final)
    if old and old.get("sha256") == record["sha256"] and not record["problem"]:
        now_graded = {l["test"] for l in record["lessons"]}
        kept = [l for l in old.get("lessons", []) if l["test"] not in now_graded]
        record["lessons"] = sorted(record["lessons"] + kept, key=lambda l: l["test"])
        for l in kept:
            if (final / "results" / f"{l['test']}.json").is_file():
                shutil.copyfile(final / "results" / f"{l['test']}.json", tmp / "results" / f"{l['test']}.json")
    for p in job.logs.glob("*"):
        shutil.copyfile(p, tmp / ("results" if p.suffix == ".json" else "") / p.name)
    (tmp / "record.json").write_text(json.dumps(record, indent=1) + "\n")
    remove_tree(final)
    tmp.rename(final)
    remove_tree(job.logs)


def summary(record):
    """`5 passed, 1 failed, 2 not attempted` for the progress display, counted as the
    gradebook counts: each lesson's exercises come from the course's own list
    (build_grader), so this student's columns are the gradebook's."""
    return verdicts.summary(verdicts.row(record, verdicts.columns([record]))[1])


class Progress:
    """Done/total, the students in each phase, and an ETA, on one line of a terminal (a line
    per finished student elsewhere, as in a Slurm log)."""

    def __init__(self, total, stream=None):
        self.total, self.done, self.t0 = total, 0, time.monotonic()
        self.stream = stream or sys.stderr
        self.tty = hasattr(self.stream, "isatty") and self.stream.isatty()
        self.phase, self.lock = {}, threading.Lock()

    def eta(self):
        if not self.done:
            return "ETA after the first submission"
        left = (time.monotonic() - self.t0) / self.done * (self.total - self.done)
        return f"ETA {int(left // 60)} min {int(left % 60):02d} s"

    def status(self):
        now_doing = " · ".join(f"{p} {', '.join(sorted(n for n, q in self.phase.items() if q == p))}"
                               for p in sorted(set(self.phase.values())))
        return f"[{self.done}/{self.total}] {now_doing or 'idle'} · {self.eta()}"

    def _show(self, line=None):
        if line:
            self.stream.write(("\r\033[K" if self.tty else "") + line + "\n")
        if self.tty:
            self.stream.write("\r\033[K" + self.status()[:200])
        self.stream.flush()

    def start(self, name, phase):
        with self.lock:
            self.phase[name] = phase
            self._show()

    def finish(self, name, text):
        with self.lock:
            self.phase.pop(name, None)
            self.done += 1
            self._show(f"[{self.done}/{self.total}] {name}: {text} · {self.eta()}")

    def close(self):
        if self.tty:
            self.stream.write("\r\033[K")
            self.stream.flush()


def configure_slots(slots, s):
    """configure_slot for every slot at once, before the first build: a slot's configuration
    is paid once per class, like the grader, and no submission's build time holds it."""
    if not slots:
        return
    t0 = time.monotonic()
    print(f"configuring {len(slots)} build slot(s) (meson setup, once for the class) ...", file=sys.stderr, flush=True)

    def one(slot):
        log = pathlib.Path(s.work) / f"{slot.name}.configure.log"
        try:
            log.write_text(f"# {slot.name}: configured for a submission with every file\n")
            return configure_slot(slot, s, log)
        except Exception:  # a bug of this tool: the slot's first submission configures it
            return traceback.format_exc()

    with concurrent.futures.ThreadPoolExecutor(len(slots)) as pool:
        for slot, problem in zip(slots, pool.map(one, slots)):
            if problem:  # the slot's first submission configures it instead
                print(f"{slot.name} could not be configured ahead: {problem.splitlines()[0]}", file=sys.stderr)
    print(f"{len(slots)} build slot(s) configured in {time.monotonic() - t0:.0f} s, once for the class",
          file=sys.stderr)


def grade_submissions(entries, s, progress):
    """Grades the entries: `s.jobs` builds at a time, one test phase at a time per GPU. Each
    submission is copied and built in a slot (GRADES/work/slot-K), emptied for the next
    one but for its configuration (clear_build): there is a slot for each build and each GPU
    worker, so a submission waiting for a GPU keeps its own while the next is built.
    Returns the records written."""
    gpus = s.gpus or [None]
    q, records, free = queue.Queue(), [], queue.Queue()
    slots = [pathlib.Path(s.work) / f"slot-{k}" for k in range(s.jobs + len(gpus))]
    for slot in slots:
        free.put(slot)
    configure_slots(slots[:len(entries)], s)
    building = threading.Semaphore(s.jobs)

    def build(entry, slot):
        job = Job(entry, s, slot)
        progress.start(job.name, "building")
        try:
            build_phase(job, s)
        except Exception:  # one broken submission (or a bug of this tool) must not stop the class
            job.problem, job.complete = "the class grader failed:\n" + traceback.format_exc(), False
        building.release()
        progress.start(job.name, "waiting for a GPU" if gpus != [None] else "waiting")
        q.put(job)

    def test(gpu):
        while (job := q.get()) is not None:
            progress.start(job.name, "testing" + ("" if gpu is None else f" on GPU {gpu}"))
            try:
                test_phase(job, s, gpu)
            except Exception:
                job.problem, job.complete = "the class grader failed:\n" + traceback.format_exc(), False
            record = record_of(job, s, gpu)
            try:
                save(job, record, s)
                records.append(record)
                progress.finish(job.name, f"{summary(record)} ({record['wall_s']:.0f} s)")
            except OSError as e:
                progress.finish(job.name, f"could not be saved: {e}")
            free.put(job.slot)

    workers = [threading.Thread(target=test, args=(g,), daemon=True) for g in gpus]
    for w in workers:
        w.start()
    builders = []
    for entry in entries:
        slot = free.get()
        building.acquire()
        builders.append(threading.Thread(target=build, args=(entry, slot), daemon=True))
        builders[-1].start()
    for t in builders:
        t.join()
    for _ in workers:
        q.put(None)
    for w in workers:
        w.join()
    progress.close()
    if not s.keep_work:  # no student's files stay; the configuration does, for the next run
        for slot in slots:
            remove_tree(slot / "submission")
            clear_build(slot / "build")
    return records
