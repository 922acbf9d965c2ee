# SPDX-License-Identifier: MIT
"""Each grader copy of a course kernel is still the kernel it copies.

Some lesson graders keep their own copy of a starter's or a reference's kernel, to time it
beside a student's: a row of the teaching table, the comparison of a slow diagnosis, the
yardstick a threshold is a multiple of. Nothing in the build ties such a copy to its source.
If the two drift apart, the grader times a different kernel from the one the student
starts with, and a threshold set "above the starter" is no longer about the starter.

The line just above each such copy in lessons/*/grader/ names its source, one marker per
source:

    // copy of starter/01-coalescing/matrix_mapping.cu: add_matrices_kernel

This test finds every marker, takes the function below it (template line included, up to
its closing brace) and the named function of the named file, and requires both to have the
same tokens. Comments, whitespace and the function's own name may differ; nothing else.
A grader kernel that only resembles a course kernel (parameterized otherwise, say) has no
marker. In a student release (no solutions/, and starter/ holds the student's own work)
the test skips.

Run from the repository root: python3 -m unittest tools.tests.test_kernel_copies -v
"""
import difflib
import pathlib
import re
import unittest

ROOT = pathlib.Path(__file__).resolve().parents[2]
GRADERS = ("lessons/*/grader/*.cu", "lessons/*/grader/*.cuh")
MARKER = re.compile(r"^[ \t]*// copy of (?P<path>\S+): (?P<name>\w+)[ \t]*$", re.MULTILINE)

# Comments are dropped; a preprocessor line (#pragma unroll) is one token.
_TOKEN = re.compile(r"""
    (?P<comment>//[^\n]*|/\*.*?(?:\*/|\Z))
  | (?P<directive>\#(?:[^\n/]|/(?![/*]))*)
  | (?P<text>"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')
  | (?P<number>\.?\d(?:[eEpP][+-]|[\w.])*)
  | (?P<word>\w+)
  | (?P<operator><<=|>>=|->|::|\+\+|--|&&|\|\||<<|>>|[-+*/%&|^<>=!]=|\S)
""", re.VERBOSE | re.DOTALL)


def tokens(text):
    return [" ".join(m.group().split()) for m in _TOKEN.finditer(text) if m.lastgroup != "comment"]


def _closing(toks, i):
    """The index of the bracket that closes toks[i]."""
    pair = {"{": "}", "(": ")"}[toks[i]]
    depth = 0
    for j in range(i, len(toks)):
        depth += (toks[j] == toks[i]) - (toks[j] == pair)
        if depth == 0:
            return j
    raise ValueError("unbalanced " + toks[i])


def _name(head):
    """The name a function head declares: the word before its parameter list, the last
    top-level parentheses (after __launch_bounds__(…), if any)."""
    depth = 0
    for k in range(len(head) - 1, 0, -1):
        depth += (head[k] == ")") - (head[k] == "(")
        if depth == 0 and head[k] == "(":
            return head[k - 1]
    return None


def functions(toks):
    """[(name, tokens)] of every function defined at namespace scope, namespaces entered."""
    found, start, i = [], 0, 0
    while i < len(toks):
        t = toks[i]
        if t == "(":  # a parameter list, a macro's arguments: braces inside are no body
            i = _closing(toks, i) + 1
        elif t.startswith("#") and i == start or t in (";", "}"):
            start = i = i + 1
        elif t == "{" and toks[start] == "namespace":
            start = i = i + 1
        elif t == "{":
            end = _closing(toks, i)
            if "(" in toks[start:i]:
                found.append((_name(toks[start:i]), toks[start:end + 1]))
            start = i = end + 1
        else:
            i += 1
    return found


def first_function(text):
    """The function that `text` begins with, or (None, None) if it begins otherwise."""
    toks = tokens(text)
    found = functions(toks)
    return found[0] if found and found[0][1] == toks[:len(found[0][1])] else (None, None)


def normalized(name, toks):
    return [("<name>" if t == name else t) for t in toks]


