"""On a transcript page, text that no inline pattern can match is passed over by
Python-Markdown's inline processor.

That processor tries each of its patterns on every piece of text of a page: a
paragraph, a list item, a table cell, a block's title. Transcript pages hold
thousands of them, most without any of the characters a pattern starts from (a
backtick, a bracket, an asterisk...), and the tries took a third of the time
Python-Markdown spent on such pages. Text holding none of them is marked as
Markdown marks what it leaves alone (``AtomicString``); the HTML is the same.

This is done only where every inline pattern of the page's Markdown is one whose
characters are known (those of Python-Markdown, the marks of pymdownx.betterem,
tilde, caret and mark, pymdownx's emoji, keys and inlinehilite), and no
processor that comes after would treat marked text otherwise (Python-Markdown's
``abbr`` does): with another extension's pattern (smarty's dashes, magiclink's
bare addresses), nothing is marked.
"""

from __future__ import annotations

import functools
import re
import xml.etree.ElementTree as etree
from collections.abc import Callable

from markdown import Markdown
from markdown.treeprocessors import Treeprocessor
from markdown.util import AtomicString

PRIORITY = 20.5  # just before the inline processor (20)

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
    "mkdocs_extract_anchors", "mkdocs_extract_title", "relpath",
})  # fmt: skip


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
    # (Python-Markdown's registries give their items' names and priorities only so.)
    patterns, processors = getattr(md.inlinePatterns, "_priority", None), getattr(md.treeprocessors, "_priority", None)
    if patterns is None or processors is None:
        return None
    triggers: set[str] = set()
    for item in patterns:
        pattern = md.inlinePatterns[item.name]
        kind = (item.name, f"{type(pattern).__module__}.{type(pattern).__qualname__}")
        known = _delimiters(pattern) if kind in _DELIMITERS else _TRIGGERS.get(kind)
        if known is None:
            return None
        triggers.update(known)
    if not {item.name for item in processors if item.priority < PRIORITY} <= _AFTER:
        return None
    return _pattern(frozenset(triggers)).search


def _delimiters(pattern: object) -> tuple[str, ...] | None:
    delimiters = getattr(pattern, "delimiters", None)
    if not isinstance(delimiters, dict) or not all(isinstance(d, str) and len(d) == 1 for d in delimiters):
        return None
    return tuple(delimiters)


@functools.lru_cache(maxsize=8)
def _pattern(triggers: frozenset[str]) -> re.Pattern[str]:
    return re.compile("|".join(re.escape(trigger) for trigger in sorted(triggers)) or "(?!)")
