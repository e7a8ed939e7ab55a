"""The transcript pages of a build, from their Markdown to their writing.

* **HTML from the cache.** A page whose Markdown was rendered before (the same
  Markdown, URL and Markdown settings) is not rendered again: its HTML, table of
  contents and anchors come from the cache, and MkDocs' Markdown renderer is not
  even set up for it. A page that is rendered goes into the cache.
* **Set aside.** MkDocs keeps the HTML of every page until it has written them all;
  a transcript page's HTML waits on disk instead, so that memory holds one page at
  a time. When no other plugin changed it, it waits where it already is, in the
  cache; otherwise in a file of its own.
* **A search view.** The search plugin is given the page's text alone: without tool
  output (unless ``search_tool_output``), the summary and the lines of facts, and
  without tags but headings, which split a page into sections of the index. Parsing
  tags is most of the time search indexing takes, and a transcript page has tens of
  thousands of them. The text is kept in the cache beside the HTML it came from.
  With Material's search plugin, the page is indexed right then, and its entries
  wait on disk (``search.py``).
"""

from __future__ import annotations

import functools
import logging
import os
import re
import shutil
import tempfile
from dataclasses import dataclass
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page
from mkdocs.structure.toc import TableOfContents
from mkdocs.utils import meta

from .cache import Cache, CachedPage
from .render.markdown import OUTPUT_END, OUTPUT_START
from .search import Spool
from .toc import toc_from_json, toc_to_json

_TAG = re.compile(r"<(?!/?h[1-6][\s>])[^>]*>")
# Never in the search index: the summary block (figures, not words anyone searches
# for) and the small lines of facts (usage, links between parts), which would fill
# the excerpts of search results.
_UNINDEXED = (('<details class="ct-overview">', "</details>"), ('<p class="ct-meta', "</p>"))


@dataclass
class _State:
    """Where one page is on its way."""

    key: str  # of its HTML in the cache
    cached: CachedPage | None = None  # its rendering, from the cache
    rendered: str | None = None  # the HTML the cache holds, to tell whether a plugin changed it
    path: str | None = None  # where its HTML waits to be written
    in_cache: bool = False  # it waits in the cache: what is made of it can be kept there
    shown: str | None = None  # the HTML brought back, to tell whether a plugin changed it
    full: str | None = None  # the whole HTML, while the search plugin reads the text
    search_meta: Any = None  # the page's own ``search`` setting, while it is set to exclude
    excluded: bool = False  # indexed here: the search plugin is told to pass over it
    warnings: WarningCount | None = None  # of MkDocs, while the page is rendered


