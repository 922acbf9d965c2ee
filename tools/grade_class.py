#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Grades a whole class with the course's own grader, safely, on one GPU, several or a Slurm cluster.

    python3 tools/grade_class.py SUBMISSIONS --out GRADES [options]
    python3 tools/grade_class.py collect GRADES            (after a --slurm run: merge its parts)

SUBMISSIONS holds one entry per student: a folder that mirrors starter/, or a .zip, .tar.gz,
.tgz or .tar of one (an extra top-level folder inside is fine). The student's name is the
entry's name without the archive suffix. GRADES receives:

  gradebook.csv                  a row per student: per exercise its verdict, points and what it
                                 was copied from; totals, seed and grader revision
  junit/<student>.xml            a test case per exercise, the verdict line as message
  gradescope/<student>/results.json   Gradescope's autograder results format
  report.html                    pass rates, the speed of every submission against each
                                 threshold, the fastest and slowest, a section per student
  students/<student>/            record.json, the grader's results files, build and test logs

The grader is compiled once per class, in GRADES/work/grader. Each submission is copied
read-only, configured (`meson setup -Dkernels=COPY -Dprebuilt_grader=GRADES/work/grader`),
built (its own files only; CPU, --jobs at a time) and tested (`meson test`, one submission
at a time per GPU), inside a bubblewrap sandbox: no network, nothing writable but its own
build, no other student's work in sight. A compile error, a missing file or a policy
finding fails that lesson only; a kernel file identical to the starter's is NOT ATTEMPTED;
one that matches a kernel shipped with the course is flagged (copied from). Re-running skips
the students already graded (unless --force, or their submission changed); --only re-grades
one.
docs/class_grading.md is the full guide (what the sandbox does and does not isolate)."""
import argparse
import json
import os
import pathlib
import random
import subprocess
import sys
import time

TOOLS = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(TOOLS))
from class_grading import copies, course, grading, outputs, sandbox, slurm  # noqa: E402
from class_grading.submissions import entry_hash, find_entries  # noqa: E402

ROOT = TOOLS.parent


def parser():
    p = argparse.ArgumentParser(prog="grade_class.py", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog="collect: `grade_class.py collect GRADES` merges GRADES/parts/* (the tasks of "
                                       "--slurm) into GRADES\nand writes every output again; with no parts "
                                       "it only writes the outputs again.")
    p.add_argument("submissions", metavar="SUBMISSIONS", help="the folder with one entry per student")
    p.add_argument("--out", metavar="GRADES", required=True, help="where the gradebook and reports go")
    g = p.add_argument_group("what to grade")
    g.add_argument("--lessons", metavar="LIST", help="only these lessons: 01,03 or lesson01,lesson03 (default: all)")
    g.add_argument("--only", metavar="STUDENT", action="append", default=[],
                   help="grade (again) only this student; repeat or use commas")
    g.add_argument("--students-file", metavar="FILE", help="grade only the entries named in FILE, one a line")
    g.add_argument("--force", action="store_true", help="grade again students already graded")
    g = p.add_argument_group("how")
    g.add_argument("--jobs", type=int, help="submissions built at once on the CPU, sharing its cores (default: one "
                                            "per GPU; without a GPU a quarter of the cores, at least 1, at most 4)")
    g.add_argument("--gpus", default="auto", help="GPUs to use, one worker each: 0,1 / none / auto (default: "
                                                  "CUDA_VISIBLE_DEVICES if set, else every GPU nvidia-smi lists)")
    g.add_argument("--seed", help="the inputs' seed for every lesson of every student (default: the class's, "
                                  "kept in GRADES/class.json; chosen at random the first time)")
    g.add_argument("--timeout", type=int, metavar="S", help="seconds one exercise may run (grade --timeout; "
                                                            "default: the grader's, 180)")
    g.add_argument("--build-time-limit", type=int, default=1800, metavar="S",
                   help="seconds for one submission's copy, configure and build (default 1800)")
    g.add_argument("--test-time-limit", type=int, default=7200, metavar="S",
                   help="seconds for one submission's tests, all lessons (default 7200)")
    g.add_argument("--sandbox", choices=("auto", "bwrap", "none"), default="auto",
                   help="isolate student code with bubblewrap: auto (if it runs here, else none with a warning)")
    g.add_argument("--sandbox-hide", metavar="DIR", action="append", default=[],
                   help="another folder student code must not see (repeat)")
    g.add_argument("--meson-option", metavar="KEY=VALUE", action="append", default=[],
                   help="passed to meson setup as -DKEY=VALUE, e.g. gpu_arch=sm_90 or threshold_scale=0.9")
    g.add_argument("--work", metavar="DIR", help="the class's grader build, reused from run to run, and the build "
                                                 "slots (default GRADES/work; a local disk is faster)")
    g.add_argument("--keep-work", action="store_true", help="keep the last submission built in each slot as it "
                                                            "was (copy, objects, results), to look into")
    g.add_argument("--max-submission-mb", type=int, default=50, help="largest submission accepted (default 50)")
    g.add_argument("--teaching-tables", action="store_true",
                   help="run each lesson's teaching table too (exercise NN.0: ungraded, and a large share of a "
                        "submission's GPU time, docs/class_grading.md; left out by default)")
    g = p.add_argument_group("Slurm")
    g.add_argument("--slurm", action="store_true", help="write a job array (GRADES/slurm/) instead of grading here")
    g.add_argument("--submit", action="store_true", help="with --slurm: submit it (sbatch), and the collect step")
    g.add_argument("--slurm-chunk", type=int, default=4, metavar="N", help="submissions per array task (default 4)")
    g.add_argument("--slurm-partition", default="", metavar="P", help="#SBATCH --partition (default: none)")
    g.add_argument("--slurm-time", default="02:00:00", metavar="T", help="#SBATCH --time per task (default 02:00:00)")
    g.add_argument("--slurm-gres", default="gpu:1", metavar="G",
                   help="#SBATCH --gres per task (default gpu:1; '' requests none: a cluster without GPUs)")
    g.add_argument("--slurm-cpus", type=int, default=8, metavar="N", help="#SBATCH --cpus-per-task (default 8)")
    g.add_argument("--slurm-option", metavar="OPTION", action="append", default=[],
                   help="another #SBATCH line, e.g. --slurm-option=--account=gpu101 (repeat)")
    # What the scripts of --slurm run: the grader job, then each task of the array.
    g.add_argument("--grader-only", action="store_true",
                   help="build the class's grader build (--work, default GRADES/work) and stop: the Slurm grader job")
    g.add_argument("--class-grader", metavar="DIR",
                   help="a grader build that --grader-only made for the class (the Slurm tasks' option): used "
                        "read-only where a build here may link it, else this run builds its own")
    return p


def forwarded(a):
    """The options an array task passes on to this tool (the grading, not the selection)."""
    out = [f"--lessons={a.lessons}"] if a.lessons else []
    out += [f"--timeout={a.timeout}"] if a.timeout else []
    out += [f"--build-time-limit={a.build_time_limit}", f"--test-time-limit={a.test_time_limit}",
            f"--sandbox={a.sandbox}", f"--max-submission-mb={a.max_submission_mb}"]
    out += [f"--sandbox-hide={h}" for h in a.sandbox_hide] + [f"--meson-option={m}" for m in a.meson_option]
    out += (["--force"] if a.force else []) + (["--keep-work"] if a.keep_work else [])
    out += ["--teaching-tables"] if a.teaching_tables else []
    return out  # not --work: slurm.write_scripts gives each task a folder of its own in it


def default_jobs(gpus, cpus):
    """How many submissions to build at once. A submission's tests take several times its
    build: one build per GPU keeps every GPU fed and gives each build the most cores. Without
    a GPU ([None]) the builds are the whole job: a quarter of the cores, at most 4."""
    return max(1, min(4 if gpus == [None] else len(gpus), cpus // 4))


def detect_gpus(arg):
    """[GPU ids] to give one worker each; [None] for one worker without a GPU."""
    if arg == "none":
        return [None]
    if arg != "auto":
        return [g.strip() for g in arg.split(",") if g.strip()]
    env = os.environ.get("CUDA_VISIBLE_DEVICES", "").strip()
    if env and env != "NoDevFiles":
        return [g.strip() for g in env.split(",") if g.strip()]
    try:
        r = subprocess.run(["nvidia-smi", "--query-gpu=index", "--format=csv,noheader"], capture_output=True,
                           text=True, timeout=60)
        found = [l.strip() for l in r.stdout.splitlines() if l.strip().isdigit()] if r.returncode == 0 else []
    except (OSError, subprocess.SubprocessError):
        found = []
    return found or [None]


def choose_lessons(all_lessons, spec):
    if not spec:
        return all_lessons
    wanted = {w.strip().removeprefix("lesson").split("-")[0] for w in spec.split(",") if w.strip()}
    chosen = [l for l in all_lessons if l.test.removeprefix("lesson") in wanted]
    unknown = wanted - {l.test.removeprefix("lesson") for l in chosen}
    if unknown:
        raise SystemExit(f"--lessons: no lesson {', '.join(sorted(unknown))}; the course has "
                         + ", ".join(l.test for l in all_lessons))
    return chosen


def select(entries, a, out, lessons, revision=""):
    """(entries to grade, [names of those skipped: graded already, on this submission])."""
    names = {n.strip() for o in a.only for n in o.split(",") if n.strip()}
    if a.students_file:
        names |= {l.strip() for l in pathlib.Path(a.students_file).read_text().splitlines() if l.strip()}
    if names:
        unknown = names - {e.name for e in entries} - {e.path.name for e in entries}
        if unknown:
            raise SystemExit(f"no submission named {', '.join(sorted(unknown))} in {a.submissions}")
        entries = [e for e in entries if e.name in names or e.path.name in names]
    if a.force or a.only:
        return entries, []
    todo, skipped, older = [], [], set()
    for e in entries:
        r = grading.load_record(grading.student_folder(out, e.name))
        graded = r and r.get("complete") and {l["test"] for l in r.get("lessons", [])} >= {l.test for l in lessons}
        if graded and r.get("sha256") == entry_hash(e):
            skipped.append(e.name)
            if revision and r.get("grader_revision") != revision:
                older.add(r.get("grader_revision"))
        else:
            todo.append(e)
    if older:
        print(f"note: some students were graded with grader revision {', '.join(sorted(older))}, not {revision}; "
              "--force grades everyone with this one", file=sys.stderr)
    return todo, skipped


def warn(lines):
    bar = "!" * 78
    print("\n".join([bar] + [f"!! {l}" for l in lines] + [bar]), file=sys.stderr)


def choose_sandbox(a, hide):
    if a.sandbox == "none":
        warn(["--sandbox none: student code runs UNISOLATED, with your rights, your files and the network."])
        return sandbox.Sandbox("none", ROOT, hide)
    why = sandbox.probe(ROOT, hide)
    if why is None:
        return sandbox.Sandbox("bwrap", ROOT, hide)
    if a.sandbox == "bwrap":
        raise SystemExit(f"--sandbox bwrap: {why}")
    warn([f"No sandbox: {why}.", "Student code will run UNISOLATED, with your rights, your files and the network.",
          "Install bubblewrap and allow unprivileged user namespaces, or grade only code you trust",
          "(docs/class_grading.md, section Isolation)."])
    return sandbox.Sandbox("none", ROOT, hide)


def class_seed(out, given):
    settings = slurm.class_settings(out)
    seed = given or settings.get("seed") or str(random.randrange(1, 10 ** 9))
    if not seed.isdigit():
        raise SystemExit(f"--seed takes a number, not {seed!r}")
    if settings.get("seed") != seed:
        outputs.write_text(pathlib.Path(out) / "class.json", json.dumps({"seed": seed}, indent=1) + "\n")
    return seed


def render(out):
    records = grading.load_records(out)
    cols = outputs.render_all(out, records)
    print(f"{len(records)} students, {sum(c.exercise is not None for c in cols)} exercises: "
          f"{out / 'gradebook.csv'}, {out / 'report.html'}, {out / 'junit'}/, {out / 'gradescope'}/")
    return records


def collect_main(argv):
    p = argparse.ArgumentParser(prog="grade_class.py collect", description="Merge GRADES/parts/* (the tasks of "
                                "--slurm) into GRADES and write the gradebook, JUnit, Gradescope and report files.")
    p.add_argument("out", metavar="GRADES")
    out = pathlib.Path(p.parse_args(argv).out).resolve()
    merged, missing = slurm.collect(out)
    print(f"collected {merged} students from {out / 'parts'}")
    render(out)
    if missing:
        print(f"no grading yet for {len(missing)} submissions of the array's chunks: {', '.join(missing)} "
              "(see GRADES/slurm/task-*.log)", file=sys.stderr)
        return 1
    return 0


def class_grader(a, work, revision, log):
    """The grader build of --class-grader when this run may use it (course.shared_refused),
    else None, having said why: the run then builds its own, as on a partition of GPUs of
    several kinds, where the grader job's node had another."""
    if not a.class_grader:
        return None
    shared = pathlib.Path(a.class_grader).resolve()
    probe = grading.Settings(revision=revision, grader_build=shared, meson_options=a.meson_option)
    why = course.shared_refused(ROOT, shared, work / "probe", revision, a.meson_option,
                                lambda build, kernels: grading.setup_command(probe, build, kernels), log)
    if why:
        print(f"the class's grader build {shared} does not fit this run ({why}): building one here", file=sys.stderr)
    return None if why else shared


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["collect"]:
        return collect_main(argv[1:])
    a = parser().parse_args(argv)
    subs, out = pathlib.Path(a.submissions).resolve(), pathlib.Path(a.out).resolve()
    if not subs.is_dir():
        raise SystemExit(f"{subs}: not a folder")
    entries, left_out = find_entries(subs)
    if left_out:
        print(f"left out (neither a folder nor an archive): {', '.join(left_out)}", file=sys.stderr)
    out.mkdir(parents=True, exist_ok=True)
    seed = class_seed(out, a.seed)
    if a.slurm:  # each task's GRADES is GRADES/parts/K: the other parts are hidden with the whole of GRADES
        names = [e.path.name for e in select(entries, argparse.Namespace(**{**vars(a), "force": True}), out, [])[0]]
        grader, array, collect, n = slurm.write_scripts(
            out, ROOT, subs, names, seed, forwarded(a) + [f"--sandbox-hide={out}"], a.slurm_chunk,
            a.slurm_partition, a.slurm_time, a.slurm_gres, a.slurm_cpus, a.slurm_option, work=a.work)
        print(f"wrote {grader}, {array} ({n} tasks of at most {a.slurm_chunk} submissions) and {collect}")
        if a.submit:
            ids = slurm.submit(grader, array, collect)
            print(f"submitted job {ids[0]}, which builds the grader; job array {ids[1]} after it; "
                  f"job {ids[2]} collects its results into {out} when it ends")
        else:
            print(f"submit: g=$(sbatch --parsable {grader}) && a=$(sbatch --parsable --dependency=afterany:$g "
                  f"{array}) && sbatch --dependency=afterany:$a {collect}")
        return 0

    work = pathlib.Path(a.work).resolve() if a.work else out / "work"
    work.mkdir(parents=True, exist_ok=True)
    box = None if a.grader_only else choose_sandbox(a, [subs, out, work] + a.sandbox_hide)
    # -Drevision given through --meson-option names the course's revision, as in meson.build;
    # otherwise git describe, as meson.build does without it.
    given = [m.split("=", 1)[1] for m in a.meson_option if m.startswith("revision=")]
    revision = given[-1] if given else course.revision(ROOT)
    if any(m.startswith("prebuilt_grader=") for m in a.meson_option):
        raise SystemExit("--meson-option prebuilt_grader: the tool builds the class's grader itself (GRADES/work/grader)")
    # The class's grader build (trusted, unsandboxed): the course with its starters, configured
    # as every submission's build will be. It says which lessons there are, and is where the
    # grader is compiled, once for the class (kept from run to run; Ninja rebuilds what changed).
    grader_build, grader_log = work / "grader", work / "grader.log"
    grader_log.write_text("")
    shared = class_grader(a, work, revision, grader_log)
    try:
        lessons = choose_lessons(course.lessons_of_starter_build(shared, ROOT / "starter") if shared else
                                 course.configure_grader(ROOT, grader_build, revision, a.meson_option, grader_log),
                                 a.lessons)
    except RuntimeError as e:
        raise SystemExit(str(e))
    todo, skipped = select(entries, a, out, lessons, revision)
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1  # Slurm's share
    gpus = detect_gpus(a.gpus)
    jobs = a.jobs or default_jobs(gpus, cpus)
    listings = {}
    try:
        if shared and todo:
            grader_build, listings = shared, course.list_exercises(shared, lessons, grader_log)
            print(f"the class's grader build, built once by the grader job, is used read-only: {shared}",
                  file=sys.stderr)
        elif todo or a.grader_only:
            t0 = time.monotonic()
            listings = course.build_grader(grader_build, lessons, cpus, grader_log)
            print(f"the grader is built ({time.monotonic() - t0:.0f} s, once for the class): {grader_build}",
                  file=sys.stderr)
    except RuntimeError as e:
        raise SystemExit(str(e))
    if a.grader_only:
        course.mark_shared(grader_build, revision, a.meson_option)
        return 0
    s = grading.Settings(course=ROOT, out=out, work=work, starter=ROOT / "starter", lessons=lessons,
                         revision=revision, seed=seed, timeout=a.timeout, jobs=jobs,
                         ninja_jobs=max(1, cpus // jobs), gpus=gpus, sandbox=box,
                         build_limit=a.build_time_limit, test_limit=a.test_time_limit, meson_options=a.meson_option,
                         keep_work=a.keep_work, teaching_tables=a.teaching_tables,
                         max_bytes=a.max_submission_mb << 20, grader_build=grader_build, listings=listings,
                         shipped=copies.Shipped(ROOT))
    gpus = "none: every lesson will SKIP" if s.gpus == [None] else ",".join(s.gpus)
    print(f"grading {len(todo)} of {len(entries)} submissions"
          + (f" ({len(skipped)} already graded: skipped; --force grades them again)" if skipped else "")
          + f" · lessons {','.join(l.test for l in lessons)} · sandbox {box.mode} · GPUs {gpus} · "
          f"{jobs} build(s) at a time · seed {seed} · grader revision {s.revision}", file=sys.stderr)
    try:
        records = grading.grade_submissions(todo, s, grading.Progress(len(todo)))
    except KeyboardInterrupt:
        sandbox.stop_all()
        print("\nstopped; the students graded so far are kept (run again to go on)", file=sys.stderr)
        os._exit(130)
    render(out)
    broken = [r["student"] for r in records if not r.get("complete")]
    if broken:
        print(f"the grading itself failed for {', '.join(broken)} (see their section of report.html); "
              "run again to retry them", file=sys.stderr)
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
