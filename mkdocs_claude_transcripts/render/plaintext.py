"""On a transcript page, text that no inline pattern can match is passed over by
Python-Markdown's inline processor.

That processor tries each of its patterns on every piece of text of a page: a
paragraph, a list item, a table cell, a block's title. Transcript pages hold
thousands of them, most without any of the characters a pattern starts from (a
backtick, a bracket, an asterisk...), and the tries took a third of the time
Python-Markdown spent on such pages. Text holding none of them is marked as
Markdown marks what it leaves alone (``AtomicString``); the HTML is the same.

This is done only where every inline pattern of the page's Markdown is one whose
characters are known (those of Python-Markdown and its footnotes, the marks of
pymdownx.betterem, tilde, caret and mark, pymdownx's emoji, keys, inlinehilite,
arithmatex and smartsymbols), and no processor that comes after would treat marked
text otherwise (Python-Markdown's ``abbr`` does, on a page that has abbreviations):
with another extension's pattern (smarty's quotes, magiclink's bare addresses),
nothing is marked.
"""

from __future__ import annotations

import functools
import re
import xml.etree.ElementTree as etree
from collections.abc import Callable

from markdown import Markdown
from markdown.treeprocessors import InlineProcessor, Treeprocessor
from markdown.util import AtomicString, Registry

PRIORITY = 20.5  # just before the inline processor (20)

_SMART = "pymdownx.smartsymbols.SmartSymbolsPattern"
# The inline patterns known, by name and class, and what a text must hold for each to match.
_TRIGGERS: dict[tuple[str, str], tuple[str, ...]] = {
    ("backtick", "markdown.inlinepatterns.BacktickInlineProcessor"): ("`",),
    ("escape", "markdown.inlinepatterns.EscapeInlineProcessor"): ("\\",),
    ("reference", "markdown.inlinepatterns.ReferenceInlineProcessor"): ("[",),
    ("link", "markdown.inlinepatterns.LinkInlineProcessor"): ("[",),
    ("image_link", "markdown.inlinepatterns.ImageInlineProcessor"): ("[",),
    ("image_reference", "markdown.inlinepatterns.ImageReferenceInlineProcessor"): ("[",),
    ("short_reference", "markdown.inlinepatterns.ShortReferenceInlineProcessor"): ("[",),
    ("short_image_ref", "markdown.inlinepatterns.ShortImageReferenceInlineProcessor"): ("[",),
    ("autolink", "markdown.inlinepatterns.AutolinkInlineProcessor"): ("<",),
    ("automail", "markdown.inlinepatterns.AutomailInlineProcessor"): ("<",),
    ("linebreak", "markdown.inlinepatterns.SubstituteTagInlineProcessor"): ("  \n",),
    ("html", "markdown.inlinepatterns.HtmlInlineProcessor"): ("<",),
    ("html", "mkdocs_claude_transcripts.render.guard._GuardedHtml"): ("<",),
    ("entity", "markdown.inlinepatterns.HtmlInlineProcessor"): ("&",),
    ("not_strong", "markdown.inlinepatterns.SimpleTextInlineProcessor"): ("*", "_"),
    ("em_strong", "markdown.inlinepatterns.AsteriskProcessor"): ("*",),
    ("em_strong2", "markdown.inlinepatterns.UnderscoreProcessor"): ("_",),
    ("backtick", "pymdownx.inlinehilite.InlineHilitePattern"): ("`",),
    ("emoji", "pymdownx.emoji.EmojiPattern"): (":",),
    ("keys", "pymdownx.keys.KeysPattern"): ("+",),
    ("keys-custom", "pymdownx.keys.KeysPattern"): ("+",),
    ("footnote", "markdown.extensions.footnotes.FootnoteInlineProcessor"): ("[",),
    ("arithmatex-inline", "pymdownx.arithmatex.InlineArithmatexPattern"): ("$", "\\"),
    # pymdownx.smartsymbols, a second pass of inline patterns of its own (after the first).
    ("smart-trademark", _SMART): ("(tm)",),
    ("smart-copyright", _SMART): ("(c)",),
    ("smart-registered", _SMART): ("(r)",),
    ("smart-plus-minus", _SMART): ("+/-",),
    ("smart-arrows", _SMART): ("-->", "<--"),
    ("smart-not-equal", _SMART): ("=/=",),
    ("smart-fractions", _SMART): ("/",),
    ("smart-ordinal-numbers", _SMART): ("1st", "2nd", "3rd", *(f"{digit}th" for digit in range(10))),
    ("smart-care-of", _SMART): ("c/o",),
}
# One pattern for the marks of emphasis, given their characters (Python-Markdown's
# since 3.11; pymdownx's, which tilde, caret and mark give theirs too).
_DELIMITERS = {
    ("em_strong", "markdown.inlinepatterns.DelimiterProcessor"),
    ("delimiter", "pymdownx.delimiterprocessor.DelimiterProcessor"),
}
# Processors after this one that do the same with marked text as with any other.
_AFTER = frozenset({
    "inline", "prettify", "unescape", "toc", "attr_list", "ct_link_guard",
    "mkdocs_extract_anchors", "mkdocs_extract_title", "relpath", "footnote-duplicate",
})  # fmt: skip
_ABBR = "markdown.extensions.abbr.AbbrTreeprocessor"  # passes marked text over: known when it has nothing to do


