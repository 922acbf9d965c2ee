# SPDX-License-Identifier: MIT
"""Which of a student's kernel files match code shipped with the course.

Each step's starter is the step before's reference, and the grader's own versions hold
working kernels: a student who copies either passes. This module flags such a file for the
instructor (it is not a verdict). Two texts match when they are the same once comments,
whitespace and names are taken out: every identifier that is not a C++ keyword or a CUDA
built-in is replaced by the index of its first occurrence, so `s[tid] += s[tid + k]` and
`buf[t] += buf[t + half]` read the same. Both whole files and each `__global__` function
are compared. A match with the file's own starter is no flag (an untouched kernel is the
starter's, and the starter is the step before's reference by design).
docs/class_grading.md (section Copies of shipped kernels) says what this can and cannot see."""
import pathlib
import re

# Where the course ships kernels, relative to its root: a copy of any of them is flagged.
# The known-bad variants are references with one thing broken (or one step's reference in
# another's place): they share kernels, or whole files, with the references and starters.
KNOWN_BAD = "lessons/*/bad/*.cu"
SHIPPED = ("starter/**/*.cu", "solutions/**/*.cu", "lessons/*/grader/*.cu", KNOWN_BAD)

# A kernel this short (its tokens, signature included) is not compared on its own: a plain
# element-wise kernel written from scratch reads like any other.
MIN_KERNEL_TOKENS = 60

# A block comment left open runs to the end (one scan, however many `/*` a hostile file holds).
_TOKEN = re.compile(r"""
    (?P<comment>//[^\n]*|/\*.*?(?:\*/|\Z))
  | (?P<text>"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')
  | (?P<number>\.?\d(?:[eEpP][+-]|[\w.'])*)
  | (?P<name>[A-Za-z_]\w*)
  | (?P<other>\S)
""", re.VERBOSE | re.DOTALL)

_KEYWORDS = set("""
    alignas alignof and and_eq asm auto bitand bitor bool break case catch char char8_t char16_t char32_t class
    compl concept const consteval constexpr constinit const_cast continue co_await co_return co_yield decltype
    default delete do double dynamic_cast else enum explicit export extern false float for friend goto if inline
    int long mutable namespace new noexcept not not_eq nullptr operator or or_eq private protected public
    register reinterpret_cast requires return short signed sizeof static static_assert static_cast struct switch
    template this thread_local throw true try typedef typeid typename union unsigned using virtual void volatile
    wchar_t while xor xor_eq
    include define if ifdef ifndef elif endif pragma unroll
    threadIdx blockIdx blockDim gridDim warpSize
""".split())


def tokens(text):
    """The tokens of C++ / CUDA source: comments and whitespace left out."""
    return [m.group() for m in _TOKEN.finditer(text) if m.lastgroup != "comment"]


def _kept(word):
    # CUDA's qualifiers and intrinsics all begin with two underscores (__global__, __syncthreads).
    return word in _KEYWORDS or word.startswith("__")


def normalized(toks):
    """The tokens as compared: each identifier that is not kept becomes `$k`, k the index
    of its first occurrence in `toks`, so consistent renaming does not count."""
    index, out = {}, []
    for t in toks:
        if (t[0].isalpha() or t[0] == "_") and not _kept(t):
            t = "$%d" % index.setdefault(t, len(index))
        out.append(t)
    return " ".join(out)


def _close(toks, i, opening, closing):
    """The index just past the bracket that closes toks[i] (an `opening`), or None."""
    depth = 0
    for j in range(i, len(toks)):
        depth += (toks[j] == opening) - (toks[j] == closing)
        if depth == 0:
            return j + 1
    return None


def kernels(toks):
    """[(name, tokens)] of each __global__ function defined in `toks` (from __global__ to
    its closing brace; declarations without a body are left out)."""
    out, i = [], 0
    while i < len(toks):
        if toks[i] != "__global__":
            i += 1
            continue
        name, j = "", i + 1
        while j is not None and j < len(toks) and toks[j] not in ("{", ";"):
            if toks[j] == "(":
                if not name and not toks[j - 1].startswith("__"):
                    name = toks[j - 1]
                j = _close(toks, j, "(", ")")
            else:
                j += 1
        if j is not None and j < len(toks) and toks[j] == ";":
            i = j + 1  # a declaration
            continue
        end = _close(toks, j, "{", "}") if j is not None and j < len(toks) else None
        if end is None:
            break  # a bracket never closed, or the text ends: no whole function follows
        out.append((name, toks[i:end]))
        i = end
    return out


def fingerprints(text):
    """(the whole file's normal form, {normal form of each kernel long enough: its name})."""
    toks = tokens(text)
    return normalized(toks), {normalized(k): name for name, k in kernels(toks) if len(k) >= MIN_KERNEL_TOKENS}


class Shipped:
    """The course's own kernels, read once per class: each file's normal form and each of
    its kernels', with where they came from (paths relative to the course)."""

    def __init__(self, course):
        course = pathlib.Path(course)
        self.files, self.kernels, self.by_path = {}, {}, {}
        for pattern in SHIPPED:
            for path in sorted(course.glob(pattern)):
                rel = path.relative_to(course).as_posix()
                whole, ks = fingerprints(path.read_text(errors="replace"))
                self.by_path[rel] = (whole, ks)
                self.files.setdefault(whole, []).append(rel)
                for form, name in ks.items():
                    self.kernels.setdefault(form, []).append((rel, name))

    def sources(self, text, own_starter):
        """Where the student's file `text` comes from, sorted: `solutions/x.cu` for a whole
        file, `lessons/06-reduction/grader/y.cu (step_kernel)` for one kernel of a file not
        matched whole; every shipped file or kernel it matches, except those that match
        its own starter (`own_starter`: the starter's path relative to the course). A known-bad
        variant is named only where no other shipped file explains the match: a copy of a
        reference is a copy of the reference, not of the variants made from it."""
        whole, ks = fingerprints(text)
        mine_whole, mine_kernels = self.by_path.get(own_starter, ("", {}))
        files = set() if whole == mine_whole else set(_but_known_bad(self.files.get(whole, [])))
        explained = {form for rel in files for form in self.by_path[rel][1]}  # the kernels of a file matched whole
        parts = {f"{rel} ({name})" for form in ks if form not in mine_kernels and form not in explained
                 for rel, name in _but_known_bad(self.kernels.get(form, []))}
        return sorted(files | parts)


def _known_bad(rel):
    return pathlib.PurePosixPath(rel).match(KNOWN_BAD)


def _but_known_bad(found):
    """The matches (paths, or (path, kernel name)) without the known-bad variants' when another
    file is among them; all of them when only known-bad variants match."""
    path = lambda f: f if isinstance(f, str) else f[0]  # noqa: E731
    others = [f for f in found if not _known_bad(path(f))]
    return others or list(found)


def copied(shipped, submission, lesson):
    """{kernel file: [sources]} for the lesson's files in `submission` that match shipped code."""
    out = {}
    for k in lesson.kernels:
        mine = pathlib.Path(submission) / lesson.dir / k
        if mine.is_file():
            found = shipped.sources(mine.read_text(errors="replace"), f"starter/{lesson.dir}/{k}")
            if found:
                out[k] = found
    return out
