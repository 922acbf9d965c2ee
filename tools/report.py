#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Charts of a build's results files, as one offline HTML page.

    python3 tools/report.py BUILD_DIR [--out FILE]

Run it after `meson test -C build`: it reads every results file in BUILD_DIR/results/ (schema
cuda-lessons-results, version 1: docs/results_schema.md) and writes one self-contained page,
BUILD_DIR/report.html unless --out names another file, then prints its path. The page has
inline CSS and inline SVG only: no script, nothing fetched from a network.

The page shows the GPU and the ceilings of each run; per lesson, the table of its exercises
and a bar chart of each graded figure against its threshold and its ceiling, with the
messages of the exercises that failed; each teaching table of the lesson (exercise NN.0) as a
bar chart, its rows in the grader's order with the grader's labels and the student's rows
marked, all read from the exercise's `tables` (for files written before those were recorded,
see results_files.teaching_tables); the roofline of the GPU with the exercises that count
flops, and a strip of the memory-bound ones as a percentage of the copy bandwidth. Where an
exercise recorded timelines (lesson 07.1: one call each of the student's pipeline, the serial
one and the grader's best, traced with CUPTI), they are drawn as lanes (copy in, work, copy
out) on one time axis, with the same lanes as text below.

A `<test>.memcheck.json` or `<test>.racecheck.json` file is read only for a test that has
no plain `<test>.json`. A folder that is missing or holds no results file is an error
(exit code 1), and so is a folder none of whose files this script can read.

The SVG charts are plain functions of numbers (exercise_chart, teaching_chart, roofline_chart,
memory_strip, timeline_chart); tools/measured_pages.py draws the docs site's charts with the same functions.
Standard library only.
"""
import argparse
import html
import math
import pathlib
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import lesson_list  # noqa: E402  (beside this script)
from results_files import (SCHEMA, SCHEMA_VERSION, files_by_test, read_results_file,  # noqa: E402  (beside this script)
                           teaching_tables)

ROOT = pathlib.Path(__file__).resolve().parent.parent
SANITIZERS = ("memcheck", "racecheck")

SETTING_SUFFIX = "_best_setting"  # the label naming the best setting of a swept row


# ====================================================================== reading results files

def number(value):
    """value as a float when it is a finite number, else None (absent, null, text, boolean)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
        return float(value)
    return None


def read_results_dir(folder):
    """{"docs": {test: document}, "problems": [text], "unused": [file name]} for one folder.

    Per test the plain file `<test>.json` is read; a sanitizer's `<test>.memcheck.json` or
    `<test>.racecheck.json` only when the test has no plain file."""
    chosen, unused = files_by_test(folder)
    docs, problems = {}, []
    for test, path in chosen:
        doc, problem = read_results_file(path)
        if doc is None:
            problems.append(problem)
        else:
            doc["_file"] = path.name
            docs[test] = doc
    return {"docs": dict(sorted(docs.items())), "problems": problems, "unused": unused}


def is_known_bad(doc):
    return bool(doc.get("expect_reject")) or "-bad-" in str(doc.get("test", ""))


def figures(e):
    f = e.get("figures")
    return f if isinstance(f, dict) else {}


def labels(e):
    f = e.get("labels")
    return f if isinstance(f, dict) else {}


def ceilings(doc):
    c = doc.get("ceilings")
    return {k: number(v) for k, v in c.items()} if isinstance(c, dict) else {}


def exercises(doc):
    ex = doc.get("exercises")
    return [e for e in ex if isinstance(e, dict)] if isinstance(ex, list) else []


def is_teaching(e):
    return bool(e.get("teaching")) or str(e.get("exercise", "")).split(" ")[0].endswith(".0")


# ====================================================================== numbers as text

def fmt(x, digits=None):
    """A figure for people: 3698, 31.2, 2.28; '-' for none."""
    if x is None:
        return "-"
    if digits is not None:
        return f"{x:.{digits}f}"
    a = abs(x)
    if a >= 100 or a == 0:
        return f"{x:.0f}"
    if a >= 10:
        return f"{x:.1f}"
    if a >= 0.01:
        return f"{x:.2f}"
    return f"{x:.2g}"


def fmt_pct(fraction):
    """0.872 -> '87 %'; small fractions keep a digit: 0.00096 -> '0.1 %'."""
    if fraction is None:
        return "-"
    p = 100 * fraction
    return f"{p:.0f} %" if p >= 9.5 or p == 0 else f"{p:.1f} %" if p >= 0.095 else f"{p:.2g} %"


def fmt_bytes(n):
    n = number(n)
    if n is None:
        return "-"
    for unit, size in (("GiB", 2 ** 30), ("MiB", 2 ** 20), ("KiB", 2 ** 10)):
        if n >= size:
            return f"{n / size:.0f} {unit}"
    return f"{n:.0f} B"


def esc(s):
    return html.escape(str(s), quote=True)


# ====================================================================== SVG drawing

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
COLOURS = {
    "PASS": "#2e7d32", "FAIL": "#c62828", "SKIP": "#757575", "INFO": "#1565c0",
    "PASS-pale": "#a5d6a7", "FAIL-pale": "#ef9a9a", "SKIP-pale": "#e0e0e0", "INFO-pale": "#90caf9",
    "mine": "#ef6c00", "mine-pale": "#ffcc80", "ink": "#212121", "grey": "#616161", "grid": "#e0e0e0",
    "roof": "#37474f",
}


def text_width(s, size):
    """An estimate of the width of `s` in pixels (a generous one: DejaVu Sans is wide)."""
    return 0.62 * size * len(str(s))


class Svg:
    """A small SVG writer: elements go in a list, the height is fixed when it is rendered."""

    def __init__(self, width, title):
        self.width, self.title, self.parts = width, title, []

    def add(self, s):
        self.parts.append(s)

    def text(self, x, y, s, size=12, anchor="start", fill=COLOURS["ink"], weight=None, italic=False):
        extra = (f' font-weight="{weight}"' if weight else "") + (' font-style="italic"' if italic else "")
        self.add(f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" fill="{fill}"{extra}>'
                 f"{esc(s)}</text>")

    def rect(self, x, y, w, h, fill, stroke=None, rx=0):
        s = f' stroke="{stroke}"' if stroke else ""
        self.add(f'<rect x="{x:.1f}" y="{y:.1f}" width="{max(w, 0):.1f}" height="{h:.1f}" fill="{fill}" rx="{rx}"{s}/>')

    def line(self, x1, y1, x2, y2, stroke=COLOURS["ink"], width=1, dash=None):
        d = f' stroke-dasharray="{dash}"' if dash else ""
        self.add(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{stroke}" '
                 f'stroke-width="{width}"{d}/>')

    def circle(self, x, y, r, fill, stroke=None):
        s = f' stroke="{stroke}" stroke-width="1.5"' if stroke else ""
        self.add(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r}" fill="{fill}"{s}/>')

    def path(self, d, stroke, width=2, fill="none", dash=None):
        ds = f' stroke-dasharray="{dash}"' if dash else ""
        self.add(f'<path d="{d}" stroke="{stroke}" stroke-width="{width}" fill="{fill}"{ds}/>')

    def render(self, height):
        return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width}" height="{height:.0f}" '
                f'viewBox="0 0 {self.width} {height:.0f}" font-family="{FONT}" role="img">\n'
                f"<title>{esc(self.title)}</title>\n"
                f'<rect x="0" y="0" width="{self.width}" height="{height:.0f}" fill="#ffffff"/>\n'
                + "\n".join(self.parts) + "\n</svg>\n")