class PlainText(Treeprocessor):
    def run(self, root: etree.Element) -> None:
        if not getattr(self.md, "ct_guard", False):
            return
        holds = _finder(self.md)
        if holds is None:
            return
        for element in root.iter():
            text, tail = element.text, element.tail
            if text and type(text) is str and not holds(text):
                element.text = AtomicString(text)
            if tail and type(tail) is str and not holds(tail):
                element.tail = AtomicString(tail)


def _finder(md: Markdown) -> Callable[[str], re.Match[str] | None] | None:
    """What finds, in a text, a character an inline pattern may start from; None
    where a pattern or a later processor is not known."""
    triggers = _triggers(md.inlinePatterns)
    processors = getattr(md.treeprocessors, "_priority", None)
    if triggers is None or processors is None:
        return None
    for item in processors:
        if item.priority >= PRIORITY or item.name in _AFTER:
            continue
        processor = md.treeprocessors[item.name]
        if _name(processor) == _ABBR and not getattr(processor, "abbrs", True):
            continue  # no abbreviation on this page
        more = _triggers(processor.inlinePatterns) if isinstance(processor, InlineProcessor) else None
        if more is None:
            return None
        triggers |= more
    return _pattern(frozenset(triggers)).search


def _triggers(patterns: Registry) -> set[str] | None:
    """What a text must hold for one of ``patterns`` to match; None where one is not known."""
    items = getattr(patterns, "_priority", None)  # (a registry gives its items' names only so)
    if items is None:
        return None
    triggers: set[str] = set()
    for item in items:
        pattern = patterns[item.name]
        kind = (item.name, _name(pattern))
        known = _delimiters(pattern) if kind in _DELIMITERS else _TRIGGERS.get(kind)
        if known is None:
            return None
        triggers.update(known)
    return triggers


def _name(value: object) -> str:
    return f"{type(value).__module__}.{type(value).__qualname__}"


def _delimiters(pattern: object) -> tuple[str, ...] | None:
    delimiters = getattr(pattern, "delimiters", None)
    if not isinstance(delimiters, dict) or not all(isinstance(d, str) and len(d) == 1 for d in delimiters):
        return None
    return tuple(delimiters)


@functools.lru_cache(maxsize=8)
def _pattern(triggers: frozenset[str]) -> re.Pattern[str]:
    return re.compile("|".join(re.escape(trigger) for trigger in sorted(triggers)) or "(?!)")
