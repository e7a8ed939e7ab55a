"""Rendering a transcript page, in sections: only those that changed.

The renderer writes a page in sections, a ``SECTION`` line between two: its top
(title, span, summary, parts), groups of messages, its links to the next part. The
top of a long conversation's first page changes whenever the conversation goes on,
and so does its last page's last section; the other sections do not. A page is
rendered with MkDocs' own ``Page.render``, its top and the sections whose Markdown
the cache does not hold from the page last rendered at its URL; the line between
two sections is kept in the HTML, which is cut there into the HTML of each, and the
page's HTML is made of them. A section with a heading of the table of contents is
always rendered (the table of contents comes from the rendering), and so is the top;
the anchors of a section taken from the cache are the ids in its HTML.

Sections are rendered the same whatever comes before and after them: each follows
the line between two, which ends whatever block came before, and a transcript's
text makes no heading, footnote or link definition that would reach another. Where
the line is not in the HTML (``pymdownx.striphtml`` takes comments out), the page is
rendered whole.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import get_plugin_logger
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page
from mkdocs.structure.toc import AnchorLink

from .cache import Cache, Section, text_digest
from .render.guard import SECTION
from .render.markdown import fence, meta

log = get_plugin_logger("claude-transcripts")
TOO_DEEP = "This part of the page nests its Markdown too deep to be shown as such; here is its text."

_LINE = f"\n{SECTION}\n"
# Ids, and names of links, in a section's HTML (what MkDocs counts as anchors), each
# found by its own literal beginning (much faster than one pattern for both), then
# kept where it is inside a tag: "id=" in a text (an output that prints HTML) is not.
_ID = re.compile(r"""(?<![\w-])id=["']([^"'<>]+)["']""")
_NAME = re.compile(r"""(?<![\w-])name=["']([^"'<>]+)["']""")


class WarningCount(logging.Handler):
    """Counts the warnings logged while it is attached to a logger."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1


@dataclass
class _Part:
    text: str  # its Markdown
    digest: str
    html: str | None = None  # from the cache, or once rendered
    kept: bool = False  # its HTML is the cache's


def render(page: Page, config: MkDocsConfig, files: Files, cache: Cache, settings: str) -> list[Section] | None:
    """``Page.render``, a page written in sections in those the cache lacks; the
    sections of its HTML, to keep in the cache with it (None: not in sections).
    ``settings``: the site's Markdown settings."""
    page.__dict__.pop("render", None)  # the next build renders as usual
    markdown = page.markdown or ""
    if _LINE not in markdown:
        _rendered(page, config, files, [markdown])
        return None
    parts = _parts(markdown)
    kept = cache.load_sections(page.url, settings)
    for part in parts[1:]:
        part.html = kept.get(part.digest)
        part.kept = part.html is not None
    rendered = [part for part in parts if not part.kept]
    html = _rendered(page, config, files, [part.text for part in rendered])
    if len(html) != len(rendered):  # not cut where it should be: the page rendered whole
        whole = html if len(rendered) == len(parts) else _rendered(page, config, files, [part.text for part in parts])
        page.content = "\n".join(whole).replace(SECTION, "")
        return None
    for part, text in zip(rendered, html):
        part.html = text
    anchors = set(page.present_anchor_ids or ())
    for part in parts:
        if part.kept:  # its anchors, as MkDocs finds them: ids (and names) in its HTML
            anchors.update(_anchors(part.html or ""))
    page.content = "\n".join(part.html or "" for part in parts)
    page.present_anchor_ids = anchors
    headed = {_holding(parts, item.id) for item in _items(page.toc)}
    return [Section("" if index == 0 or index in headed else part.digest, len(part.html or "")) for index, part in enumerate(parts)]


def to_render(markdown: str, kept: set[str]) -> int:
    """How much of a page's Markdown ``render`` renders, where the page last rendered
    at its URL had the sections of digests ``kept`` (``Cache.section_digests``): its
    top and the sections that are not among them; all of it, where it is not in
    sections."""
    if _LINE not in markdown:
        return len(markdown)
    top, *sections = _parts(markdown)
    return len(top.text) + sum(len(part.text) for part in sections if part.digest not in kept)


def _parts(markdown: str) -> list[_Part]:
    """A page's Markdown in sections: its top, then each known by its digest."""
    top, *sections = (text.strip("\n") for text in markdown.split(_LINE))
    return [_Part(top, ""), *(_Part(text, text_digest(text)) for text in sections)]


def _anchors(html: str) -> set[str]:
    """The ids in the tags of ``html``, and the names in its links (``<a name>``)."""
    found = set()
    for pattern, links_only in ((_ID, False), (_NAME, True)):
        for match in pattern.finditer(html):
            tag = html.rfind("<", 0, match.start())
            if tag < 0 or html.rfind(">", tag, match.start()) >= 0:
                continue  # in a text
            if links_only and not (html.startswith("a", tag + 1) and html[tag + 2 : tag + 3].isspace()):
                continue
            found.add(match.group(1))
    return found


def _items(toc: Iterable[AnchorLink]) -> Iterator[AnchorLink]:
    for item in toc:
        yield item
        yield from _items(item.children)


def _holding(parts: list[_Part], anchor: str) -> int:
    """The section whose HTML holds the element with id ``anchor`` (0 when none does)."""
    for index, part in enumerate(parts):
        html = part.html or ""
        if f'id="{anchor}"' in html or f"id='{anchor}'" in html:
            return index
    return 0


def _rendered(page: Page, config: MkDocsConfig, files: Files, sections: list[str]) -> list[str]:
    """The HTML of ``sections``, rendered together as ``page``.

    Python-Markdown follows each level of nesting (emphasis in emphasis, a list in a
    list) one level deeper in Python's stack, and a message nesting a thousand deep
    runs out of it: the sections where it does are shown as text, with a warning, and
    the rest of the page as usual."""
    try:
        return _joined(page, config, files, sections)
    except RecursionError:
        pass
    shown = []
    for section in sections:
        blocks = []
        for block in _blocks(section):
            try:
                _joined(page, config, files, [block])
                blocks.append(block)
            except RecursionError:
                log.warning(f"{page.file.src_uri}: Markdown nested deeper than Python-Markdown can follow; a part of the page is shown as text")
                blocks.append("\n".join([*meta(TOO_DEEP), "", *fence(block)]))
        shown.append("\n\n".join(blocks))
    return _joined(page, config, files, shown)


def _blocks(markdown: str) -> list[str]:
    """``markdown`` cut before each block that starts a line after a blank line (on a
    transcript page, a message)."""
    blocks: list[list[str]] = [[]]
    previous = ""
    for line in markdown.split("\n"):
        if line[:1].strip() and not previous.strip() and blocks[-1]:
            blocks.append([])
        blocks[-1].append(line)
        previous = line
    return ["\n".join(block).strip("\n") for block in blocks]


def _joined(page: Page, config: MkDocsConfig, files: Files, sections: list[str]) -> list[str]:
    """``Page.render`` of ``sections`` joined by the line between two; the HTML cut there."""
    markdown = page.markdown
    page.markdown = f"\n\n{SECTION}\n\n".join(sections)
    try:
        Page.render(page, config, files)
    finally:
        page.markdown = markdown
    return (page.content or "").split(_LINE)