def legend(svg, x, y, items):
    """Swatches in a row from (x, y): [(colour or 'marker'/'dash', words)]; returns the end x."""
    for colour, words in items:
        if colour == "marker":
            svg.line(x + 6, y - 10, x + 6, y + 3, width=2.5)
        elif colour == "dash":
            svg.line(x, y - 4, x + 14, y - 4, stroke=COLOURS["grey"], dash="4 3", width=1.5)
        else:
            svg.rect(x, y - 10, 14, 11, colour)
        svg.text(x + 19, y, words, size=11, fill=COLOURS["grey"])
        x += 19 + text_width(words, 11) + 14
    return x


def exercise_rows(doc, second=None):
    """The graded exercises of a results document, as rows of exercise_chart.

    `second` (another document of the same lesson, for instance the starter's run) adds each
    exercise's figure from that run as a second bar."""
    other = {e.get("exercise"): e for e in exercises(second)} if second else {}
    rows = []
    for e in exercises(doc):
        if is_teaching(e):
            continue
        f, lab = figures(e), labels(e)
        row = {"name": str(e.get("exercise", "?")), "verdict": str(e.get("verdict", "?")),
               "reason": str(e.get("reason", "")), "figure": number(f.get("figure")),
               "threshold": number(f.get("threshold")), "ceiling": number(f.get("ceiling")),
               "ceiling_label": str(lab.get("ceiling", "")), "unit": str(lab.get("unit", "")), "second": None}
        if second is not None:
            o = other.get(e.get("exercise"))
            row["second"] = None if o is None else {
                "verdict": str(o.get("verdict", "?")), "reason": str(o.get("reason", "")),
                "figure": number(figures(o).get("figure"))}
        rows.append(row)
    return rows


def exercise_chart(rows, title, first_name="yours", second_name=None, width=900):
    """Horizontal bars, one row per graded exercise: its figure as a bar (PASS and FAIL in
    their colours), its threshold as a marker line, its ceiling as the end of its row (each
    row has its own scale, since each exercise has its own ceiling). With second_name, each
    row's "second" figure is drawn as a second, paler bar."""
    svg = Svg(width, title)
    size, small = 12, 10.5
    name_w = min(300, max([text_width(r["name"], size) for r in rows] + [120]) + 12)
    value_w = 200 if second_name else 150
    x0, x1 = name_w, width - value_w
    bar_w = x1 - x0
    svg.text(8, 20, title, size=14, weight="bold")
    items = [(COLOURS["PASS"], f"PASS ({first_name})"), (COLOURS["FAIL"], f"FAIL ({first_name})")]
    if second_name:
        items += [(COLOURS["PASS-pale"], f"PASS ({second_name})"), (COLOURS["FAIL-pale"], f"FAIL ({second_name})")]
    items += [("marker", "threshold"), ("dash", "ceiling, where a figure passes it")]
    legend(svg, 8, 40, items)
    y = 56
    svg.text(x0, y + 8, "0", size=small, fill=COLOURS["grey"], anchor="middle")
    svg.text(x1, y + 8, "each row ends at its ceiling", size=small, fill=COLOURS["grey"], anchor="end")
    y += 16
    for r in rows:
        values = [v for v in (r["figure"], r["threshold"], r["ceiling"],
                              (r["second"] or {}).get("figure")) if v is not None]
        top = r["ceiling"] if r["ceiling"] else (max(values) if values else 1)
        end = max([top] + values) * (1.0 if max([top] + values) <= top else 1.04)
        scale = bar_w / end if end > 0 else 0
        h1 = 15
        h2 = 9 if second_name else 0
        gap = 2 if second_name else 0
        svg.text(x0 - 8, y + 12, r["name"], size=size, anchor="end")
        svg.rect(x0, y, bar_w, h1 + gap + h2, "#fafafa", stroke=COLOURS["grid"])
        for q in (0.25, 0.5, 0.75):
            if r["ceiling"]:
                gx = x0 + r["ceiling"] * q * scale
                svg.line(gx, y, gx, y + h1 + gap + h2, stroke=COLOURS["grid"])
        unit = r["unit"]
        if r["figure"] is not None:
            svg.rect(x0, y, r["figure"] * scale, h1, COLOURS.get(r["verdict"], COLOURS["grey"]))
            svg.text(x1 + 8, y + 12, f"{fmt(r['figure'])} {unit}  {r['verdict']}", size=size,
                     fill=COLOURS.get(r["verdict"], COLOURS["ink"]), weight="bold")
        else:
            why = f"no figure: {r['verdict']}" + (f" ({r['reason']})" if r["reason"] not in ("", "none") else "")
            svg.text(x0 + 6, y + 12, why, size=small, fill=COLOURS["grey"], italic=True)
        if second_name:
            s = r["second"]
            sy = y + h1 + gap
            if s is None:
                svg.text(x1 + 8, sy + 8, f"{second_name}: not run", size=small, fill=COLOURS["grey"])
            elif s["figure"] is not None:
                svg.rect(x0, sy, s["figure"] * scale, h2, COLOURS.get(s["verdict"] + "-pale", COLOURS["grid"]))
                svg.text(x1 + 8, sy + 8, f"{second_name} {fmt(s['figure'])}  {s['verdict']}", size=small,
                         fill=COLOURS["grey"])
            else:
                why = s["verdict"] + (f" ({s['reason']})" if s["reason"] not in ("", "none") else "")
                svg.text(x1 + 8, sy + 8, f"{second_name}: no figure, {why}", size=small, fill=COLOURS["grey"])
        bottom = y + h1 + gap + h2
        if r["ceiling"] and r["ceiling"] * scale < bar_w - 0.5:
            cx = x0 + r["ceiling"] * scale
            svg.line(cx, y - 3, cx, bottom + 3, stroke=COLOURS["grey"], width=1.5, dash="4 3")
        if r["threshold"] is not None:
            tx = x0 + r["threshold"] * scale
            svg.line(tx, y - 4, tx, bottom + 4, width=2.5)
        left = f"threshold {fmt(r['threshold'])} {unit}" if r["threshold"] is not None else ""
        right = f"ceiling: {r['ceiling_label']}" if r["ceiling_label"] else ""
        ty = bottom + 15
        if left:
            svg.text(x0, ty, left, size=small, fill=COLOURS["grey"])
        if right:
            if left and text_width(left, small) + text_width(right, small) + 16 > bar_w:
                ty += 14
            svg.text(x1, ty, right, size=small, fill=COLOURS["grey"], anchor="end")
        y = ty + 16
    if not rows:
        svg.text(x0, y + 12, "no graded exercise in these results", size=size, fill=COLOURS["grey"], italic=True)
        y += 24
    return svg.render(y + 4)


