#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The docs site's main page, with its list of lessons written from what the course already says.

    python3 tools/lesson_list.py SOURCE_ROOT OUT NN-topic...

Why it exists: a new lesson used to be announced twice, by a row in README.md's table of
lessons and by a line in the main page's list (docs/mainpage.md), each typed by hand, so
the two could drift apart. Now README.md's row is the only one typed: README.md must stay
a plain committed file that reads on GitHub, so it cannot be generated, and the main page
is derived from it when the docs are built. Each lesson's line on the main page,

    - \\subpage lessonNN "NN Title" — summary

takes its page id and title from the first heading of lessons/NN-topic/theory.md
(`# Lesson NN — Title {#lessonNN}`, the page the line links to) and its summary from the
lesson's row in README.md's table `| lesson | topic | status |`, whose topic is written
`title — summary`: the title as the theory page heads it (its first letter in either
case, so that README.md may keep its lower-case style), then an em dash, then the
summary. The lessons and their order are those of the list in the top-level meson.build,
given on the command line (NN-topic...) by docs/meson.build.

SOURCE_ROOT/docs/mainpage.md is the page itself, committed, with one marker in place of
the list: an HTML comment whose first line starts with `<!-- lessons:`. OUT is that page
with the marker's lines replaced by the list, which the Doxyfile reads as the main page
(USE_MDFILE_AS_MAINPAGE) in place of docs/mainpage.md (EXCLUDE).

