// SPDX-License-Identifier: MIT
// Added to the MathJax configuration of every page (Doxyfile: MATHJAX_CODEFILE). Formulas are
// drawn with MathJax's TeX web fonts, shipped in html/mathjax, never with fonts installed on the
// reader's machine: the site looks the same everywhere, and a font missing from the site shows
// on the machine that builds it (tools/check_site.py) rather than on one without the fonts.
MathJax.Hub.Config({"HTML-CSS": {availableFonts: [], preferredFont: null, webFont: "TeX", imageFont: null}});