def teaching_groups(doc, second=None):
    """The teaching tables of a document (its NN.0 exercises), one group per table with rows,
    in the grader's order (results_files.teaching_tables): [{"exercise", "caption", "unit",
    "relative", "rows": [{"key", "label", "value", "setting", "second", "second_setting", "mine"}
    or {"heading": True, "label"}]}]. A heading is kept only where rows with figures follow it;
    a table without any is left out. With `second` (another run of the same lesson), each row's
    figure there, by key."""
    lesson = str(doc.get("lesson", ""))
    other = {e.get("exercise"): e for e in exercises(second)} if second else {}
    groups = []
    for e in exercises(doc):
        if not is_teaching(e):
            continue
        f, lab = figures(e), labels(e)
        o = other.get(e.get("exercise"))
        of, olab = (figures(o), labels(o)) if o else ({}, {})
        for t in teaching_tables(lesson, e):
            rows, heading = [], None
            for r in t["rows"]:
                key = r["key"]
                if not key:
                    heading = {"heading": True, "label": r["label"]}
                    continue
                if heading:
                    rows.append(heading)
                    heading = None
                rows.append({"key": key, "label": r["label"], "value": number(f.get(key)),
                             "setting": lab.get(key + SETTING_SUFFIX), "second": number(of.get(key)) if o else None,
                             "second_setting": olab.get(key + SETTING_SUFFIX) if o else None, "mine": r["student"]})
            if any(not r.get("heading") for r in rows):
                groups.append({"exercise": str(e.get("exercise", "")), "caption": t["caption"].rstrip(": "),
                               "unit": t["unit"], "relative": t["relative"], "rows": rows})
    return groups


def teaching_reference(group, ceil):
    """The line a teaching chart is read against: (words, value) or None: 1 for a table of
    relative times, else the copy bandwidth or the FMA peak of the run, by the table's unit."""
    unit = group["unit"]
    if group["relative"]:
        return "1 = as fast as the reference row", 1.0
    if unit.endswith("GB/s") and ceil.get("copy_gbs"):
        return f"copy {fmt(ceil['copy_gbs'])} GB/s", ceil["copy_gbs"]
    if unit.endswith("GFLOP/s") and ceil.get("fma_gflops"):
        return f"FP32 FMA peak {fmt(ceil['fma_gflops'])} GFLOP/s", ceil["fma_gflops"]
    return None


def unit_words(group):
    return group["unit"] + (", lower is faster" if group["relative"] else "")


def wrap(text, size, width):
    """`text` as lines no wider than `width` pixels (by text_width), broken between words."""
    lines = []
    for word in str(text).split():
        if lines and text_width(lines[-1] + " " + word, size) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def teaching_chart(group, title, reference=None, mine="your launchers", second_name=None, width=900):
    """Horizontal bars of one teaching table's figures, in the grader's order, under its
    caption; its headings as lines of their own; rows of the student's own launchers (`mine`:
    their legend) in another colour; `reference` (words, value) as a dashed line. With
    second_name, each row's "second" figure (the same row in another run) is drawn as a
    second, paler bar."""
    svg = Svg(width, title + (f" ({group['caption']})" if group.get("caption") else ""))
    rows = group["rows"]
    bars = [r for r in rows if not r.get("heading")]
    size, small = 11.5, 10.5
    for r in bars:
        r["text"] = r["label"] + (f" (best: {r['setting']})" if r["setting"] else "")
    name_w = min(340, max([text_width(r["text"], size) for r in bars] + [100]) + 12)
    value_w = 190 if second_name else 120
    x0, x1 = name_w, width - value_w
    bar_w = x1 - x0
    values = [r["value"] for r in bars if r["value"] is not None]
    values += [r["second"] for r in bars if r["second"] is not None]
    if reference:
        values.append(reference[1])
    end = max(values + [1e-9]) * 1.04
    scale = bar_w / end
    svg.text(8, 20, title, size=14, weight="bold")
    y = 20
    for line in wrap(group.get("caption", ""), small, width - 16):
        y += 14
        svg.text(8, y, line, size=small, fill=COLOURS["grey"])
    items = [(COLOURS["INFO"], "the grader's kernels")] + ([(COLOURS["mine"], mine)] if any(r["mine"] for r in bars) else [])
    if second_name:
        items.append((COLOURS["INFO-pale"], f"{second_name} (paler)"))
    if reference:
        items.append(("dash", reference[0]))
    legend(svg, 8, y + 20, items)
    y += 34
    svg.text(x0, y + 8, "0", size=small, fill=COLOURS["grey"], anchor="middle")
    svg.text(x1, y + 8, unit_words(group), size=small, fill=COLOURS["grey"], anchor="end")
    y += 16
    top = y
    h1, h2 = 13, (8 if second_name else 0)
    step = h1 + h2 + (9 if second_name else 7)
    for r in rows:
        if r.get("heading"):
            svg.text(8, y + 11, r["label"], size=small, fill=COLOURS["grey"], weight="bold")
            y += 16
            continue
        svg.text(x0 - 8, y + 11, r["text"], size=size, anchor="end",
                 fill=COLOURS["mine"] if r["mine"] else COLOURS["ink"])
        colour = COLOURS["mine"] if r["mine"] else COLOURS["INFO"]
        text = fmt(r["value"])
        if r["value"] is not None:
            svg.rect(x0, y, r["value"] * scale, h1, colour)
        if second_name:
            pale = COLOURS["mine-pale"] if r["mine"] else COLOURS["INFO-pale"]
            if r["second"] is not None:
                svg.rect(x0, y + h1 + 1, r["second"] * scale, h2, pale)
            s = fmt(r["second"]) + (f" @{r['second_setting']}" if r["second_setting"] else "")
            text += f"  ({second_name} {s})"
        svg.text(x1 + 8, y + 11, text, size=size if not second_name else small, fill=COLOURS["ink"])
        y += step
    svg.line(x0, top - 3, x0, y - step + h1 + h2 + 4, stroke=COLOURS["grey"])
    if reference:
        rx = x0 + reference[1] * scale
        svg.line(rx, top - 6, rx, y - step + h1 + h2 + 6, stroke=COLOURS["grey"], width=1.5, dash="4 3")
    return svg.render(y + 6)


def log_ticks(lo, hi):
    """Powers of ten from lo to hi (both powers of ten)."""
    out, e = [], round(math.log10(lo))
    while 10 ** e <= hi * 1.0001:
        out.append(10.0 ** e)
        e += 1
    return out


