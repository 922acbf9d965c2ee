# SPDX-License-Identifier: MIT
"""Tests of tools/check_site.py's own logic, without a browser: pages as Doxygen 1.9.4 writes
them (garbled and clean) and DOMs as Chromium dumps them after MathJax 2 ran (or did not).

Run from the repository root: python3 -m unittest discover -s tools/tests -t .
"""
import importlib.util
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
        runs = cs.Text("<p>a<code>b</code><br>c</p><div class='fragment'><div>d</div></div><style>e</style><img/>f").runs
        self.assertEqual([(c, d) for _, c, d in runs], [(False, "a"), (True, "b"), (False, "c"), (True, "d"), (False, "f")])


if __name__ == "__main__":
    unittest.main()