The docs build stops, with one line per problem, when README.md's table and the lessons
disagree: a lesson of meson.build's list without a row in README.md, a row without a
lesson in that list, a folder lessons/NN-topic that the list lacks, a theory page without
its heading, or a topic that does not start with the theory page's title. Standard library
only.
"""
import argparse
import pathlib
import re
import sys

MARKER = "<!-- lessons:"
HEADER = ["lesson", "topic", "status"]
SEPARATOR = " — "  # between the title and the summary, in README.md's topic column
HEADING = re.compile(r"^# Lesson (\d\d) — (.+?)\s*\{#(lesson\d\d)\}\s*$")
FOLDER = re.compile(r"^(\d\d)-[A-Za-z0-9_-]+$")
CELL_SPLIT = re.compile(r"(?<!\\)\|")


class Problems(Exception):
    """What disagrees, one line each."""

    def __init__(self, lines):
        super().__init__("\n".join(lines))
        self.lines = lines


def cells(line):
    """The cells of a Markdown table row, stripped, or None when the line is no row."""
    s = line.strip()
    if not (s.startswith("|") and s.endswith("|") and len(s) > 1):
        return None
    return [c.strip() for c in CELL_SPLIT.split(s[1:-1])]


def readme_rows(text, where="README.md"):
    """{NN: (topic, line number)} from the table headed `| lesson | topic | status |`."""
    lines = text.splitlines()
    heads = [i for i, line in enumerate(lines) if [c.lower() for c in (cells(line) or [])] == HEADER]
    if len(heads) != 1:
        raise Problems([f"{where}: {'no' if not heads else 'more than one'} table headed "
                        f"'| {' | '.join(HEADER)} |' (the table of lessons)"])
    rule = cells(lines[heads[0] + 1]) if heads[0] + 1 < len(lines) else None
    if not rule or not all(re.fullmatch(r":?-+:?", c) for c in rule):
        raise Problems([f"{where}:{heads[0] + 2}: the table of lessons has no '|---|---|---|' line under its header"])
    rows, problems = {}, []
    for n, line in enumerate(lines[heads[0] + 2:], heads[0] + 3):
        row = cells(line)
        if row is None:
            break
        if len(row) != len(HEADER) or not re.fullmatch(r"\d\d", row[0]):
            problems.append(f"{where}:{n}: a row of the table of lessons must be '| NN | title — summary | status |'")
        elif row[0] in rows:
            problems.append(f"{where}:{n}: a second row for lesson {row[0]} (the first is on line {rows[row[0]][1]})")
        else:
            rows[row[0]] = (row[1], n)
    if problems:
        raise Problems(problems)
    return rows


def theory_heading(root, d):
    """(NN, title, page id) from the first heading of lessons/d/theory.md, or a Problems."""
    shown = f"lessons/{d}/theory.md"
    try:
        text = (pathlib.Path(root) / "lessons" / d / "theory.md").read_text(encoding="utf-8")
    except OSError as e:
        raise Problems([f"{shown}: cannot be read ({e.strerror})"])
    first = next((line for line in text.splitlines() if line.startswith("# ")), None)
    m = HEADING.match(first or "")
    if not m:
        raise Problems([f"{shown}: its first heading must be '# Lesson NN — Title {{#lessonNN}}'"
                        + (f", not '{first}'" if first else "")])
    return m.groups()


def same_title(a, b):
    """Equal but for the case of the first letter."""
    return a[:1].lower() + a[1:] == b[:1].lower() + b[1:]


def lesson_lines(root, lesson_dirs):
    """The main page's lines for the lessons of meson.build's list, in its order; Problems
    lists everything that disagrees."""
    root = pathlib.Path(root)
    problems, numbers = [], {}
    for d in lesson_dirs:
        m = FOLDER.match(d)
        if not m:
            problems.append(f"meson.build: lesson folder '{d}' is not named NN-topic")
        elif m.group(1) in numbers:
            problems.append(f"meson.build: lessons {numbers[m.group(1)]} and {d} have the same number")
        else:
            numbers[m.group(1)] = d
    lessons = root / "lessons"
    for f in sorted(lessons.iterdir()) if lessons.is_dir() else []:
        if f.is_dir() and FOLDER.match(f.name) and f.name not in lesson_dirs and \
                ((f / "theory.md").exists() or (f / "meson.build").exists()):
            problems.append(f"lessons/{f.name}: a lesson folder that the list of lessons in meson.build lacks")
    try:
        rows = readme_rows((root / "README.md").read_text(encoding="utf-8"))
    except Problems as e:
        raise Problems(problems + e.lines)
    for nn in sorted(set(rows) - set(numbers)):
        problems.append(f"README.md:{rows[nn][1]}: a row for lesson {nn}, which the list of lessons in meson.build "
                        f"lacks (no lessons/{nn}-topic)")
    out = []
    for nn, d in numbers.items():
        if nn not in rows:
            problems.append(f"README.md: no row for lesson {nn} ({d}) in the table of lessons: add "
                            f"'| {nn} | title — summary | status |'")
            continue
        topic, line = rows[nn]
        try:
            heading_nn, title, page = theory_heading(root, d)
        except Problems as e:
            problems += e.lines
            continue
        if heading_nn != nn or page != "lesson" + nn:
            problems.append(f"lessons/{d}/theory.md: headed as lesson {heading_nn} {{#{page}}}, "
                            f"not lesson {nn} {{#lesson{nn}}}")
            continue
        if '"' in title:
            problems.append(f"lessons/{d}/theory.md: the title '{title}' has a double quote, "
                            "which \\subpage cannot quote")
            continue
        lead, sep, summary = topic.partition(SEPARATOR)
        if not sep or not same_title(lead.strip(), title) or not summary.strip():
            problems.append(f"README.md:{line}: lesson {nn}'s topic must be '{title[:1].lower() + title[1:]}"
                            f"{SEPARATOR}summary' (the title as lessons/{d}/theory.md heads it, then the "
                            f"summary that the docs' main page shows), not '{topic}'")
            continue
        out.append(f'- \\subpage {page} "{nn} {title}"{SEPARATOR}{summary.strip()}')
    if problems:
        raise Problems(problems)
    return out


def main_page(root, lesson_dirs):
    """docs/mainpage.md with its marker replaced by the list of lessons."""
    root = pathlib.Path(root)
    template = root / "docs" / "mainpage.md"
    lines = template.read_text(encoding="utf-8").splitlines()
    marks = [i for i, line in enumerate(lines) if line.strip().startswith(MARKER)]
    ends = [next((j for j in range(i, len(lines)) if lines[j].rstrip().endswith("-->")), None) for i in marks]
    if len(marks) != 1:
        problems = [f"docs/mainpage.md: {len(marks) or 'no'} marker{'s' if marks else ''} '{MARKER} ... -->' "
                    "where the list of lessons goes (one is needed)"]
    elif ends[0] is None:
        problems = [f"docs/mainpage.md:{marks[0] + 1}: the marker '{MARKER} ...' is not closed by '-->'"]
    else:
        problems = []
    try:
        listed = lesson_lines(root, lesson_dirs)
    except Problems as e:
        raise Problems(problems + e.lines)
    if problems:
        raise Problems(problems)
    return "\n".join(lines[:marks[0]] + listed + lines[ends[0] + 1:]) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description="The docs' main page, its list of lessons from README.md and the "
                                             "theory pages.")
    ap.add_argument("root", help="the course's source folder")
    ap.add_argument("out", help="the main page to write (the Doxyfile reads it)")
    ap.add_argument("lessons", nargs="*", help="the lesson folders of meson.build's list, in its order")
    a = ap.parse_args(argv)
    try:
        text = main_page(a.root, a.lessons)
    except Problems as e:
        print("tools/lesson_list.py: the docs' main page cannot list the lessons (docs/adding_a_lesson.md, "
              "\"What a new lesson touches\", says where each lesson is named):", file=sys.stderr)
        for line in e.lines:
            print("  " + line, file=sys.stderr)
        return 1
    out = pathlib.Path(a.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text, encoding="utf-8")
    print(f"{out.resolve()}: the main page, {len(a.lessons)} lessons listed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