def tick_text(v):
    if v >= 1000:
        return f"{v / 1000:g}k" if v < 1e6 else f"{v / 1e6:g}M"
    return f"{v:g}"


def spread_labels(ys, gap, lo, hi):
    """Label positions near the wanted ys (in order), at least `gap` apart, within [lo, hi]."""
    order = sorted(range(len(ys)), key=lambda i: ys[i])
    pos = [0.0] * len(ys)
    last = lo - gap
    for i in order:
        pos[i] = max(ys[i], last + gap)
        last = pos[i]
    over = (last - hi) if ys else 0
    if over > 0:  # shift everything up, keeping the gaps
        for i in order:
            pos[i] -= over
    return pos


def gpu_name(doc):
    g = doc.get("gpu")
    return str(g.get("name")) if isinstance(g, dict) and g.get("name") else "this GPU"


def roofline_data(docs):
    """What the results say about the roofline, from the graded runs `docs` (a list).

    Returns {"copy", "fma", "run", "placed": [...], "unplaced": [...], "memory": [...], "notes": [...]}:
    placed are exercises whose flops and bytes are both known (intensity = flops / bytes);
    unplaced are exercises in GFLOP/s whose bytes the results do not record; memory are the
    exercises in GB/s (no flops), as a percentage of their run's copy bandwidth."""
    out = {"copy": None, "fma": None, "run": None, "gpu": None, "placed": [], "unplaced": [], "memory": [], "notes": []}
    for doc in docs:
        c = ceilings(doc)
        for e in exercises(doc):
            if is_teaching(e):
                continue
            f, lab = figures(e), labels(e)
            fig, ms, unit = number(f.get("figure")), number(f.get("median_ms")), lab.get("unit")
            if fig is None or unit not in ("GB/s", "GFLOP/s"):
                continue
            item = {"test": doc.get("test"), "name": str(e.get("exercise")), "verdict": e.get("verdict"),
                    "figure": fig, "median_ms": ms, "unit": unit}
            if unit == "GFLOP/s":
                if out["run"] is None and c.get("copy_gbs") and c.get("fma_gflops"):
                    out.update(copy=c["copy_gbs"], fma=c["fma_gflops"], run=doc.get("test"), gpu=gpu_name(doc))
                # The figure is flops / median time (grader::Work::figure), so the flops of one
                # call follow from the figure and the median time. A figure `bytes`, where a
                # future grader records one, gives the intensity; none does in schema 1.
                item["flops"] = fig * ms * 1e6 if ms else number(f.get("flops"))
                item["bytes"] = number(f.get("bytes"))
                item["copy"] = c.get("copy_gbs")
                if item["flops"] and item["bytes"]:
                    item["intensity"] = item["flops"] / item["bytes"]
                    out["placed"].append(item)
                else:
                    out["unplaced"].append(item)
            elif c.get("copy_gbs"):
                item["percent_of_copy"] = 100 * fig / c["copy_gbs"]
                out["memory"].append(item)
    if out["run"] is None:
        for doc in docs:
            c = ceilings(doc)
            if c.get("copy_gbs") and c.get("fma_gflops"):
                out.update(copy=c["copy_gbs"], fma=c["fma_gflops"], run=doc.get("test"), gpu=gpu_name(doc))
                break
    if out["unplaced"]:
        out["notes"].append(
            "The results record each of these exercises' GFLOP/s and median time, hence the flops of one call "
            "(figure × median_ms × 10⁶), but not the bytes it must move (grader::Performance::bytes): their "
            "arithmetic intensity cannot be recovered. Each is drawn at its GFLOP/s in the column on the right, "
            "with a dashed line from the memory roof, where an intensity of figure ÷ copy bandwidth would just "
            "allow that speed: its true intensity is somewhere at or right of that point. A figure bytes (the "
            "bytes one call declares) among each exercise's figures would place it exactly.")
    return out


