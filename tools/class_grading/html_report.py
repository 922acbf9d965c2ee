# SPDX-License-Identifier: MIT
"""report.html: the class at a glance, then one section per student. One offline page:
inline CSS and inline SVG drawn with tools/report.py's helpers (no script, no network, no
plotting library); every chart has a table with the same numbers beside it."""
import statistics

import report  # noqa: E402  (tools/report.py: the course's SVG helpers and number formats)

from . import verdicts

esc = report.esc

CSS = report.CSS + """
body { max-width: 1300px; }
table.grid td { text-align: center; white-space: nowrap; font-size: 0.85em; }
div.wide { overflow-x: auto; } /* a class of many exercises scrolls sideways, its student column stays */
table.grid { border-collapse: separate; border-spacing: 0; }
table.grid tr > :first-child { position: sticky; left: 0; z-index: 1; background: #fff; text-align: left; }
table.grid tr > th:first-child { background: #f3f3f3; }
td.copied { outline: 2px dashed #6a1b9a; outline-offset: -3px; } .copied-mark { color: #6a1b9a; }
td.v-PASS { background: #e8f5e9; color: #2e7d32; } td.v-FAIL { background: #ffebee; color: #c62828; }
td.v-SKIP, td.v-NOT-RUN { background: #f5f5f5; color: #757575; } td.v-NOT-ATTEMPTED { background: #fff8e1; color: #8d6e00; }
pre { background: #fafafa; border: 1px solid #e0e0e0; padding: 6px 10px; overflow-x: auto; font-size: 0.85em; white-space: pre-wrap; }
td.verdict { white-space: nowrap; } div.said { white-space: pre-line; }
.bar { display: inline-block; height: 10px; background: #2e7d32; vertical-align: middle; }
"""
COLOURS = {"PASS": report.COLOURS["PASS"], "FAIL": report.COLOURS["FAIL"], "SKIP": report.COLOURS["SKIP"],
           "NOT ATTEMPTED": "#f9a825", "NOT RUN": report.COLOURS["SKIP"]}


def anchor(name):
    return "student-" + name


def vclass(c):
    return "v-" + c["verdict"].replace(" ", "-")


def short(c):
    """A cell's verdict in the class grid: PASS, slow, compile, not attempted, SKIP."""
    return c["reason"] if c["verdict"] == "FAIL" else c["verdict"].lower() if " " in c["verdict"] else c["verdict"]


# Beside a verdict in the grid whose file matches a kernel shipped with the course.
COPIED = '<sup class="copied-mark">copy</sup>'


def copied_line(c):
    return f"copied from {', '.join(c['copied'])}" if c["copied"] else ""


def header(cols, rows):
    records = [r for r, _, _ in rows]
    gpus = sorted({(l.get("results") or {}).get("gpu", {}).get("name", "") for r in records
                   for l in r.get("lessons", []) if (l.get("results") or {}).get("gpu")})
    scales = sorted({str((l.get("results") or {}).get("threshold_scale")) for r in records
                     for l in r.get("lessons", []) if l.get("results")})
    facts = [("students", len(records)),
             ("graded", " to ".join(sorted({min(r.get("finished", "") for r in records),
                                            max(r.get("finished", "") for r in records)})) if records else "-"),
             ("grader revision", ", ".join(sorted({verdicts.revisions(r) for r in records})) or "-"),
             ("seed", ", ".join(sorted({verdicts.seeds(r) for r in records})) or "-"),
             ("GPU", ", ".join(gpus) or "none (lessons skip without a GPU)"),
             ("threshold scale", ", ".join(scales) or "-"),
             ("sandbox", ", ".join(sorted({r.get("sandbox", "") for r in records})) or "-"),
             ("exercises", f"{sum(c.exercise is not None for c in cols)} graded, one point each")]
    return ("<h1>Class grades</h1>\n<table>" + "".join(f"<tr><th>{esc(k)}</th><td>{esc(v)}</td></tr>"
                                                    for k, v in facts) + "</table>\n")


def grid(cols, rows):
    head = "".join(f'<th title="{esc(c.label)}">{esc(c.number)}</th>' for c in cols)
    body = []
    for r, cells, t in rows:
        tds = "".join(f'<td class="{vclass(c)}{" copied" if c["copied"] else ""}" '
                      f'title="{esc(verdicts.verdict_line(col, c))}{esc(chr(10) + copied_line(c)) if c["copied"] else ""}">'
                      f'{esc(short(c))}{" " + COPIED if c["copied"] else ""}</td>' for col, c in zip(cols, cells))
        body.append(f'<tr><td><a href="#{esc(anchor(r["student"]))}">{esc(r["student"])}</a></td>'
                    f'<td class="num">{t["points"]} / {t["max_points"]}</td>{tds}</tr>')
    note = (f'<p class="note">{COPIED} (dashed): the exercise\'s file matches a '
            "kernel shipped with the course, once comments, whitespace and names are set aside: not a verdict, "
            "for you to look at (section <a href=\"#copies\">Copies of shipped kernels</a>).</p>\n"
            if any(c["copied"] for _, cells, _ in rows for c in cells) else "")
    return ("<h2>The class at a glance</h2>\n<div class=\"wide\"><table class=\"grid\"><tr><th>student</th>"
            "<th>points</th>" + head + "</tr>\n" + "\n".join(body) + "</table></div>\n" + note)


