# SPDX-License-Identifier: MIT
"""Grading on a Slurm cluster: a grader job, then a job array, one task per chunk of
submissions and one GPU each, then a collect job.

`--slurm` writes GRADES/slurm/grader.sbatch, grade_class.sbatch and collect.sbatch (plain
sbatch: every #SBATCH line can be overridden on sbatch's command line) and the chunks
(GRADES/slurm/chunk-<task>.txt, one entry a line). The grader job builds the class's grader
once (`--grader-only`, into GRADES/work/grader or --work), on a node of the partition the
tasks run on. Each task runs this same tool on its chunk into GRADES/parts/<task>/ and links
that build read-only (`--class-grader`), unless a build on its node may not link it (another
kind of GPU there, on a partition of several: meson.build says so); then it builds a grader of
its own, for its node. `--submit` submits the three, each after the one before (afterany).
`collect` merges the parts' student folders into GRADES/students/ (the newest grading of a
student wins) and writes the outputs again."""
import json
import pathlib
import shlex
import shutil
import subprocess

from . import grading
from .submissions import remove_tree


def chunks(names, size):
    return [names[i:i + size] for i in range(0, len(names), size)]


def _header(lines, partition, extra):
    out = ["#!/bin/bash"] + [f"#SBATCH {l}" for l in lines]
    out += [f"#SBATCH --partition={partition}"] if partition else []
    return out + [f"#SBATCH {e}" for e in extra]


def write_scripts(out, course, submissions, names, seed, forwarded, chunk_size=4, partition="", time="02:00:00",
                  gres="gpu:1", cpus=8, extra=(), python="python3", work=None):
    """Writes the grader job's script, the array's, the collect job's and the chunks; returns
    (grader script, array script, collect script, number of tasks). `work` (--work): the
    grader job builds in it, and each task gets a folder of its own in it for its slots (and
    its own grader, where it needs one)."""
    out, course = pathlib.Path(out).resolve(), pathlib.Path(course).resolve()
    folder = out / "slurm"
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("chunk-*.txt"):
        old.unlink()
    parts = chunks(names, max(1, chunk_size))
    for i, part in enumerate(parts):
        (folder / f"chunk-{i}.txt").write_text("".join(n + "\n" for n in part))
    q = shlex.quote
    tool = q(str(course / "tools" / "grade_class.py"))
    run = f"exec {python} {tool} {q(str(pathlib.Path(submissions).resolve()))}"
    shared_work = pathlib.Path(work).resolve() if work else out / "work"
    common = f"--seed {q(seed)} " + " ".join(q(a) for a in forwarded)
    # The grader job asks for what a task gets, so that it runs on a node of the tasks' kind.
    node = ["--ntasks=1", f"--cpus-per-task={cpus}", f"--time={time}"] + ([f"--gres={gres}"] if gres else [])
    grader = _header(["--job-name=grade-class-grader", f"--output={folder}/grader.log"] + node, partition, extra) + [
        "# Written by tools/grade_class.py --slurm: builds the class's grader once, for the array's tasks.",
        "set -eu",
        f"{run} --out {q(str(out))} --work {q(str(shared_work))} --grader-only {common}", ""]
    lines = ["--job-name=grade-class", f"--array=0-{len(parts) - 1}", f"--output={folder}/task-%a.log"] + node
    array = _header(lines, partition, extra) + [
        "# Written by tools/grade_class.py --slurm: one task per chunk of submissions (slurm/chunk-<task>.txt),",
        "# each graded into parts/<task>/ on the GPU Slurm gives it (CUDA_VISIBLE_DEVICES).",
        "set -eu",
        'task="${SLURM_ARRAY_TASK_ID:?submit this script with sbatch: it is a job array}"',
        f'{run} --out {q(str(out / "parts"))}/"$task" --students-file {q(str(folder))}/chunk-"$task".txt '
        + (f'--work {q(str(pathlib.Path(work).resolve()))}/"$task" ' if work else "") +
        f"--class-grader {q(str(shared_work / 'grader'))} {common}", ""]
    collect = _header(["--job-name=grade-class-collect", "--ntasks=1", "--time=00:30:00",
                       f"--output={folder}/collect.log"], partition, extra) + [
        "# Written by tools/grade_class.py --slurm: merges the array's parts into the gradebook.",
        "set -eu", f"exec {python} {tool} collect {q(str(out))}", ""]
    scripts = {"grader.sbatch": grader, "grade_class.sbatch": array, "collect.sbatch": collect}
    for name, lines in scripts.items():
        (folder / name).write_text("\n".join(lines))
        (folder / name).chmod(0o755)
    return (*(folder / name for name in scripts), len(parts))


def submit(grader_script, array_script, collect_script):
    """sbatch the three scripts, each after the one before (afterany: a task whose grader job
    failed builds its own grader, and collect reports what no task graded); returns the
    three job ids."""
    def sbatch(*args):
        r = subprocess.run(["sbatch", "--parsable", *args], capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError(f"sbatch {' '.join(args)} failed: {r.stderr.strip() or r.stdout.strip()}")
        return r.stdout.strip().split(";")[0]
    grader = sbatch(str(grader_script))
    array = sbatch(f"--dependency=afterany:{grader}", str(array_script))
    return grader, array, sbatch(f"--dependency=afterany:{array}", str(collect_script))


def collect(out):
    """Merges GRADES/parts/*/students/* into GRADES/students/; returns (students merged,
    [entries of the chunks that have no record])."""
    out = pathlib.Path(out)
    merged = 0
    for part in sorted((out / "parts").glob("*/students/*")):
        record = grading.load_record(part)
        if not record:
            continue
        mine = grading.load_record(out / "students" / part.name)
        if mine and mine.get("finished", "") > record.get("finished", ""):
            continue  # graded again since (--only), keep the newer grading
        target = out / "students" / part.name
        tmp = target.with_name("." + part.name + ".new")
        remove_tree(tmp)
        shutil.copytree(part, tmp)
        remove_tree(target)
        tmp.rename(target)
        merged += 1
    class_file = out / "class.json"
    if not class_file.is_file():
        for c in sorted((out / "parts").glob("*/class.json")):
            shutil.copyfile(c, class_file)
            break
    graded = {name for r in grading.load_records(out) for name in (r["entry"], r["student"])}
    missing = [n for c in sorted((out / "slurm").glob("chunk-*.txt")) for n in c.read_text().split("\n")
               if n and n not in graded]
    return merged, missing


def class_settings(out):
    """GRADES/class.json ({"seed": ...}) or {}."""
    try:
        return json.loads((pathlib.Path(out) / "class.json").read_text())
    except (OSError, ValueError):
        return {}