def roofline_chart(data, title, width=900):
    """The roofline of one GPU, log-log: intensity (flop/byte) across, GFLOP/s up; the memory
    roof (copy bandwidth × intensity), the flat FMA roof, the ridge point; exercises whose
    intensity is known as points, those whose bytes are not recorded in a column at the right."""
    copy, fma = data["copy"], data["fma"]
    svg = Svg(width, title)
    svg.text(8, 20, title, size=14, weight="bold")
    if not copy or not fma:
        svg.text(8, 46, "no run measured the copy bandwidth and the FMA peak: no roofline to draw",
                 size=12, fill=COLOURS["grey"], italic=True)
        return svg.render(60)
    ridge = fma / copy
    xs = [p["intensity"] for p in data["placed"]]
    x_lo = 10 ** math.floor(math.log10(min(xs + [ridge / 100, 0.1])))
    x_hi = 10 ** math.ceil(math.log10(max(xs + [ridge * 50])))
    ys = [p["figure"] for p in data["placed"] + data["unplaced"]]
    y_hi = 10 ** math.ceil(math.log10(fma * 1.15))
    y_lo = 10 ** math.floor(math.log10(min(ys + [copy * x_lo])))
    unplaced = data["unplaced"]
    gutter = 190 if unplaced else 0
    left, right, top, bottom = 78, width - 20 - gutter, 58, 58 + 330
    lx0, lx1, ly0, ly1 = math.log10(x_lo), math.log10(x_hi), math.log10(y_lo), math.log10(y_hi)

    def px(x):
        return left + (math.log10(x) - lx0) / (lx1 - lx0) * (right - left)

    def py(y):
        return bottom - (math.log10(y) - ly0) / (ly1 - ly0) * (bottom - top)

    items = [(COLOURS["roof"], "roofs: copy bandwidth × intensity, then the FMA peak"),
             (COLOURS["PASS"], "PASS"), (COLOURS["FAIL"], "FAIL")]
    legend(svg, 8, 40, items)
    for x in log_ticks(x_lo, x_hi):
        svg.line(px(x), top, px(x), bottom, stroke=COLOURS["grid"])
        svg.text(px(x), bottom + 16, tick_text(x), size=11, anchor="middle", fill=COLOURS["grey"])
    for y in log_ticks(y_lo, y_hi):
        svg.line(left, py(y), right, py(y), stroke=COLOURS["grid"])
        svg.text(left - 6, py(y) + 4, tick_text(y), size=11, anchor="end", fill=COLOURS["grey"])
    svg.rect(left, top, right - left, bottom - top, "none", stroke=COLOURS["grey"])
    svg.text((left + right) / 2, bottom + 34, "arithmetic intensity (flop/byte), log scale", size=12,
             anchor="middle", fill=COLOURS["ink"])
    svg.add(f'<text x="16" y="{(top + bottom) / 2:.1f}" font-size="12" text-anchor="middle" '
            f'transform="rotate(-90 16 {(top + bottom) / 2:.1f})" fill="{COLOURS["ink"]}">GFLOP/s, log scale</text>')
    svg.path(f"M{px(x_lo):.1f},{py(copy * x_lo):.1f} L{px(ridge):.1f},{py(fma):.1f} L{px(x_hi):.1f},{py(fma):.1f}",
             COLOURS["roof"], width=2.5)
    # The memory roof's label, along the roof and under it.
    xa, xb = x_lo * 1.5, x_lo * 15
    angle = math.degrees(math.atan2(py(copy * xb) - py(copy * xa), px(xb) - px(xa)))
    svg.add(f'<text x="0" y="15" font-size="11" fill="{COLOURS["roof"]}" '
            f'transform="translate({px(xa):.1f} {py(copy * xa):.1f}) rotate({angle:.1f})">'
            f"{esc(f'copy {fmt(copy)} GB/s × intensity')}</text>")
    svg.text(px(x_hi) - 6, py(fma) - 8, f"FP32 FMA peak {fmt(fma)} GFLOP/s", size=11, anchor="end",
             fill=COLOURS["roof"])
    svg.circle(px(ridge), py(fma), 5, "#ffffff", stroke=COLOURS["roof"])
    svg.line(px(ridge), py(fma), px(ridge), bottom, stroke=COLOURS["roof"], dash="2 3")
    svg.text(px(ridge) + 6, bottom - 8, f"ridge {fmt(ridge)} flop/byte", size=11, fill=COLOURS["roof"])
    # Exercises whose intensity is known.
    pos = spread_labels([py(p["figure"]) for p in data["placed"]], 14, top + 8, bottom - 4)
    for p, ly in zip(data["placed"], pos):
        x, y = px(p["intensity"]), py(p["figure"])
        svg.circle(x, y, 5, COLOURS.get(p["verdict"], COLOURS["grey"]))
        svg.text(x + 8, ly + 4, p["name"].split(" ")[0], size=11)
    # Exercises whose bytes are not recorded: at their GFLOP/s, in the column at the right.
    if unplaced:
        gx = right + 22
        svg.text(gx - 10, top - 6, "intensity not recorded", size=11, fill=COLOURS["grey"])
        svg.line(gx, top, gx, bottom, stroke=COLOURS["grid"])
        pos = spread_labels([py(p["figure"]) for p in unplaced], 14, top + 8, bottom - 4)
        for p, ly in zip(unplaced, pos):
            y = py(p["figure"])
            start = px(max(p["figure"] / (p.get("copy") or copy), x_lo))
            svg.line(start, y, gx, y, stroke=COLOURS.get(p["verdict"], COLOURS["grey"]), width=1, dash="3 3")
            svg.line(start, y - 4, start, y + 4, stroke=COLOURS.get(p["verdict"], COLOURS["grey"]), width=1.5)
            svg.circle(gx, y, 5, COLOURS.get(p["verdict"], COLOURS["grey"]))
            svg.line(gx + 6, y, gx + 14, ly, stroke=COLOURS["grid"])
            svg.text(gx + 16, ly + 4, f"{p['name'].split(' ')[0]} {fmt(p['figure'])}", size=11)
    return svg.render(bottom + 48)


def memory_strip(data, title, width=900):
    """The memory-bound exercises (figures in GB/s, no flops): each as a percentage of the
    copy bandwidth measured in its own run, one thin bar per exercise."""
    items = data["memory"]
    svg = Svg(width, title)
    svg.text(8, 20, title, size=14, weight="bold")
    if not items:
        svg.text(8, 44, "no memory-bound exercise with a figure in these results", size=12,
                 fill=COLOURS["grey"], italic=True)
        return svg.render(56)
    size = 11.5
    name_w = min(320, max(text_width(p["name"], size) for p in items) + 12)
    x0, x1 = name_w, width - 110
    end = max([100.0] + [p["percent_of_copy"] for p in items]) * 1.02
    scale = (x1 - x0) / end
    y = 40
    for q in (0, 25, 50, 75, 100):
        svg.text(x0 + q * scale, y, f"{q} %", size=10.5, anchor="middle", fill=COLOURS["grey"])
    y += 8
    top = y
    for p in items:
        svg.text(x0 - 8, y + 10, p["name"], size=size, anchor="end")
        svg.rect(x0, y, p["percent_of_copy"] * scale, 11, COLOURS.get(p["verdict"], COLOURS["grey"]))
        svg.text(x1 + 8, y + 10, f"{fmt_pct(p['percent_of_copy'] / 100)} ({fmt(p['figure'])} GB/s)", size=10.5)
        y += 17
    for q in (25, 50, 75, 100):
        svg.line(x0 + q * scale, top - 2, x0 + q * scale, y, stroke=COLOURS["grey"] if q == 100 else COLOURS["grid"],
                 dash="4 3" if q == 100 else None)
    svg.line(x0, top - 2, x0, y, stroke=COLOURS["grey"])
    return svg.render(y + 8)


# ====================================================================== timelines

LANES = ("copy in", "work", "copy out")
LANE_COLOURS = {"copy in": "#1565c0", "work": "#ef6c00", "copy out": "#2e7d32"}


def timelines(e):
    """The timelines an exercise recorded among its `tables` (those with "kind": "timeline",
    docs/results_schema.md, "Timelines"), in the grader's order: [{"pipeline", "caption",
    "note", "student", "records": [{"what", "stream", "start_ns", "end_ns", "bytes"}]}]."""
    out = []
    for t in e.get("tables") or []:
        if not isinstance(t, dict) or t.get("kind") != "timeline":
            continue
        records = []
        for r in t.get("rows") or []:
            if not isinstance(r, dict):
                continue
            start, end = number(r.get("start_ns")), number(r.get("end_ns"))
            if start is None or end is None or end < start:
                continue
            records.append({"what": str(r.get("label") or ""), "stream": r.get("stream"), "start_ns": start,
                            "end_ns": end, "bytes": number(r.get("bytes"))})
        out.append({"pipeline": str(t.get("pipeline") or ""), "caption": str(t.get("caption") or ""),
                    "note": str(t.get("note") or ""), "student": t.get("pipeline") == "yours", "records": records})
    return out


def timeline_end(tl):
    return max([r["end_ns"] for r in tl["records"]] + [0])


def text_lanes(tl, width=60, scale_ns=None):
    """The lanes of one timeline as text, as the grader prints them (timeline.cpp, lanes):
    one string per lane of LANES, `width` characters each a slice of [0, scale_ns): '#' where a
    record of that lane touches the slice, '.' where none does, ' ' past the call's end."""
    end = timeline_end(tl)
    scale = scale_ns or max(end, 1)
    out = []
    for lane in LANES:
        cells = [" " if i * scale / width >= end else "." for i in range(width)]
        for r in tl["records"]:
            if r["what"] != lane:
                continue
            a = min(max(int(r["start_ns"] / scale * width), 0), width - 1)
            b = min(max(int(r["end_ns"] / scale * width - 1e-9), a), width - 1)
            for i in range(a, b + 1):
                cells[i] = "#"
        out.append("".join(cells))
    return out