def readable(toks):
    """Tokens as lines of code, for a diff: a line ends at { }, at a ; outside parentheses
    and after a preprocessor line."""
    lines, depth = [[]], 0
    for t in toks:
        lines[-1].append(t)
        depth += (t == "(") - (t == ")")
        if t in ("{", "}") or t == ";" and depth == 0 or t.startswith("#"):
            lines.append([])
    return [re.sub(r" (?=[,;)\].])|(?<=[(\[.]) |(?<=[\w\]]) (?=[(\[])", "", " ".join(line)) for line in lines if line]


def markers(text):
    """[(line number, source path, source function, text from the marked function on)]."""
    found = []
    for m in MARKER.finditer(text):
        after = text[m.end() + 1:]
        while MARKER.match(after):  # several sources: one marker line each
            after = after[MARKER.match(after).end() + 1:]
        found.append((text.count("\n", 0, m.start()) + 1, m["path"], m["name"], after))
    return found


def problems(path, text):
    """What is wrong with the copies marked in `text`, the contents of grader file `path`."""
    out = []
    for line, source, name, after in markers(text):
        where = f"{path.relative_to(ROOT)}:{line}: copy of {source}: {name}"
        copy_name, copy = first_function(after)
        if copy is None:
            out.append(f"{where}: no function definition starts on the line below the marker")
            continue
        src = ROOT / source
        if not src.is_file():
            out.append(f"{where}: {source} does not exist")
            continue
        named = [f for n, f in functions(tokens(src.read_text())) if n == name]
        if len(named) != 1:
            out.append(f"{where}: {source} defines {len(named) or 'no'} functions named {name}, not one")
            continue
        a, b = normalized(name, named[0]), normalized(copy_name, copy)
        if a != b:
            diff = difflib.unified_diff(readable(a), readable(b), source, f"{copy_name} in {path.relative_to(ROOT)}",
                                        lineterm="")
            out.append(f"{where}: the copy {copy_name} differs from its source\n" + "\n".join(diff))
    return out


def grader_files():
    return sorted({p for pattern in GRADERS for p in ROOT.glob(pattern)})


@unittest.skipUnless((ROOT / "solutions").is_dir(), "a student release: no solutions/, and starter/ is the student's")
class KernelCopies(unittest.TestCase):
    def test_every_marked_copy_is_its_source(self):
        count = 0
        for path in grader_files():
            text = path.read_text()
            count += len(markers(text))
            with self.subTest(grader=str(path.relative_to(ROOT))):
                found = problems(path, text)
                if found:
                    self.fail("\n\n".join(found))
        self.assertGreater(count, 0, "no `// copy of` marker found in " + ", ".join(GRADERS))

    def test_a_changed_copy_or_a_wrong_marker_is_reported(self):
        # The check itself, on a grader file made here: a copy of the first marked source.
        source, name = next(m[1:3] for p in grader_files() for m in markers(p.read_text()))
        original = next(f for n, f in functions(tokens((ROOT / source).read_text())) if n == name)
        copy = "\n".join("grader_copy" if t == name else t for t in original)  # one token a line
        path = ROOT / "lessons" / "grader.cu"

        def grader(marker=f"// copy of {source}: {name}", function=copy):
            return f"namespace {{\n{marker}\n{function}\n}}  // a comment\n"

        self.assertEqual(problems(path, grader()), [])
        # Comments and blank lines are free to differ, like the name.
        self.assertEqual(problems(path, grader(function=copy.replace("{", "{  // mine\n\n/* mine */", 1))), [])
        changed = problems(path, grader(function=copy.replace("{", "{ int changed = 0;", 1)))
        self.assertTrue(len(changed) == 1 and "differs from its source" in changed[0], changed)
        self.assertIn("\n+int changed = 0;\n", changed[0])
        for marker, function, expected in (
                (f"// copy of {source}: no_such_function", copy, "defines no functions named no_such_function"),
                (f"// copy of no/such/file.cu: {name}", copy, "no/such/file.cu does not exist"),
                (f"// copy of {source}: {name}", "int x = 0;\n" + copy, "no function definition starts")):
            found = problems(path, grader(marker, function))
            self.assertTrue(len(found) == 1 and expected in found[0], found)


if __name__ == "__main__":
    unittest.main()
