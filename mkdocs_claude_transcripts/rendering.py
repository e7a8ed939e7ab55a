"""Rendering a transcript page, the first page of a long conversation in two.

That page begins with what it says of the whole conversation (its span, summary and
parts), which changes whenever the conversation goes on, while its messages do not.
The renderer puts ``BODY`` between the two; they are rendered apart, with MkDocs'
own ``Page.render``, and the HTML of the messages is kept in the cache by itself, so
that a rebuild after the conversation grew renders the top of the page alone.
"""

from __future__ import annotations

import logging

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page
from mkdocs.structure.toc import TableOfContents

from .cache import Cache
from .render.guard import BODY, MARKER
from .toc import toc_from_json, toc_to_json

_BODY = f"\n{BODY}\n"


class WarningCount(logging.Handler):
    """Counts the warnings logged while it is attached to a logger."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1


def render(page: Page, config: MkDocsConfig, files: Files, cache: Cache, settings: str) -> None:
    """``Page.render``, the first page of a long conversation in two."""
    if in_two(page.markdown or ""):
        render_in_two(page, config, files, cache=cache, settings=settings)
    else:
        page.render(config, files)


def in_two(markdown: str) -> bool:
    """Whether a page is rendered in two."""
    return _BODY in markdown


def body_key(markdown: str, url: str, cache: Cache, settings: str) -> str:
    """The key in the cache of the HTML of what comes after ``BODY``."""
    return cache.page_key(_halves(markdown)[1], url, settings)


def render_in_two(page: Page, config: MkDocsConfig, files: Files, cache: Cache, settings: str) -> None:
    """Render what comes before ``BODY`` and what comes after it apart, the latter's
    HTML from the cache when it was rendered before (``settings``: the site's
    Markdown settings)."""
    page.__dict__.pop("render", None)  # the next build renders as usual
    markdown = page.markdown or ""
    head, body = _halves(markdown)
    key = cache.page_key(body, page.url, settings)
    kept = cache.load_page(key)
    if kept is not None:
        html, toc, anchors = cache.read_html(key), toc_from_json(kept.toc), set(kept.anchors)
    else:
        warnings = WarningCount()
        logging.getLogger("mkdocs").addHandler(warnings)
        try:
            page.markdown = body
            Page.render(page, config, files)
        finally:
            logging.getLogger("mkdocs").removeHandler(warnings)
        html, toc, anchors = page.content or "", page.toc, set(page.present_anchor_ids or ())
        if not warnings.count:
            cache.store_html(key, html, toc_to_json(toc), sorted(anchors))
    page.markdown = head
    Page.render(page, config, files)
    page.markdown = markdown
    page.content = f"{page.content}\n{html}"
    page.toc = _joined_toc(page.toc, toc)
    page.present_anchor_ids = set(page.present_anchor_ids or ()) | anchors


def _halves(markdown: str) -> tuple[str, str]:
    """What comes before ``BODY`` and what comes after it, which is guarded too."""
    at = markdown.index(_BODY)
    return markdown[: at + 1], f"{MARKER}\n\n{markdown[at + len(_BODY) :]}"


def _joined_toc(first: TableOfContents, then: TableOfContents) -> TableOfContents:
    """The table of contents of a page rendered in two: the headings of the second
    part go under the last heading of the first that is above them."""
    items = list(first)
    for item in then:
        siblings = items
        while siblings and siblings[-1].level < item.level:
            siblings = siblings[-1].children
        siblings.append(item)
    return TableOfContents(items)