def timelines_text(tls, width=60):
    """All timelines on one time scale, three lines each under a line naming it."""
    scale = max([timeline_end(t) for t in tls] + [1])
    lines = []
    for t in tls:
        lines.append(f"{t['caption']}: {fmt(timeline_end(t) / 1e6)} ms" if t["records"] else
                     f"{t['caption']}: not recorded ({t['note'] or 'no record'})")
        if t["records"]:
            for lane, cells in zip(LANES, text_lanes(t, width, scale)):
                lines.append(f"  {lane:<8} |{cells}|")
    return "\n".join(lines)


def timeline_chart(tls, title, width=900):
    """The timelines of one exercise as lanes on one time axis, a block per pipeline: its
    caption, then one row per lane (copy in, work, copy out), each record a bar from its start
    to its end (records of every stream in the same row, so a busy row is an engine at work)."""
    svg = Svg(width, title)
    size, small = 11.5, 10.5
    x0, x1 = 90, width - 20
    scale_ns = max([timeline_end(t) for t in tls] + [1])
    px = (x1 - x0) / scale_ns
    svg.text(8, 20, title, size=14, weight="bold")
    legend(svg, 8, 40, [(LANE_COLOURS[lane], lane) for lane in LANES])
    y = 56
    h, gap = 12, 4
    for t in tls:
        svg.text(8, y + 12, t["caption"] + (f", {fmt(timeline_end(t) / 1e6)} ms" if t["records"] else ""),
                 size=small, fill=COLOURS["mine"] if t["student"] else COLOURS["ink"], weight="bold")
        y += 18
        if not t["records"]:
            svg.text(x0, y + 10, f"not recorded: {t['note'] or 'no record'}", size=small, fill=COLOURS["grey"],
                     italic=True)
            y += 22
            continue
        for lane in LANES:
            svg.text(x0 - 8, y + 10, lane, size=size, anchor="end")
            svg.rect(x0, y, x1 - x0, h, "#fafafa", stroke=COLOURS["grid"])
            for r in t["records"]:
                if r["what"] == lane:
                    # At least a pixel wide, so that a short copy still shows; a thin white edge
                    # keeps back-to-back chunks apart.
                    svg.rect(x0 + r["start_ns"] * px, y, max((r["end_ns"] - r["start_ns"]) * px, 1.0), h,
                             LANE_COLOURS[lane], stroke="#ffffff")
            y += h + gap
        y += 8
    # The time axis, in ms, under the last block.
    for q in (0, 0.25, 0.5, 0.75, 1):
        x = x0 + q * (x1 - x0)
        svg.line(x, y - 4, x, y + 2, stroke=COLOURS["grey"])
        svg.text(x, y + 14, f"{fmt(q * scale_ns / 1e6)} ms", size=small, fill=COLOURS["grey"],
                 anchor="end" if q == 1 else "middle" if q else "start")
    return svg.render(y + 22)


def timeline_figures(doc):
    """The page's figures of every exercise of `doc` that recorded timelines."""
    out = []
    for e in exercises(doc):
        tls = timelines(e)
        if not tls:
            continue
        name = str(e.get("exercise", "?"))
        if not any(t["records"] for t in tls):
            notes = sorted({t["note"] for t in tls if t["note"]})
            out.append(f'<p class="note">{esc(name)}: no timeline was recorded ({esc("; ".join(notes) or "no record")}).</p>')
            continue
        out.append("<figure>" + inline(timeline_chart(tls, f"{name}: the timeline of one call")) +
                   "<figcaption>Copies and kernels as the GPU ran them, traced with CUPTI during one extra, untimed "
                   "call of each pipeline, on one time axis: where the lanes overlap, the copy engines and the SMs "
                   "work at the same time.</figcaption>"
                   f"<pre>{esc(timelines_text(tls))}</pre></figure>")
    return out


# ====================================================================== the page

CSS = """
body { font-family: DejaVu Sans, Verdana, Arial, sans-serif; margin: 24px auto; max-width: 1000px;
       color: #212121; line-height: 1.4; padding: 0 16px; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; } h2 { margin-top: 1.8em; border-bottom: 2px solid #ddd; }
table { border-collapse: collapse; margin: 0.6em 0; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 3px 8px; text-align: left; vertical-align: top; }
th { background: #f3f3f3; } td.nowrap { white-space: nowrap; } td.num { text-align: right; font-variant-numeric: tabular-nums; }
.PASS { color: #2e7d32; font-weight: bold; } .FAIL { color: #c62828; font-weight: bold; }
.SKIP { color: #757575; font-weight: bold; } .INFO { color: #1565c0; font-weight: bold; }
.status { padding: 8px 12px; background: #fff3e0; border-left: 4px solid #ef6c00; margin: 0.6em 0; }
.note { color: #555; font-size: 0.9em; } .problems { background: #ffebee; padding: 8px 12px; }
.msg { margin: 0.4em 0 0.8em 0; padding: 6px 10px; border-left: 4px solid #c62828; background: #fafafa; }
.msg.skip { border-left-color: #9e9e9e; } .msg.note { border-left-color: #1565c0; }
figure { margin: 0.8em 0; } figcaption { font-size: 0.85em; color: #555; }
svg { max-width: 100%; height: auto; } code { background: #f3f3f3; padding: 0 3px; }
footer { margin-top: 3em; border-top: 1px solid #ddd; padding-top: 0.8em; font-size: 0.85em; color: #555; }
"""


def inline(svg):
    """An SVG document as an element of the HTML page (HTML needs no namespace declaration)."""
    return svg.replace(' xmlns="http://www.w3.org/2000/svg"', "", 1)


def verdict_span(v):
    return f'<span class="{esc(v)}">{esc(v)}</span>'


def exercise_table(doc):
    head = ("<tr><th>exercise</th><th>verdict</th><th>reason</th><th>figure</th><th>threshold</th>"
            "<th>unit</th><th>% of ceiling</th><th>ceiling</th><th>vendor figure</th></tr>")
    rows = []
    for e in exercises(doc):
        f, lab = figures(e), labels(e)
        frac = number(f.get("fraction_of_ceiling"))
        vend = number(f.get("vendor_figure"))
        vendor = f"{fmt(vend)} ({esc(lab.get('vendor', ''))})" if vend is not None else "-"
        teaching = is_teaching(e)
        rows.append(
            f"<tr><td>{esc(e.get('exercise', '?'))}</td><td>{verdict_span(e.get('verdict', '?'))}</td>"
            f"<td>{esc(e.get('reason', ''))}</td>"
            f"<td class=num>{'teaching table' if teaching else fmt(number(f.get('figure')))}</td>"
            f"<td class=num>{fmt(number(f.get('threshold')))}</td><td>{esc(lab.get('unit', ''))}</td>"
            f"<td class=num>{fmt_pct(frac)}</td>"
            f"<td>{esc(lab.get('ceiling', '-'))}</td><td>{vendor}</td></tr>")
    return f"<table>{head}{''.join(rows)}</table>"


