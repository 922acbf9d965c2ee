# SPDX-License-Identifier: MIT
"""Tests of tools/check_site.py's own logic, without a browser: pages as Doxygen 1.9.4 writes
them (garbled and clean) and DOMs as Chromium dumps them after MathJax 2 ran (or did not).

Run from the repository root: python3 -m unittest discover -s tools/tests -t .
"""
import contextlib
import importlib.util
import io
import pathlib
import tempfile
import unittest

ROOT = pathlib.Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("check_site", ROOT / "tools" / "check_site.py")
cs = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cs)

# What Doxygen 1.9.4 made of `--test-args='-tc=01.2*'` and `--test-args='--seed=N'` (verbatim).
GARBLED = ("<p >Exercises run one at a time with &lsquo;--test-args=&rsquo;-tc=01.2*'<code>; a run's "
           "random inputs come back with</code>&ndash;test-args='&ndash;seed=N'` (each run prints its seed).</p>")
CLEAN = ("<p>Run <code>meson test --test-args=\"-tc=01.2*\"</code>; headed <code># Lesson NN — Title</code>.</p>\n"
         "<div class=\"fragment\"><div class=\"line\">echo `date` \\(x\\)</div></div>\n"
         "<pre>printf(\"\\(\");</pre><script>var s = '\\\\(';</script>\n<p>Latency \\(L\\) and \\[ B \\]</p>")
RENDERED = ('<html><body><p>Latency <span class="MathJax_Preview"></span><span class="MathJax"><span class="mi">L'
            '</span></span><script type="math/tex">L</script>.</p><code>a\\(b</code></body></html>')


def whys(problems):
    """The kinds of problem found."""
    return {p[0] for p in problems}


class StaticChecks(unittest.TestCase):
    def site(self, body):
        """A one-page site; returns static_problems' lines."""
        with tempfile.TemporaryDirectory() as d:
            (pathlib.Path(d) / "index.html").write_text(f"<html><body>\n{body}\n</body></html>", encoding="utf-8")
            return cs.static_problems(pathlib.Path(d))

    def test_garbled_command_is_found(self):
        found = " ".join(self.site(GARBLED))
        self.assertIn("typographic replacement by Doxygen", found)
        self.assertIn("stray backtick", found)
        self.assertIn("dash glued to a word", found)
        self.assertIn("line 2", found)

    def test_clean_page_passes(self):
        # A literal em dash written in a code span is the author's, not Doxygen's; backticks in
        # code fragments and TeX delimiters are fine before rendering.
        self.assertEqual(self.site(CLEAN), [])

    def test_curly_quote_in_code_and_unconverted_formula(self):
        found = " ".join(self.site("<p><code>--test-args=\u2019-tc\u2019</code> and \\f$x\\f$</p>"))
        self.assertIn("curly quote in code", found)
        self.assertIn("formula command left unconverted", found)

    def test_literal_emphasis_in_prose_is_found(self):
        # What Doxygen 1.9.4 made of **`SKIP lesson01: ...`** and __`x`__ (verbatim).
        found = self.site('<div class="textblock"><ul>\n<li>**<code>SKIP lesson01: no GPU</code>** — the grader</li>\n'
                          '<li>__<code>x</code>__ — four</li></ul></div>')
        self.assertEqual(len(found), 1, found)
        self.assertIn("literal ** or __ (emphasis Doxygen did not convert; <b>`code`</b> works) (4x) at lines 3, 4", found[0])

    def test_bold_code_identifiers_and_declarations_pass(self):
        # <b>`code`</b> is the form that works; __syncwarp and __LINE__ are C++ names in prose; a
        # reference page's declaration (outside any prose block) is C++, not Markdown.
        self.assertEqual(self.site('<div class="textblock"><b><code>FAIL</code></b>, with __syncwarp() at '
                                   '__LINE__</div><table><tr><td class="memItemRight">lesson_main (int argc, '
                                   'char **argv)</td></tr></table><div class="memdoc"><p>a <code>char **</code></p></div>'),
                         [])


    def test_code_span_in_a_heading_is_found(self):
        # What Doxygen 1.9.4 made of "## What `grade` checks before the build {#trust_model_static}"
        # (verbatim): the heading's text, and its label in the sidebar's script. A code span in
        # prose, and a heading without one, pass.
        heading = ('<h1><a class="anchor" id="trust_model_static"></a>\n'
                   'What &lt;tt&gt;grade&lt;/tt&gt; checks before the build</h1>\n<p>Run <code>grade</code>.</p>')
        found = self.site(heading)
        self.assertEqual(found, [f"index.html: {cs.LITERAL_TAG_WHY} at line 3: \"What <tt>grade</tt> checks before the build\""])
        self.assertEqual(self.site(heading.replace("&lt;tt&gt;grade&lt;/tt&gt;", "the grader")), [])
        with tempfile.TemporaryDirectory() as d:
            site = pathlib.Path(d)
            (site / "index.html").write_text("<html><body></body></html>", encoding="utf-8")
            (site / "developers.js").write_text(
                'var developers =\n[\n    [ "Grading a class", "class_grading.html", [\n'
                '      [ "What <tt>grade</tt> checks before the build", "trust_model.html#trust_model_static", null ]\n'
                '    ] ]\n];\n', encoding="utf-8")
            (site / "menu.js").write_text('x.innerHTML = "<code>" + label + "</code>";\n', encoding="utf-8")
            self.assertEqual(cs.static_problems(site), [
                f"developers.js: {cs.LITERAL_TAG_WHY} in the sidebar at line 4: \"What <tt>grade</tt> checks before the build\""])


