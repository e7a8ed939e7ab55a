"""Math in a transcript, as pymdownx.arithmatex reads it on a transcript page.

A transcript's text is escaped (``markdown.py``): ``&``, ``<``, braces and backticks
become entities, so that no HTML and no attribute list (attr_list's ``{ ... }``) is
of the transcript's making. Arithmatex reads the math between its delimiters as it
stands, entities included, and escapes it once more: ``\\frac{a}{b}`` reached MathJax
as ``\\frac&#123;a&#125;&#123;b&#125;``. On a transcript page, its patterns are given
the math with those entities read back, as the transcript wrote it; arithmatex then
escapes it as it does on any page.

Math that asks the browser's math library for more than math is not read back:
MathJax (and KaTeX, where a site trusts it) turns ``\\href{javascript:...}{x}`` into a
link that runs a script, and ``\\class``, ``\\cssId``, ``\\style``, ``\\bbox``'s styles
or ``\\mmlToken``'s attributes into markup of the transcript's making (a box over the
whole page). Such math is shown as the text it is, as the rest of the transcript.
"""

from __future__ import annotations

import html
import re
from typing import Any

from markdown import Markdown

# The entities ``markdown.py`` writes for a transcript's characters, read in one pass
# (``&amp;#123;``, a transcript's own "&#123;", is read back as that text).
_ENTITY = re.compile(r"&(?:amp|lt|gt|#\d{1,7});")


# The commands of MathJax and KaTeX that write a link, an id, a class, a style or an
# attribute, load an extension, or name a font: as a transcript writes them, or with
# their backslash written as an entity.
_ACTIVE = re.compile(
    r"\\(?:href|url|class|cssId|style|data|attr|bbox|mmlToken|require|unicode|includegraphics"
    r"|html(?:Class|Id|Style|Data))(?![A-Za-z])"
)


def as_written(text: str) -> str:
    return _ENTITY.sub(lambda match: html.unescape(match.group()), text)


def read_as_written(md: Markdown) -> None:
    """Give arithmatex's patterns (when the site has them) the math of a transcript page
    as written."""
    if "arithmatex-inline" in md.inlinePatterns:
        pattern = md.inlinePatterns["arithmatex-inline"]
        pattern.handleMatch = _inline(pattern.handleMatch, pattern.compiled_re)  # type: ignore[method-assign]
    if "arithmatex-block" in md.parser.blockprocessors:
        processor = md.parser.blockprocessors["arithmatex-block"]
        processor.test = _block(processor.test)  # type: ignore[method-assign]


def _inline(handle: Any, compiled: re.Pattern[str]) -> Any:
    def handle_match(match: re.Match[str], data: str) -> Any:
        text = match.group()
        written = as_written(text)
        if _ACTIVE.search(written):
            return None, None, None  # shown as text
        again = compiled.match(written) if written != text else None
        if again is None or again.end() != len(written):
            return handle(match, data)
        element, _, _ = handle(again, written)
        return element, match.start(0), match.end(0)

    return handle_match


def _block(test: Any) -> Any:
    # The block processor keeps the match its test found, and reads the math from it.
    def test_as_written(parent: Any, block: str) -> bool:
        written = as_written(block)
        return not _ACTIVE.search(written) and test(parent, written)

    return test_as_written