def messages(doc):
    """The messages of exercises that failed or were skipped, and the notes of the others."""
    out = []
    for e in exercises(doc):
        v = e.get("verdict")
        name = esc(e.get("exercise", "?"))
        if v == "FAIL":
            parts = [f"<b>{name}</b>: {verdict_span('FAIL')} ({esc(e.get('reason', ''))}) {esc(e.get('message', ''))}"]
            if e.get("hint"):
                parts.append(f"<br>Hint: {esc(e['hint'])}")
            if e.get("theory"):
                parts.append(f"<br>Theory: {esc(e['theory'])}")
            if e.get("teaching"):
                parts.append("<br><i>A teaching table: it does not count as failed.</i>")
            out.append(f'<div class="msg">{"".join(parts)}</div>')
        elif v == "SKIP":
            out.append(f'<div class="msg skip"><b>{name}</b>: {verdict_span("SKIP")} {esc(e.get("message", ""))}</div>')
        if e.get("note"):
            out.append(f'<div class="msg note"><b>{name}</b>: note: {esc(e["note"])}</div>')
    return "".join(out)


def course_title(nn):
    """The title of lesson NN as its theory page heads it (lessons/NN-*/theory.md), or ""."""
    for folder in sorted((ROOT / "lessons").glob(f"{nn}-*")):
        try:
            return lesson_list.theory_heading(ROOT, folder.name)[1]
        except lesson_list.Problems:
            pass
    return ""


def lesson_heading(doc):
    """`Lesson 01: Memory coalescing (lesson01.json)`. A run that stopped before the lesson
    program named its lesson (a compile error, a missing sanitizer) records no lesson and no
    title: then the test's number and the theory page's title, so that every heading reads alike."""
    lesson, title, test = doc.get("lesson") or "", doc.get("title") or "", str(doc.get("test", "?"))
    m = re.fullmatch(r"lesson(\d\d)", test)
    if not lesson and m:
        lesson, title = m.group(1), title or course_title(m.group(1))
    words = (f"Lesson {lesson}: {title}" if title else f"Lesson {lesson}") if lesson else test
    return f'<h2 id="{esc(doc.get("test", ""))}">{esc(words)} <small class="note">({esc(doc.get("_file", ""))})</small></h2>'


def lesson_section(doc):
    out = [lesson_heading(doc)]
    status = doc.get("status", "?")
    summary = doc.get("summary") if isinstance(doc.get("summary"), dict) else {}
    out.append(f'<p class="note">status <b>{esc(status)}</b>, exit code {esc(doc.get("exit_code", "?"))}; '
               + ", ".join(f"{esc(k)} {esc(v)}" for k, v in summary.items()) + "</p>")
    if status != "graded":
        out.append(f'<div class="status">This lesson was not graded: <b>{esc(status)}</b>: '
                   f"{esc(doc.get('status_message', ''))}</div>")
        if exercises(doc):
            out.append(exercise_table(doc) + messages(doc))
        return "\n".join(out)
    if doc.get("sanitizer"):
        out.append(f'<div class="status">This run ran under compute-sanitizer ({esc(doc["sanitizer"])}): it checks '
                   "correctness only, nothing was timed, so there are no figures to chart. Run "
                   "<code>meson test -C build</code> without a setup for the timed run.</div>")
        out.append(exercise_table(doc) + messages(doc))
        return "\n".join(out)
    out.append(exercise_table(doc))
    rows = exercise_rows(doc)
    if any(r["figure"] is not None for r in rows):
        out.append("<figure>" + inline(exercise_chart(rows, f"Lesson {doc.get('lesson', '')}: your figures")) +
                   "<figcaption>Each row ends at its exercise's ceiling (measured in this run); the black line is "
                   "the threshold a PASS needs.</figcaption></figure>")
    elif rows:
        out.append('<p class="note">No exercise of this lesson has a figure to chart (none reached its timed '
                   "calls).</p>")
    out.append(messages(doc))
    out.extend(timeline_figures(doc))
    c = ceilings(doc)
    for g in teaching_groups(doc):
        ref = teaching_reference(g, c)
        mine = "; your own launchers in orange" if any(r.get("mine") for r in g["rows"]) else ""
        out.append("<figure>" + inline(teaching_chart(g, f"{g['exercise']}: {unit_words(g)}", ref)) +
                   "<figcaption>A teaching table of the lesson, measured on this GPU in this run, with the grader's "
                   f"rows and labels{mine}.</figcaption></figure>")
    return "\n".join(out)


def header(docs, folder, problems, unused):
    gpus = {}
    for d in docs:
        g = d.get("gpu")
        if isinstance(g, dict):
            gpus.setdefault(str(g.get("name")), g)
    out = []
    if gpus:
        g = next(iter(gpus.values()))
        name = " / ".join(gpus)
        out.append(f"<h1>Your results on {esc(name)}</h1>")
        out.append(f"<p>GPU <b>{esc(g.get('name'))}</b>, {esc(g.get('arch'))}, {esc(g.get('sms'))} SMs, "
                   f"L2 {fmt_bytes(g.get('l2_bytes'))}, memory {fmt_bytes(g.get('memory_bytes'))}.</p>")
        if len(gpus) > 1:
            problems = problems + [f"these results come from {len(gpus)} different GPUs ({', '.join(gpus)}): each "
                                   "lesson's figures are those of its own run's GPU"]
    else:
        out.append("<h1>Your results</h1><p>No results file names a GPU (no lesson reached its exercises).</p>")
    out.append(f'<p class="note">From the results files in <code>{esc(folder)}</code>.</p>')
    rows = []
    for d in docs:
        c = ceilings(d)
        rows.append(f"<tr><td><a href=\"#{esc(d.get('test', ''))}\">{esc(d.get('test', '?'))}</a></td>"
                    f"<td>{esc(d.get('status', '?'))}{' (' + esc(d['sanitizer']) + ')' if d.get('sanitizer') else ''}</td>"
                    f"<td class=num>{fmt(c.get('copy_gbs'))}</td><td class=num>{fmt(c.get('fma_gflops'))}</td>"
                    f"<td class=num>{fmt(c.get('dram_gbs'))}</td><td>{esc(d.get('seed', ''))}</td>"
                    f"<td class=nowrap>{esc(d.get('timestamp', ''))}</td><td>{esc(d.get('grader_revision', ''))}</td>"
                    f"<td class=num>{esc(d.get('threshold_scale', ''))}</td></tr>")
    if rows:
        out.append("<table><tr><th>run</th><th>status</th><th>copy GB/s</th><th>FMA GFLOP/s</th>"
                   "<th>DRAM GB/s (theoretical)</th><th>seed</th><th>timestamp (UTC)</th><th>grader revision</th>"
                   "<th>threshold scale</th></tr>" + "".join(rows) + "</table>")
        out.append('<p class="note">The ceilings are measured at the start of every run, so each lesson has its '
                   "own. To repeat a run's inputs: <code>meson test -C build lessonNN "
                   "--test-args=--seed=SEED</code>.</p>")
    if problems:
        out.append('<div class="problems"><b>Read with care:</b><ul>' +
                   "".join(f"<li>{esc(p)}</li>" for p in problems) + "</ul></div>")
    if unused:
        out.append(f'<p class="note">Also in the folder, not charted (a sanitizer run of a test whose timed run is '
                   f"shown): {esc(', '.join(unused))}.</p>")
    return "\n".join(out)