def copies(cols, rows):
    """Every exercise whose file matches a kernel shipped with the course, student by student."""
    found = [(r["student"], col, c) for r, cells, _ in rows for col, c in zip(cols, cells) if c["copied"]]
    out = ['<h2 id="copies">Copies of shipped kernels</h2>\n<p class="note">A file that matches a starter of '
           "another step (each step's starter is the step before's reference), a reference, a grader's own "
           "version or a known-bad variant, once comments, whitespace and names are set aside "
           "(docs/class_grading.md says what this can and cannot see). A match with the file's own starter is "
           "not listed. Not a verdict: the grades above do not count it.</p>"]
    if not found:
        return out[0] + "\n<p>None.</p>\n"
    out.append("<table><tr><th>student</th><th>exercise</th><th>verdict</th><th>copied from</th></tr>")
    for name, col, c in found:
        out.append(f'<tr><td><a href="#{esc(anchor(name))}">{esc(name)}</a></td><td>{esc(col.label)}</td>'
                   f'<td class="{vclass(c)}">{esc(verdicts.verdict_text(c))}</td><td>{esc(", ".join(c["copied"]))}</td></tr>')
    return "\n".join(out) + "</table>\n"


def pass_rates(cols, rows):
    # Both rates leave out the students whose exercise was not graded (SKIP, NOT RUN): a run
    # without a GPU grades no one, and no one attempted or failed there.
    out = ["<h2>Pass rate per exercise</h2>\n<table><tr><th>exercise</th><th>passed</th><th>failed</th>"
           "<th>not attempted</th><th>skipped / not run</th><th>pass rate (of those graded)</th>"
           "<th>of those who attempted</th><th>why they failed</th></tr>"]
    for i, col in enumerate(cols):
        cs = [cells[i] for _, cells, _ in rows]
        count = {v: sum(c["verdict"] == v for c in cs) for v in COLOURS}
        graded = count["PASS"] + count["FAIL"] + count["NOT ATTEMPTED"]
        attempted = count["PASS"] + count["FAIL"]
        reasons = {}
        for c in cs:
            if c["verdict"] == "FAIL":
                reasons[c["reason"]] = reasons.get(c["reason"], 0) + 1
        rate = count["PASS"] / graded if graded else 0
        out.append(f"<tr><td>{esc(col.label)}</td><td class=\"num\">{count['PASS']}</td>"
                   f"<td class=\"num\">{count['FAIL']}</td><td class=\"num\">{count['NOT ATTEMPTED']}</td>"
                   f"<td class=\"num\">{count['SKIP'] + count['NOT RUN']}</td>"
                   f"<td><span class=\"bar\" style=\"width:{100 * rate:.0f}px\"></span> "
                   f"{report.fmt_pct(rate) if graded else '-'}</td>"
                   f"<td class=\"num\">{report.fmt_pct(count['PASS'] / attempted) if attempted else '-'}</td>"
                   f"<td>{esc(', '.join(f'{k} {v}' for k, v in sorted(reasons.items())))}</td></tr>")
    return "\n".join(out) + "</table>\n"


def ratios(cols, rows):
    """[(column, [(student, figure / threshold, verdict, cell)])] for the timed exercises."""
    out = []
    for i, col in enumerate(cols):
        pts = [(r["student"], verdicts.ratio(cells[i]), cells[i]["verdict"], cells[i]) for r, cells, _ in rows]
        pts = [p for p in pts if p[1] is not None]
        if pts:
            out.append((col, pts))
    return out


def ratio_chart(data, width=900):
    """One row per exercise, one dot per student at figure / threshold; the line at 1 is the
    threshold: dots right of it pass on speed."""
    svg = report.Svg(width, "Figure as a fraction of the threshold")
    svg.text(8, 20, "Figure ÷ threshold, one dot per submission (right of the dashed line: fast enough)",
             size=14, weight="bold")
    name_w = min(300, max(report.text_width(c.label, 11.5) for c, _ in data) + 12)
    x0, x1 = name_w, width - 20
    end = max([2.0] + [p[1] for _, pts in data for p in pts]) * 1.05
    scale = (x1 - x0) / end
    y = 44
    step = 0.5 if end <= 4 else 1.0 if end <= 10 else 5.0
    ticks = [k * step for k in range(int(end / step) + 1)]
    for t in ticks:
        svg.text(x0 + t * scale, y, report.fmt(t), size=10.5, anchor="middle", fill=report.COLOURS["grey"])
    top = y + 6
    y = top
    for col, pts in data:
        svg.text(x0 - 8, y + 12, col.label, size=11.5, anchor="end")
        for k, (_, r, v, _) in enumerate(sorted(pts, key=lambda p: p[1])):
            svg.circle(x0 + r * scale, y + 5 + (k % 3) * 4, 3.5, COLOURS.get(v, report.COLOURS["grey"]))
        y += 22
    for t in ticks:
        svg.line(x0 + t * scale, top, x0 + t * scale, y, stroke=report.COLOURS["grid"])
    svg.line(x0 + scale, top - 4, x0 + scale, y, stroke=report.COLOURS["ink"], dash="4 3", width=1.5)
    report.legend(svg, x0, y + 18, [(COLOURS["PASS"], "PASS"), (COLOURS["FAIL"], "FAIL")])
    return report.inline(svg.render(y + 28))