class WarningCount(logging.Handler):
    """Counts the warnings logged while it is attached to a logger."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1


class Pages:
    """The transcript pages of one build (``ours``), through MkDocs' page events."""

    def __init__(self, cache: Cache, markdown_settings: str, search_tool_output: bool, html_wanted: bool) -> None:
        self.cache = cache
        # Other plugins read or change pages' HTML (on_page_content): a page from the
        # cache is given to them. If none does, its HTML is read once, for the template.
        self.html_wanted = html_wanted
        self.markdown_settings = markdown_settings
        self.ours: set[str] = set()  # their src_uris
        self.digests: dict[str, str] = {}  # src_uri -> digest of its Markdown, when known
        self._unindexed = _UNINDEXED if search_tool_output else (*_UNINDEXED, (OUTPUT_START, OUTPUT_END))
        self._states: dict[str, _State] = {}
        self.spool: Spool | None = None  # search entries, when the pages are indexed here
        self._read: set[str] = set()  # pages whose Markdown was read by read_source
        self._aside: str | None = None  # a folder for pages whose HTML is not the cache's
        self._set_aside = 0

    def key_ahead(self, file: File) -> str:
        """The key a page's HTML will likely have (before other plugins see its Markdown)."""
        digest = self.digests.get(file.src_uri)
        markdown = "" if digest else markdown_of(file)
        return self.cache.page_key(markdown, file.url, self.markdown_settings, digest)

    def read_source(self, page: Page) -> str | None:
        """Last of the plugins: a page's Markdown is the one in the cache, whose digest
        is known."""
        if page.file.src_uri not in self.ours:
            return None
        self._read.add(page.file.src_uri)
        return page.file.content_string

    def markdown(self, markdown: str, page: Page) -> str:
        """Last of the plugins: what is rendered is what the other plugins made of it."""
        if page.file.src_uri not in self.ours:
            return markdown
        # As read (page.markdown is replaced once all plugins are done), its digest is known.
        unchanged = markdown is page.markdown and page.file.src_uri in self._read
        digest = self.digests.get(page.file.src_uri) if unchanged else None
        state = self._states[page.file.src_uri] = _State(self.cache.page_key(markdown, page.url, self.markdown_settings, digest))
        state.cached = self.cache.load_page(state.key)
        if state.cached is None:
            state.warnings = WarningCount()
            logging.getLogger("mkdocs").addHandler(state.warnings)
            return markdown
        page.render = functools.partial(_rendered_before, page)  # type: ignore[method-assign]
        return ""

    def content(self, html: str, page: Page) -> str:
        """First of the plugins: the page's HTML from the cache, or into it."""
        state = self._states.get(page.file.src_uri)
        if state is None:
            return html
        if state.cached is not None:
            cached, state.cached = state.cached, None
            page.toc = toc_from_json(cached.toc)
            page.present_anchor_ids = set(cached.anchors)
            if not self.html_wanted:
                state.path, state.in_cache = self.cache.html_path(state.key), True
                return ""
            html = self.cache.read_html(state.key)
        elif state.warnings is not None:
            logging.getLogger("mkdocs").removeHandler(state.warnings)
            if state.warnings.count:
                return html  # not kept: rendered again, and warns again, next time
            self.cache.store_html(state.key, html, toc_to_json(page.toc), sorted(page.present_anchor_ids or ()))
        state.rendered = html
        return html

    def put_aside(self, html: str, page: Page) -> str:
        """Last of the plugins: the HTML waits on disk until MkDocs writes the page."""
        state = self._states.get(page.file.src_uri)
        if state is None:
            return html
        if state.path is not None:
            pass  # it waits in the cache already
        elif html is state.rendered:
            state.path, state.in_cache = self.cache.html_path(state.key), True
        else:
            if self._aside is None:
                self._aside = tempfile.mkdtemp(prefix="pages-", dir=self.cache.root)
            self._set_aside += 1
            state.path = os.path.join(self._aside, f"{self._set_aside}.html")
            with open(state.path, "w", encoding="utf-8") as handle:
                handle.write(html)
        state.rendered = None
        page.markdown = ""  # rendered: no longer needed
        return ""

    def bring_back(self, page: Page) -> None:
        state = self._states.get(page.file.src_uri)
        if state is not None and state.path is not None:
            with open(state.path, encoding="utf-8") as handle:
                page.content = state.shown = handle.read()

    def search_view(self, page: Page) -> None:
        """Before the search plugin reads the page: its text alone."""
        state = self._states.get(page.file.src_uri)
        if state is None or not page.content:
            return
        same = state.in_cache and page.content is state.shown  # no plugin changed it
        text = self.cache.load_search_text(state.key) if same else None
        if text is None:
            text = _TAG.sub(" ", _without(page.content, self._unindexed))
            if same:
                self.cache.store_search_text(state.key, text)
        state.full, state.shown = page.content, None
        page.content = text
        setting = page.meta.get("search")
        setting = setting if isinstance(setting, dict) else {}
        if self.spool is not None and not setting.get("exclude"):
            self.spool.add(page)
            state.search_meta, state.excluded = page.meta.get("search"), True
            page.meta["search"] = {**setting, "exclude": True}

    def full_view(self, page: Page) -> None:
        """Once the search plugin has read the page: its HTML again, for the template."""
        state = self._states.get(page.file.src_uri)
        if state is not None and state.full is not None:
            page.content, state.full = state.full, None
        if state is not None and state.excluded:
            if state.search_meta is None:
                del page.meta["search"]
            else:
                page.meta["search"] = state.search_meta
            state.excluded = False

    def written(self, page: Page) -> None:
        if self._states.pop(page.file.src_uri, None) is not None:
            page.content = ""  # written: its HTML can go

    def finish(self, site_dir: str) -> None:
        """At the end of a build, once the search plugin has written its index: the
        entries of the pages indexed here go into it, and what was set aside goes."""
        if self.spool is not None:
            self.spool.write_into(site_dir)
        self.abandon()

    def abandon(self) -> None:
        """What a build leaves behind goes (at its end, or when it fails)."""
        for state in self._states.values():
            if state.warnings is not None:
                logging.getLogger("mkdocs").removeHandler(state.warnings)
        if self.spool is not None:
            self.spool.close()
            self.spool = None
        if self._aside:
            shutil.rmtree(self._aside, ignore_errors=True)
        self._aside = None
        self._states, self._read = {}, set()


def markdown_of(file: File) -> str:
    """The Markdown MkDocs hands to the plugins for a page generated with ``file``."""
    return meta.get_data(file.content_string)[0]


def _rendered_before(page: Page, config: MkDocsConfig, files: Files) -> None:
    """Stands in for ``page.render`` when the page's HTML comes from the cache."""
    del page.render  # the next build renders as usual
    page.content, page.toc, page.present_anchor_ids = "", TableOfContents([]), set()


def _without(text: str, spans: tuple[tuple[str, str], ...]) -> str:
    """``text`` without what lies between each start and end marker of ``spans``,
    markers included (found with ``str.find``: a lazy regex is slow on long pages)."""
    for start, end in spans:
        kept: list[str] = []
        at = 0
        while (begin := text.find(start, at)) != -1:
            close = text.find(end, begin + len(start))
            if close == -1:
                break
            kept.append(text[at:begin])
            at = close + len(end)
        kept.append(text[at:])
        text = "".join(kept)
    return text