def known_bad_section(docs):
    if not docs:
        return ""
    rows = []
    for d in docs:
        ex = exercises(d)
        got = ", ".join(f"{e.get('verdict')} {e.get('reason')}" for e in ex) or esc(d.get("status_message", ""))
        rows.append(f"<tr><td>{esc(d.get('test'))}</td><td>{esc(', '.join(d.get('expect_reject') or []))}</td>"
                    f"<td>{esc(got)}</td><td class=num>{esc(d.get('exit_code'))}</td></tr>")
    return ("<h2 id=\"known-bad\">Known-bad variants</h2><p class=note>The grader's own checks: each variant must be "
            "rejected for one of the reasons listed (exit code 0 means it was).</p><table><tr><th>test</th>"
            "<th>must be rejected for</th><th>verdicts</th><th>exit code</th></tr>" + "".join(rows) + "</table>")


def roofline_section(docs):
    data = roofline_data([d for d in docs if d.get("status") == "graded" and not d.get("sanitizer")])
    if not data["copy"]:
        return ""
    out = ['<h2 id="roofline">Roofline</h2>']
    out.append("<figure>" + inline(roofline_chart(data, f"Roofline of {data['gpu']} (ceilings of the {data['run']} run)")) +
               "<figcaption>Memory roof: copy bandwidth × intensity; flat roof: the FP32 FMA peak; they meet at the "
               "ridge point.</figcaption></figure>")
    for n in data["notes"]:
        out.append(f'<p class="note">{esc(n)}</p>')
    if data["unplaced"] or data["placed"]:
        rows = "".join(
            f"<tr><td>{esc(p['name'])}</td><td>{verdict_span(p['verdict'])}</td><td class=num>{fmt(p['figure'])}</td>"
            f"<td class=num>{fmt(p['median_ms'])}</td><td class=num>{p['flops']:.4g}</td>"
            f"<td class=num>{'not recorded' if not p.get('bytes') else format(p['bytes'], '.4g')}</td>"
            f"<td class=num>{fmt(p['intensity']) if p.get('intensity') else '≥ ' + fmt(p['figure'] / p['copy'])}</td></tr>"
            for p in data["placed"] + data["unplaced"] if p.get("flops"))
        out.append("<table><tr><th>exercise</th><th>verdict</th><th>GFLOP/s</th><th>median ms</th>"
                   "<th>flops per call (derived)</th><th>bytes per call</th><th>intensity (flop/byte)</th></tr>"
                   + rows + "</table>")
    out.append("<figure>" + inline(memory_strip(data, "Memory-bound: % of copy")) +
               "<figcaption>Exercises graded in GB/s record bytes per second only, no flops: they have no place on "
               "the intensity axis. Each is shown as its GB/s over the copy bandwidth measured in its own run (a "
               "bar may pass 100 % where the L2 serves part of the bytes).</figcaption></figure>")
    return "\n".join(out)


def footer(folder, docs):
    theory = []
    for d in docs:
        t = d.get("theory")
        if t and t not in theory:
            theory.append(t)
    links = []
    for t in theory:
        p = ROOT / t
        links.append(f'<a href="{esc(p.as_uri())}">{esc(t)}</a>' if p.is_file() else esc(t))
    files = ", ".join(esc(d.get("_file", "")) for d in docs)
    return ("<footer>Generated by <code>tools/report.py</code> from these results files in "
            f"<code>{esc(folder)}</code>: {files}. Every number on this page is read from them "
            "(docs/results_schema.md describes the format). Theory pages, in the course's source folder "
            f"<code>{esc(ROOT)}</code>: {', '.join(links) or '-'}; the same pages, with the measured charts of the "
            "course's own GPUs, are on the docs site that <code>ninja -C build docs</code> builds "
            "(<code>build/docs/html/index.html</code>).</footer>")


def render_page(folder):
    """(html, usable documents) for a results folder."""
    found = read_results_dir(folder)
    docs = list(found["docs"].values())
    lessons = [d for d in docs if not is_known_bad(d)]
    bad = [d for d in docs if is_known_bad(d)]
    body = [header(docs, folder, found["problems"], found["unused"])]
    roofline = roofline_section(lessons)  # "" when no run measured what it needs: then no link to it
    if lessons:
        body.append("<p>" + " · ".join(f'<a href="#{esc(d.get("test"))}">{esc(d.get("test"))}</a>' for d in lessons)
                    + (' · <a href="#roofline">roofline</a>' if roofline else "") + "</p>")
    for d in lessons:
        body.append(lesson_section(d))
    body.append(roofline)
    body.append(known_bad_section(bad))
    body.append(footer(folder, docs))
    page = ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<title>cuda-lessons: results</title>"
            f"<style>{CSS}</style></head><body>\n" + "\n".join(b for b in body if b) + "\n</body></html>\n")
    return page, docs


def results_folder(build_dir):
    """BUILD_DIR/results, or BUILD_DIR itself when it holds the results files directly."""
    b = pathlib.Path(build_dir)
    if (b / "results").is_dir():
        return b / "results"
    if b.is_dir() and any(b.glob("*.json")):
        return b
    return b / "results"


def main(argv=None):
    ap = argparse.ArgumentParser(description="Charts of a build's results files as one offline HTML page.")
    ap.add_argument("build_dir", help="the build folder that `meson test` ran in (its results/ is read)")
    ap.add_argument("--out", help="the page to write (default BUILD_DIR/report.html)")
    a = ap.parse_args(argv)
    folder = results_folder(a.build_dir)
    if not folder.is_dir() or not any(folder.glob("*.json")):
        print(f"report: no results files in {folder}: run `meson test -C {a.build_dir}` first "
              "(each lesson's test writes results/<test>.json)", file=sys.stderr)
        return 1
    page, docs = render_page(folder)
    out = pathlib.Path(a.out) if a.out else pathlib.Path(a.build_dir) / "report.html"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(page, encoding="utf-8")
    print(out)
    if not docs:
        print(f"report: none of the files in {folder} is a results file of schema {SCHEMA} version "
              f"{SCHEMA_VERSION}; the page lists them", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