def distribution(cols, rows):
    data = ratios(cols, rows)
    out = ["<h2>Speed: each figure as a fraction of its threshold</h2>"]
    if not data:
        return out[0] + "\n<p class=\"note\">No exercise was timed in these results (no GPU, or nothing compiled).</p>\n"
    out.append(f"<figure>{ratio_chart(data)}</figure>")
    out.append("<table><tr><th>exercise</th><th>timed</th><th>min</th><th>quartile 1</th><th>median</th>"
               "<th>quartile 3</th><th>max</th></tr>")
    for col, pts in data:
        rs = sorted(p[1] for p in pts)
        q = statistics.quantiles(rs, n=4, method="inclusive") if len(rs) > 1 else [rs[0]] * 3
        out.append(f"<tr><td>{esc(col.label)}</td><td class=\"num\">{len(rs)}</td>"
                   + "".join(f"<td class=\"num\">{report.fmt(v, 2)}</td>" for v in (rs[0], q[0], q[1], q[2], rs[-1]))
                   + "</tr>")
    out.append("</table>")
    out.append("<h3>Fastest and slowest passing submissions</h3>\n<table><tr><th>exercise</th>"
               "<th>fastest (figure ÷ threshold)</th><th>slowest</th></tr>")
    for col, pts in data:
        passed = sorted((p for p in pts if p[2] == "PASS"), key=lambda p: -p[1])
        if not passed:
            continue

        def who(ps):
            return ", ".join(f'<a href="#{esc(anchor(s))}">{esc(s)}</a> {report.fmt(r, 2)} '
                             f'({report.fmt(c["figure"])} {esc(c["unit"])})' for s, r, _, c in ps)
        out.append(f"<tr><td>{esc(col.label)}</td><td>{who(passed[:3])}</td><td>{who(passed[::-1][:3])}</td></tr>")
    out.append("</table>")
    return "\n".join(out) + "\n"


def student(cols, r, cells, t):
    name = r["student"]
    out = [f'<h2 id="{esc(anchor(name))}">{esc(name)}: {t["points"]} / {t["max_points"]}</h2>',
           f"<p class=\"note\">{esc(r.get('entry', ''))} · seed {esc(verdicts.seeds(r))} · grader revision "
           f"{esc(verdicts.revisions(r))} · sandbox {esc(r.get('sandbox', ''))}"
           f"{' · GPU ' + esc(r['gpu']) if r.get('gpu') else ''} · build {r.get('build_s', 0):.0f} s, "
           f"tests {r.get('test_s', 0):.0f} s · logs: <a href=\"students/{esc(name)}/build.log\">build</a>, "
           f"<a href=\"students/{esc(name)}/test.log\">tests</a></p>"]
    if r.get("problem"):
        out.append(f'<div class="status"><pre>{esc(r["problem"])}</pre></div>')
    for note in r.get("notes", []):
        out.append(f'<p class="note">{esc(note)}</p>')
    out.append("<table><tr><th>exercise</th><th>verdict</th><th>what the grader said</th><th>copied from</th></tr>")
    for col, c in zip(cols, cells):
        out.append(f'<tr><td>{esc(col.label)}</td><td class="verdict {vclass(c)}">{esc(verdicts.verdict_text(c))}</td>'
                   f'<td><div class="said">{esc(verdicts.details(c))}</div></td>'
                   f'<td>{esc(", ".join(c["copied"]))}</td></tr>')
    out.append("</table>")
    for lesson in r.get("lessons", []):
        doc = lesson.get("results") or {}
        if doc.get("status") == "compile_error":
            out.append(f"<p><b>{esc(lesson['test'])} did not compile</b>:</p><pre>{esc(doc.get('status_message'))}</pre>")
        if lesson.get("missing"):
            out.append(f"<p><b>{esc(lesson['test'])}</b>: missing {esc(', '.join(lesson['missing']))}</p>")
        if lesson.get("log"):
            out.append(f"<details><summary>{esc(lesson['test'])}: the grader's output</summary>"
                       f"<pre>{esc(lesson['log'])}</pre></details>")
    return "\n".join(out) + "\n"


def render(cols, rows):
    body = [header(cols, rows), grid(cols, rows), pass_rates(cols, rows), distribution(cols, rows), copies(cols, rows),
            "<h2>Students</h2>"] + [student(cols, r, cells, t) for r, cells, t in rows]
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Class grades</title>"
            f"<style>{CSS}</style></head><body>\n" + "".join(body)
            + "<footer>Written by tools/grade_class.py from GRADES/students/*/record.json; "
              "docs/class_grading.md explains every column.</footer>\n</body></html>\n")
