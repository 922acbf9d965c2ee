#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The docs site's page of figures measured on the project's GPUs, drawn from results files.

    python3 tools/measured_pages.py docs/measured OUT_DIR [--stamp FILE] [--depfile FILE]

docs/measured/ holds one folder per GPU (nvidia-h200/), each with reference/ (the results
files of a run of solutions/) and starter/ (a run of starter/), as `meson test` writes them
(docs/results_schema.md), and history.md, the project's runs revision by revision in words
(many left no results file here), which the page shows first. The Doxyfile excludes that
file: it is a part of this page, not a page of its own. This script writes
OUT_DIR/measured.md, a Doxygen page headed
`# Measured on the project's GPUs {#measured}`, and the SVG charts it embeds, all named
measured_*.svg (earlier ones of that name in OUT_DIR are removed first). Per GPU and lesson:
the bar chart of each graded exercise's reference figure against its threshold and ceiling,
with the starter's figure as a second, paler bar; the lesson's teaching table; and per GPU
the roofline of the reference runs. Every number comes from the results files. The charts
are drawn by the functions of tools/report.py, the page a student gets for their own run.

docs/meson.build runs it before Doxygen: --stamp names a file touched last (the build's
output), --depfile a Makefile-style list of what was read (the JSON files, their folders,
both scripts), so that Ninja runs it again when any of them changes. Standard library only.
"""
import argparse
import importlib.util
import pathlib
import re
import sys

HERE = pathlib.Path(__file__).resolve().parent


def load_report():
    """tools/report.py as a module (a script beside this one, not an installed package)."""
    spec = importlib.util.spec_from_file_location("cuda_lessons_report", HERE / "report.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


report = load_report()
RUNS = ("reference", "starter")
PREFIX = "measured_"
HISTORY = "history.md"


def slug(s):
    """A name for files and Doxygen anchors: letters, digits, '-' and '_' only."""
    return re.sub(r"[^A-Za-z0-9_-]+", "_", str(s)).strip("_") or "x"


def anchor(*parts):
    return "measured_" + "_".join(re.sub(r"[^a-z0-9]+", "_", str(p).lower()).strip("_") for p in parts)


def md_text(s):
    """Text for a Doxygen Markdown table cell or paragraph: no characters it reads as markup."""
    s = str(s).replace("|", "/").replace("\\", "/").replace("<", "&lt;").replace(">", "&gt;")
    return s.replace("@", "(at)").replace("#", "No.").replace("`", "").replace("*", "x").replace("_", "\\_")


def gpu_folders(root):
    """The GPU folders under root: those with a reference/ or starter/ folder of JSON files."""
    root = pathlib.Path(root)
    return [d for d in sorted(root.iterdir()) if d.is_dir() and any(any((d / r).glob("*.json")) for r in RUNS
                                                                      if (d / r).is_dir())]


def lesson_docs(found):
    return {t: d for t, d in found["docs"].items() if not report.is_known_bad(d)}


def figure_cell(e):
    """'3698 PASS' for an exercise with a figure, else its verdict and reason."""
    if e is None:
        return "not run"
    f = report.number(report.figures(e).get("figure"))
    v, r = e.get("verdict", "?"), e.get("reason", "")
    why = f"{v} ({r})" if r not in ("", "none") else v
    return f"{report.fmt(f)} {why}" if f is not None else f"no figure: {why}"


def gpu_section(folder, svgs, inputs):
    """The Markdown of one GPU folder; its SVG files go into `svgs` {name: text}."""
    runs = {}
    for r in RUNS:
        found = report.read_results_dir(folder / r)
        runs[r] = lesson_docs(found)
        inputs.append(folder / r)
        inputs.extend(sorted((folder / r).glob("*.json")))
        runs[r + "_problems"] = found["problems"]
    ref, sta = runs["reference"], runs["starter"]
    every = list(ref.values()) + list(sta.values())
    gpu = next((d["gpu"] for d in every if isinstance(d.get("gpu"), dict)), {})
    name = gpu.get("name") or folder.name
    g = slug(folder.name)
    out = [f"## {md_text(name)} {{#{anchor(folder.name)}}}", ""]
    stamps = sorted(str(d.get("timestamp", "")) for d in every if d.get("timestamp"))
    revisions = sorted({str(d.get("grader_revision", "")) for d in every if d.get("grader_revision")})
    out.append(f"Results files in `docs/measured/{md_text(folder.name)}`: {md_text(name)}, "
               f"{md_text(gpu.get('arch', '?'))}, {md_text(gpu.get('sms', '?'))} SMs, L2 "
               f"{report.fmt_bytes(gpu.get('l2_bytes'))}, memory {report.fmt_bytes(gpu.get('memory_bytes'))}. "
               + (f"Measured from {md_text(stamps[0])} to {md_text(stamps[-1])} (UTC), " if stamps else "")
               + f"grader revision {md_text(', '.join(revisions) or 'unknown')}. The reference run graded "
               "`solutions/`, the starter run `starter/`; each run measured its own ceilings and drew its own "
               "inputs from its seed.")
    out += ["", "| run | test | timestamp (UTC) | seed | copy GB/s | FMA GFLOP/s | DRAM GB/s | passed | failed |",
            "|---|---|---|---|---:|---:|---:|---:|---:|"]
    for r in RUNS:
        for t, d in runs[r].items():
            c, s = report.ceilings(d), d.get("summary") if isinstance(d.get("summary"), dict) else {}
            out.append(f"| {r} | {md_text(t)} | {md_text(d.get('timestamp', ''))} | {md_text(d.get('seed', ''))} | "
                       f"{report.fmt(c.get('copy_gbs'))} | {report.fmt(c.get('fma_gflops'))} | "
                       f"{report.fmt(c.get('dram_gbs'))} | {md_text(s.get('passed', '-'))} | "
                       f"{md_text(s.get('failed', '-'))} |")
    problems = runs["reference_problems"] + runs["starter_problems"]
    if problems:
        out += ["", "Files not shown: " + "; ".join(md_text(p) for p in problems) + "."]
    out.append("")
    for test in sorted(set(ref) | set(sta)):
        first, second = (ref.get(test), sta.get(test)) if test in ref else (sta.get(test), None)
        first_name = "reference" if test in ref else "starter"
        lesson = first.get("lesson") or test
        out += [f"### Lesson {md_text(lesson)}: {md_text(first.get('title', ''))} {{#{anchor(folder.name, test)}}}", ""]
        if first.get("status") != "graded":
            out += [f"The {first_name} run was not graded: {md_text(first.get('status'))}, "
                    f"{md_text(first.get('status_message', ''))}", ""]
            continue
        rows = report.exercise_rows(first, second)
        file = f"{PREFIX}{g}_{slug(test)}_exercises.svg"
        svgs[file] = report.exercise_chart(rows, f"Lesson {lesson} on {name}: {first_name} and starter figures"
                                           if second else f"Lesson {lesson} on {name}", first_name=first_name,
                                           second_name="starter" if second else None)
        out += [f'\\image html {file} "Lesson {md_text(lesson)} on {md_text(name)}: each exercise against its '
                f'threshold (black line); each row ends at its ceiling"', ""]
        other = {e.get("exercise"): e for e in report.exercises(second)} if second else {}
        out += ["| exercise | " + first_name + (" | starter" if second else "") + " | threshold | unit | ceiling |",
                "|---|---|" + ("---|" if second else "") + "---:|---|---|"]
        for e in report.exercises(first):
            if report.is_teaching(e):
                continue
            f, lab = report.figures(e), report.labels(e)
            cells = [md_text(e.get("exercise", "?")), md_text(figure_cell(e))]
            if second:
                cells.append(md_text(figure_cell(other.get(e.get("exercise")))))
            cells += [report.fmt(report.number(f.get("threshold"))), md_text(lab.get("unit", "")),
                      md_text(lab.get("ceiling", "-"))]
            out.append("| " + " | ".join(cells) + " |")
        out.append("")
        for i, grp in enumerate(report.teaching_groups(first, second), 1):
            file = f"{PREFIX}{g}_{slug(test)}_teaching_{i}.svg"
            ref_line = report.teaching_reference(grp, report.ceilings(first))
            svgs[file] = report.teaching_chart(grp, f"{grp['exercise']} ({name}): {report.unit_words(grp)}",
                                               ref_line, mine=f"the graded launchers ({first_name})",
                                               second_name="starter" if second else None)
            out += [f'\\image html {file} "Teaching table {md_text(grp["exercise"])} '
                    f'in {md_text(report.unit_words(grp))}: {md_text(first_name)} run'
                    + (", starter run paler" if second else "") + '"', ""]
    graded = [d for d in ref.values() if d.get("status") == "graded" and not d.get("sanitizer")]
    data = report.roofline_data(graded)
    if data["copy"]:
        out += [f"### Roofline, reference runs {{#{anchor(folder.name, 'roofline')}}}", ""]
        file = f"{PREFIX}{g}_roofline.svg"
        svgs[file] = report.roofline_chart(data, f"Roofline of {name} (ceilings of the {data['run']} reference run)")
        out += [f'\\image html {file} "Roofline of {md_text(name)}: the exercises graded in GFLOP/s"', ""]
        out += [md_text(n) for n in data["notes"]] + [""]
        file = f"{PREFIX}{g}_memory.svg"
        svgs[file] = report.memory_strip(data, "Memory-bound exercises (reference): % of copy")
        out += [f'\\image html {file} "Exercises graded in GB/s, as a percentage of the copy bandwidth of their run"',
                ""]
    return out


def build(root):
    """(Markdown text, {svg name: text}, [paths read]) for the folder docs/measured."""
    root = pathlib.Path(root)
    svgs, inputs = {}, [root, HERE / "report.py", HERE / "measured_pages.py"]
    out = ["# Measured on the project's GPUs {#measured}", "",
           "What the reference solutions and the starters reach on the GPUs the project was tested on: each "
           "chart on this page is drawn, when the docs are built, from the results files committed under "
           "`docs/measured/` (one folder per GPU), which `meson test` wrote on that GPU "
           "(\\ref results_schema). Every number here is read from those files; `tools/measured_pages.py` draws "
           "them with the chart functions of `tools/report.py`, which draws the same charts for your own results: "
           "`python3 tools/report.py build` after `meson test -C build`.", ""]
    history = root / HISTORY
    if history.is_file():
        inputs.append(history)
        out += [history.read_text(encoding="utf-8").rstrip("\n"), ""]
    folders = gpu_folders(root) if root.is_dir() else []
    if not folders:
        out += ["No results files are committed under `docs/measured/` yet.", ""]
    for folder in folders:
        inputs.append(folder)
        out += gpu_section(folder, svgs, inputs)
    return "\n".join(out) + "\n", svgs, inputs


def depfile_path(p):
    return str(p).replace("\\", "\\\\").replace(" ", "\\ ").replace("#", "\\#").replace("$", "$$")


def main(argv=None):
    ap = argparse.ArgumentParser(description="Doxygen page and SVG charts of the committed results files.")
    ap.add_argument("measured", help="the folder of committed results files (docs/measured)")
    ap.add_argument("out_dir", help="where measured.md and the SVG files go")
    ap.add_argument("--stamp", help="a file to touch when everything is written")
    ap.add_argument("--depfile", help="a Makefile-style list of the files read, for Ninja")
    a = ap.parse_args(argv)
    text, svgs, inputs = build(pathlib.Path(a.measured).resolve())
    out = pathlib.Path(a.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob(PREFIX + "*.svg"):
        if old.name not in svgs:
            old.unlink()
    for name, svg in svgs.items():
        (out / name).write_text(svg, encoding="utf-8")
    (out / "measured.md").write_text(text, encoding="utf-8")
    if a.depfile:
        target = a.stamp or str(out / "measured.md")
        pathlib.Path(a.depfile).write_text(
            depfile_path(target) + ": " + " \\\n  ".join(depfile_path(p) for p in inputs) + "\n", encoding="utf-8")
    if a.stamp:
        pathlib.Path(a.stamp).write_text("measured.md and %d SVG files in %s\n" % (len(svgs), out), encoding="utf-8")
    print(f"{out / 'measured.md'}: {len(svgs)} SVG files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
