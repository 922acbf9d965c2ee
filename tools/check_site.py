#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks the built Doxygen site: formulas render and no command is garbled, with and without network.

Usage: tools/check_site.py SITE_DIR [--net-cut auto|unshare|flags] [--jobs N]

Static checks read every *.html as Doxygen wrote it: no typographic replacement by Doxygen
(&lsquo; &rsquo; &ndash; &mdash;: what Doxygen 1.9.4 makes, silently, of a code span holding a
single quote, `--test-args='-tc=01.2*'`, and of a bare --option), no curly quote in <code>/<pre>,
no stray backtick left by a broken code span, no literal ** or __ in prose (Doxygen 1.9.4
leaves **`code`** as it is written), no literal <tt> or <code> in a page's text or a sidebar
label (what 1.9.4 makes of a code span in a heading), no unconverted formula (\\f$, \\f[ ...).
And the site must travel: no page, script or style sheet names an absolute file path or a
file:// URL, and no relative reference leads out of the site's folder or to a file the folder
lacks.
Browser checks open index.html, every lessonNN.html and the thresholds, troubleshooting, no_gpu and
trust_model pages in headless Chromium (chromium-headless-shell or chromium; $CHROMIUM
overrides) twice: as is, then a copy of the whole folder in a temporary directory with
networking cut off, so a site that loads MathJax from a CDN, or from anywhere outside its folder,
fails. After rendering no raw TeX delimiter \\( \\) \\[ \\] may remain outside code, a page
with formulas must show MathJax output, no garbled code may show, and what MathJax added to the
page (its scripts, its web fonts) must be files inside the folder.
Prints one OK/FAIL line per check and page; exits 1 on any failure, 2 on a setup error.
"""
import argparse, collections, concurrent.futures, html.parser, os, re, shutil, subprocess, sys, tempfile, time
import urllib.parse, urllib.request
from pathlib import Path

EXTRA_PAGES = ("thresholds.html", "troubleshooting.html", "trust_model.html", "no_gpu.html")
CODE_TAGS = {"code", "pre"}  # also MathJax 2's skipTags: TeX inside them stays literal
SKIP_TAGS = {"script", "style", "noscript", "textarea", "template", "title"}
VOID_TAGS = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
MATHJAX_CLASSES = {"MathJax", "MathJax_CHTML", "mjx-chtml", "MathJax_SVG"}
# Where Doxygen puts prose (a page's Markdown, a member's description), as opposed to the C++
# declarations of the reference pages, whose `char **argv` and `__LINE__` are not Markdown.
PROSE_CLASSES = {"textblock", "memdoc", "mdescRight"}
ENTITY = re.compile(r"&(lsquo|rsquo|ndash|mdash|#8211|#8212|#8216|#8217);")
FORMULA_CMD = re.compile(r"\\f[$\[\](){}]")
RAW_TEX = re.compile(r"\\[()\[\]]")
CURLY = re.compile("[\u2018\u2019]")
BACKTICK = re.compile("`")
GLUED_DASH = re.compile(r"(?<![\w\u2013\u2014])[\u2013\u2014](?=[A-Za-z])")  # --seed made -seed
# Markdown emphasis Doxygen left as text, in prose: 1.9.4 does not make **`code`** (or __`code`__)
# bold. A __ that touches a word is a C++ identifier (__syncwarp, __LINE__), which Markdown keeps.
LITERAL_EMPHASIS = re.compile(r"\*\*|(?<!\w)__(?!\w)")
# Markup shown as text: Doxygen 1.9.4 writes a code span of a heading as <tt>...</tt> into the
# heading's text (&lt;tt&gt; in the page) and into the sidebar's labels, which its navtree.js
# shows as text. A heading must name an option or a program without backticks.
LITERAL_TAG = re.compile(r"<(?:tt|code)>")
LITERAL_TAG_WHY = ("literal <tt> or <code> (a code span in a heading: write the heading without backticks; or text "
                   "Doxygen left unconverted after a command it could not close, such as a \\ref whose quoted "
                   "title runs over two lines)")
# A label of the sidebar in Doxygen's navigation-tree scripts (navtreedata.js, one per page):
#   [ "Label", "page.html#anchor", children ]
TREE_LABEL = re.compile(r'^\s*\[ "((?:[^"\\]|\\.)*)", "', re.M)
# Where a page names another file: attributes, and url() in CSS (style sheets, <style>, style=).
REF_ATTRS = {"src", "href", "data", "poster"}
CSS_URL = re.compile(r"url\(\s*['\"]?([^'\")]+)")
FILE_URL = re.compile(r"file:/", re.I)
TIED = "absolute file path or file: URL (the site breaks when copied or served)"
# Any http(s) fetch fails: through a proxy that refuses (loopback included), names unresolvable.
NO_NET_FLAGS = ["--proxy-server=127.0.0.1:9", "--proxy-bypass-list=<-loopback>",
                "--host-resolver-rules=MAP * ~NOTFOUND"]
BROWSER_FLAGS = ["--headless", "--disable-gpu", "--no-sandbox", "--no-first-run", "--mute-audio",
                 "--virtual-time-budget=15000"]  # virtual time lets MathJax finish before the dump


Run = collections.namedtuple("Run", "line code prose text")


class Text(html.parser.HTMLParser):
    """A page's text as Runs (line, in code, in prose, text), without script/style; counts MathJax
    output and collects the page's references (src, href, ...)."""

    def __init__(self, source):
        super().__init__(convert_charrefs=True)
        self.runs, self.stack, self.rendered, self.scripts, self.errors = [], [], 0, 0, 0
        self.refs = []  # (line, (reference, ...)): src, href, ... attributes and CSS url()s
        self.feed(source)
        self.close()

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.refs += [(self.getpos()[0], (v,)) for k, v in attrs if k in REF_ATTRS and v]
        self.refs += css_refs(a.get("style") or "", self.getpos()[0])
        classes = set((a.get("class") or "").split())
        self.rendered += bool(classes & MATHJAX_CLASSES) or tag == "mjx-container"
        self.errors += bool(classes & {"merror", "MathJax_Error"})
        self.scripts += tag == "script" and (a.get("type") or "").startswith("math/tex")
        if tag not in VOID_TAGS:
            self.stack.append((tag, tag in CODE_TAGS or "fragment" in classes, tag in SKIP_TAGS,
                               bool(classes & PROSE_CLASSES)))

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                break

    def handle_data(self, data):
        if self.stack and self.stack[-1][0] == "style":
            self.refs += css_refs(data, self.getpos()[0])
        if not any(s[2] for s in self.stack):
            self.runs.append(Run(self.getpos()[0], any(s[1] for s in self.stack), any(s[3] for s in self.stack), data))


def css_refs(css, line=1):
    """(line, (reference, ...)) for the url()s of CSS text. The url()s of one declaration are
    alternatives, one of which must load (a font's src: MathJax names a woff, then an otf)."""
    out = []
    for decl in re.finditer(r"[^;{}]+", css):
        urls = tuple(CSS_URL.findall(decl.group()))
        if urls:
            out.append((line + css.count("\n", 0, decl.start()), urls))
    return out


def snippet(text, start, end):
    """The match with some context, on one line."""
    return '"' + " ".join(text[max(0, start - 40):end + 40].split()) + '"'


def text_problems(runs, tex):
    """Garbled code (and raw TeX delimiters when tex) in text runs, as (why, line, snippet)."""
    out = []
    for line, in_code, in_prose, data in runs:
        rules = [(CURLY, "curly quote in code")] if in_code else [
            (BACKTICK, "stray backtick (a broken code span)"),
            (GLUED_DASH, "dash glued to a word (an --option made a dash)"),
            (LITERAL_TAG, LITERAL_TAG_WHY)]
        if in_prose and not in_code:
            rules.append((LITERAL_EMPHASIS, "literal ** or __ (emphasis Doxygen did not convert; <b>`code`</b> works)"))
        if tex and not in_code:
            rules.append((RAW_TEX, "raw TeX delimiter (formula not rendered)"))
        for rx, why in rules:
            for m in rx.finditer(data):
                n = line + data.count("\n", 0, m.start())
                out.append((why, n, snippet(data, m.start(), m.end())))
    return out


def summary(problems):
    """One line per kind of problem: how many, on which lines, the first one's context."""
    out = []
    for why in dict.fromkeys(p[0] for p in problems):
        hits = [p for p in problems if p[0] == why]
        lines = sorted({p[1] for p in hits if p[1]})
        at = f" at line{'s' * (len(lines) > 1)} " + ", ".join(map(str, lines[:8])) + " ..." * (len(lines) > 8) if lines else ""
        out.append(f"{why}{f' ({len(hits)}x)' if len(hits) > 1 else ''}{at}" + (f": {hits[0][2]}" if hits[0][2] else ""))
    return out


def matches(src, rules):
    """(why, line, snippet) for every match of the (regex, why) rules in a file's text."""
    return [(why, src.count("\n", 0, m.start()) + 1, snippet(src, m.start(), m.end()))
            for rx, why in rules for m in rx.finditer(src)]


def target(base, ref):
    """The local file a reference names, resolved against the folder of the file `base` it is in;
    None for another scheme (http:, data:, javascript:) or an anchor in the same page."""
    u = urllib.parse.urlsplit(ref)
    if u.scheme.lower() == "file":
        return Path(urllib.request.url2pathname(u.path))
    if u.scheme or u.netloc or not u.path:
        return None
    return base.parent / urllib.parse.unquote(u.path)


def reference_problems(folder, base, refs, rendered=False):
    """(why, line, reference) for the references of one file of the site in `folder` that would
    break it elsewhere. As Doxygen wrote them a reference must be relative: an absolute path or a
    file: URL ties the site to this machine. After rendering, the file: URLs of MathJax's own
    loads (fonts, scripts) are fine if they stay inside. No reference may lead out of the folder
    or name a file that the folder lacks; of alternatives (a font's woff and otf), one must not."""
    out, root = [], folder.resolve()
    for line, alternatives in refs:
        found = []
        for ref in alternatives:
            path = target(base, ref)
            if path is None:
                found.append(None)
            elif not rendered and (ref.startswith("/") or urllib.parse.urlsplit(ref).scheme.lower() == "file"):
                out.append((TIED, line, ref))  # even beside an alternative that works
                found.append(None)
            elif path.resolve() != root and root not in path.resolve().parents:
                found.append(("reference out of the site's folder (breaks when the folder is copied)", line, ref))
            elif not path.exists():
                found.append(("names a file the site lacks", line, ref))
            else:
                found.append(None)
        if all(found):
            out.append(found[0])
    return out


def static_problems(site):
    """Problems in the site as generated, as 'file: summary' lines: in every *.html garbled text;
    in every *.html and *.css references that do not travel; in every *.js (a MathJax
    configuration, say) file: URLs."""
    out = []
    for f in sorted(site.rglob("*")):
        if f.suffix not in (".html", ".css", ".js"):
            continue
        src = f.read_text(encoding="utf-8", errors="replace")
        found = []
        if f.suffix == ".html":
            text = Text(src)
            found += matches(src, ((ENTITY, "typographic replacement by Doxygen (a `x' quote or --)"),
                                   (FORMULA_CMD, "formula command left unconverted")))
            found += text_problems(text.runs, tex=False) + reference_problems(site, f, text.refs)
            # file: URLs elsewhere (in a script, say); those of attributes were counted just above
            tied = {line for line, refs in text.refs if any(FILE_URL.match(r) for r in refs)}
            found += [p for p in matches(src, ((FILE_URL, TIED),)) if p[1] not in tied]
        elif f.suffix == ".css":
            found += reference_problems(site, f, css_refs(src))
        else:
            found += matches(src, ((FILE_URL, TIED),))
            found += [(LITERAL_TAG_WHY + " in the sidebar", src.count("\n", 0, m.start()) + 1, f'"{m.group(1)}"')
                      for m in TREE_LABEL.finditer(src) if LITERAL_TAG.search(m.group(1))]
        out += [f"{f.relative_to(site)}: {p}" for p in summary(found)]
    return out


def find_chromium():
    """The headless browser: $CHROMIUM, else the distribution's headless shell or chromium."""
    for name in (os.environ.get("CHROMIUM"), "chromium-headless-shell", "chromium", "chromium-browser"):
        if name and shutil.which(name):
            return shutil.which(name)
    return None


def unshare_works():
    """Whether an unprivileged network namespace can be made here (unshare -rn)."""
    try:
        return subprocess.run(["unshare", "-rn", "true"], capture_output=True, timeout=10).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def render(chromium, page, prefix, flags):
    """The page's DOM after rendering, or raises RuntimeError with Chromium's last words."""
    with tempfile.TemporaryDirectory(prefix="check_site.") as profile:
        cmd = prefix + [chromium, *BROWSER_FLAGS, *flags, f"--user-data-dir={profile}",
                        "--dump-dom", page.resolve().as_uri()]
        try:
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        except subprocess.TimeoutExpired:
            raise RuntimeError("Chromium did not finish in 120 s")
    if r.returncode != 0 or "<body" not in r.stdout:
        raise RuntimeError(f"Chromium exit {r.returncode}: " + " | ".join(r.stderr.strip().splitlines()[-3:]))
    return r.stdout


def browser_problems(chromium, page, has_tex, prefix, flags, folder=None):
    """(problems, summary) for one page opened in the browser; with the site's folder, also
    what the rendered page loads or names (MathJax's scripts and fonts) must be in it."""
    try:
        t = Text(render(chromium, page, prefix, flags))
    except RuntimeError as e:
        return summary([(str(e), 0, "")]), ""
    out = text_problems(t.runs, tex=True)
    if folder:
        out += reference_problems(folder, page, t.refs, rendered=True)
    if has_tex and not t.rendered:
        out.append(("the page has formulas but no MathJax output (MathJax did not load or run)", 0, ""))
    if t.scripts > t.rendered:
        out.append((f"{t.scripts - t.rendered} of {t.scripts} formulas not rendered (MathJax did not finish)", 0, ""))
    if t.errors:
        out.append((f"{t.errors} formulas with a TeX error", 0, ""))
    for line, _, _, data in t.runs:
        for msg in ("Math Processing Error", "File failed to load"):
            if msg in data:
                out.append((f"MathJax says '{msg}'", line, snippet(data, 0, 0)))
    return summary(out), f"{t.rendered} formulas rendered" if has_tex else "no formulas"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("site", type=Path, help="the html folder, e.g. build/docs/html")
    ap.add_argument("--net-cut", choices=("auto", "unshare", "flags"), default="auto",
                    help="offline run: auto = Chromium flags, inside unshare -rn where it works")
    ap.add_argument("--jobs", type=int, default=min(4, os.cpu_count() or 1))
    args = ap.parse_args(argv)
    site = args.site
    if not (site / "index.html").is_file():
        print(f"FAIL setup: no {site / 'index.html'}")
        return 2
    pages = [site / "index.html"] + sorted(site.glob("lesson[0-9][0-9].html"))
    pages += [site / p for p in EXTRA_PAGES if (site / p).is_file()]
    failed = 0

    problems = static_problems(site)
    n = len(list(site.rglob("*.html")))
    print(f"{'FAIL' if problems else 'OK':4}   static   {n} html files: no garbled code, no unconverted formula, "
          "nothing outside the folder")
    for p in problems:
        print(f"       {p}")
    failed += bool(problems)

    chromium = find_chromium()
    if not chromium:
        print("FAIL setup: no Chromium (apt install chromium-headless-shell, or set $CHROMIUM)")
        return 2
    has_tex = {p: any(RAW_TEX.search(r.text) for r in Text(p.read_text(encoding="utf-8")).runs if not r.code)
               for p in pages}
    use_unshare = args.net_cut in ("auto", "unshare") and unshare_works()
    if args.net_cut == "unshare" and not use_unshare:
        print("FAIL setup: unshare -rn does not work here")
        return 2
    cut = [["unshare", "-rn"] if use_unshare else [], [] if args.net_cut == "unshare" else NO_NET_FLAGS]
    how = " + ".join(filter(None, ["unshare -rn" if use_unshare else "", "flags" if cut[1] else ""]))
    # The offline run reads a copy of the folder somewhere else: what a site needs must be inside it.
    # The copy sits at the folder's own path under a new root, so that a relative path that leads
    # out of the folder (../../usr/share/...) lands where nothing is, whatever its depth.
    with tempfile.TemporaryDirectory(prefix="check_site.copy.") as tmp:
        copy = Path(tmp).joinpath(*site.resolve().parts[1:])
        shutil.copytree(site, copy)
        print(f"       browser: {chromium}; offline run: a copy in {copy}, network cut by {how}")
        for run, folder, prefix, flags in (("browser", site, [], []), ("offline", copy, *cut)):
            t0 = time.monotonic()
            with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
                results = list(pool.map(lambda p: browser_problems(chromium, folder / p.relative_to(site), has_tex[p],
                                                                   prefix, flags, folder), pages))
            for page, (probs, note) in zip(pages, results):
                print(f"{'FAIL' if probs else 'OK':4}   {run:8} {page.name}: " + (probs[0] if probs else note))
                for p in probs[1:]:
                    print(f"       {p}")
                failed += bool(probs)
            print(f"       {run}: {len(pages)} pages in {time.monotonic() - t0:.1f} s")
    print(f"check_site: {'FAILED' if failed else 'ok'} ({failed} failing checks)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