class References(unittest.TestCase):
    """What ties a site to this machine or this folder: absolute paths, file: URLs, references out
    of the folder or to files it lacks."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.site = pathlib.Path(self.tmp.name) / "html"
        (self.site / "mathjax").mkdir(parents=True)
        (self.site / "mathjax" / "MathJax.js").write_text("")
        (self.site / "tab.png").write_text("")
        (self.site.parent / "outside.js").write_text("")

    def tearDown(self):
        self.tmp.cleanup()

    def problems(self, body, css="", js=""):
        (self.site / "index.html").write_text(f"<html><body>\n{body}\n</body></html>", encoding="utf-8")
        for name, text in (("style.css", css), ("config.js", js)):
            (self.site / name).write_text(text)
        return cs.static_problems(self.site)

    def test_a_site_that_travels_passes(self):
        self.assertEqual(self.problems('<script src="mathjax/MathJax.js?V=2"></script><a href="index.html#x">x</a>'
                                       '<a href="#top">t</a><a href="https://example.org/a">e</a><img src="tab.png">',
                                       css="a { background: url('tab.png') } b { background: url(data:image/png;base64,AA) }"),
                         [])

    def test_absolute_paths_and_file_urls_are_found(self):
        found = self.problems('<script src="/usr/share/javascript/mathjax/MathJax.js"></script>\n'
                              '<a href="file:///usr/share/doc/x.html">x</a>\n<a href="file:line">y</a>\n'
                              '<script>var root = "file:///usr/share/javascript/mathjax";</script>',
                              css="p { background: url(/usr/share/x.png) }", js="MathJax.root = 'file:///usr/share';")
        self.assertEqual(found, [
            "config.js: absolute file path or file: URL (the site breaks when copied or served) at line 1: "
            "\"MathJax.root = 'file:///usr/share';\"",
            "index.html: absolute file path or file: URL (the site breaks when copied or served) (4x) at lines 2, 3, 4, 5: "
            "/usr/share/javascript/mathjax/MathJax.js",
            "style.css: absolute file path or file: URL (the site breaks when copied or served) at line 1: /usr/share/x.png"])

    def test_references_out_of_the_folder_or_to_missing_files_are_found(self):
        found = self.problems('<script src="../outside.js"></script><img src="mathjax/missing.png">',
                              css="p { background: url('../outside.js') }")
        self.assertEqual(found, [
            "index.html: reference out of the site's folder (breaks when the folder is copied) at line 2: ../outside.js",
            "index.html: names a file the site lacks at line 2: mathjax/missing.png",
            "style.css: reference out of the site's folder (breaks when the folder is copied) at line 1: ../outside.js"])

    def test_rendered_fonts_must_be_in_the_folder(self):
        # The @font-face MathJax 2 adds to a page: a woff, then an otf, as file: URLs. One of them must exist.
        woff = (self.site / "mathjax" / "Main.woff").as_uri()
        font = f"<style>@font-face {{font-family: M; src: url('{woff}?V=2') format('woff'), url('x.otf')}}</style>"
        text = cs.Text(f"<html><head>{font}</head><body></body></html>")
        page = self.site / "index.html"
        self.assertEqual([p[0] for p in cs.reference_problems(self.site, page, text.refs, rendered=True)],
                         ["names a file the site lacks"])
        (self.site / "mathjax" / "Main.woff").write_text("")
        self.assertEqual(cs.reference_problems(self.site, page, text.refs, rendered=True), [])
        outside = f"<script src='{(self.site.parent / 'outside.js').as_uri()}'></script>"
        self.assertEqual([p[0] for p in cs.reference_problems(self.site, page, cs.Text(outside).refs, rendered=True)],
                         ["reference out of the site's folder (breaks when the folder is copied)"])

    def test_the_offline_run_reads_a_copy_elsewhere(self):
        # A script that loads a file from outside the folder, which no reference in the page shows
        # (MathJax 2 finds its own folder so): it works where the site was built and fails in the
        # copy. The stand-in for Chromium says what MathJax would.
        (self.site / "index.html").write_text('<html><body><script>load("../outside.js")</script></body></html>')
        rendered = []

        def render(chromium, page, prefix, flags):
            rendered.append(page)
            ok = (page.parent / "../outside.js").exists()
            return f"<html><body><p>{'loaded' if ok else 'File failed to load: ../outside.js'}</p></body></html>"
        saved = cs.render, cs.find_chromium, cs.unshare_works
        cs.render, cs.find_chromium, cs.unshare_works = render, lambda: "chromium", lambda: False
        try:
            with contextlib.redirect_stdout(io.StringIO()) as out:
                rc = cs.main([str(self.site)])
        finally:
            cs.render, cs.find_chromium, cs.unshare_works = saved
        lines = out.getvalue().splitlines()
        self.assertEqual(rc, 1, lines)
        self.assertEqual(lines[0][:6], "OK    ")
        self.assertIn("OK     browser  index.html: no formulas", lines)
        self.assertIn("FAIL   offline  index.html: MathJax says 'File failed to load' at line 1: "
                      "\"File failed to load: ../outside.js\"", lines)
        self.assertEqual(rendered[0], self.site / "index.html")
        self.assertNotIn(self.site, rendered[1].parents)


class BrowserChecks(unittest.TestCase):
    def check(self, dom, has_tex=True):
        """browser_problems on a DOM given instead of Chromium's."""
        saved, cs.render = cs.render, lambda *a: dom
        try:
            return cs.browser_problems("chromium", pathlib.Path("x.html"), has_tex, [], [])
        finally:
            cs.render = saved

    def test_rendered_page_passes(self):
        self.assertEqual(self.check(RENDERED), ([], "1 formulas rendered"))

    def test_raw_tex_fails(self):
        problems, _ = self.check("<html><body><p>Latency \\(L\\).</p></body></html>")
        self.assertTrue(any("raw TeX delimiter (formula not rendered) (2x)" in p for p in problems))
        self.assertTrue(any("no MathJax output" in p for p in problems))

    def test_markup_shown_as_text_fails(self):
        # The sidebar after navtree.js ran: it makes each label a text node, so Doxygen's <tt> shows.
        problems, _ = self.check('<html><body><div id="nav-tree"><a href="thresholds.html#thresholds_sms">'
                                 'Other GPU shapes: the option &lt;tt&gt;--sms&lt;/tt&gt;</a></div></body></html>', False)
        self.assertEqual(len(problems), 1, problems)
        self.assertIn("literal <tt> or <code> (a code span in a heading", problems[0])

    def test_unfinished_rendering_fails(self):
        problems, _ = self.check(RENDERED.replace("</body>", '<script type="math/tex">B</script></body>'))
        self.assertEqual(problems, ["1 of 2 formulas not rendered (MathJax did not finish)"])

    def test_browser_failure_is_reported(self):
        def fail(*a):
            raise RuntimeError("Chromium exit 1: boom")
        saved, cs.render = cs.render, fail
        try:
            self.assertEqual(cs.browser_problems("c", pathlib.Path("x.html"), True, [], []), (["Chromium exit 1: boom"], ""))
        finally:
            cs.render = saved


class TextRuns(unittest.TestCase):
    def test_code_fragment_and_skipped_elements(self):
        runs = cs.Text("<p>a<code>b</code><br>c</p><div class='fragment'><div>d</div></div><style>e</style><img/>f"
                       "<div class='textblock'>g<code>h</code></div>").runs
        self.assertEqual([(r.code, r.prose, r.text) for r in runs],
                         [(False, False, "a"), (True, False, "b"), (False, False, "c"), (True, False, "d"),
                          (False, False, "f"), (False, True, "g"), (True, True, "h")])


if __name__ == "__main__":
    unittest.main()
