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
* **Whole pages from the cache.** A page the theme's template would write as it
  did before is written from the cache (``outputs.py``); the others can be put
  through the template, and their search entries made, by worker processes before
  MkDocs' loop reaches them (``context_ahead``, ``parallel.py``).
* **In sections.** A page that changed is rendered in the sections whose Markdown
  did: the top of a conversation that goes on, the messages added to its last page
  (``rendering.py``).
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
from mkdocs.plugins import get_plugin_logger
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page
from mkdocs.structure.toc import TableOfContents
from mkdocs.utils import meta

from . import outputs
from .cache import Cache, CachedPage, Section, fingerprint
from .render.guard import hidden, shown
from .render.markdown import BREAK, OUTPUT_END, OUTPUT_START, TITLED
from .rendering import WarningCount, render
from .search import Spool
from .toc import toc_from_json, toc_to_json

log = get_plugin_logger("claude-transcripts")

_TAG = re.compile(r"<(?!/?h[1-6][\s>])[^>]*>")
# A heading's permalink (the toc extension's "¶"), which Material's index leaves out
# of the title it shows; once the tags are gone, it could not tell it from the title.
_PERMALINK = re.compile(r"<a [^>]*\bclass=\"headerlink\"[^>]*>.*?</a>", re.DOTALL)
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
    sections: list[Section] | None = None  # of its HTML, once rendered
    template: str | None = None  # its own template, when its output may come from the cache
    output_key: str | None = None  # of its output, to keep once the template has written it


class Pages:
    """The transcript pages of one build (``ours``), through MkDocs' page events."""

    def __init__(self, cache: Cache, markdown_settings: str, search_tool_output: bool, html_wanted: bool, others_read: bool) -> None:
        self.cache = cache
        # Other plugins read pages' Markdown (on_page_markdown): the directives of theirs
        # a transcript page holds are hidden from them.
        self.others_read = others_read
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
        self._site: str | None = None  # what of the site the template writes, when outputs are kept

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

    def hide_directives(self, markdown: str, page: Page) -> str:
        """First of the plugins: the other plugins see no directive of theirs in a
        transcript page (``render.guard.hidden``), where there are others that read its
        Markdown; ``markdown`` shows them again."""
        return hidden(markdown) if self.others_read and page.file.src_uri in self.ours else markdown

    def markdown(self, markdown: str, page: Page) -> str:
        """Last of the plugins: what is rendered is what the other plugins made of it."""
        if page.file.src_uri not in self.ours:
            return markdown
        if (written := shown(markdown)) is not markdown:
            markdown = page.markdown if written == page.markdown else written
        # As read (page.markdown is replaced once all plugins are done), its digest is known.
        unchanged = markdown is page.markdown and page.file.src_uri in self._read
        digest = self.digests.get(page.file.src_uri) if unchanged else None
        state = self._states[page.file.src_uri] = _State(self.cache.page_key(markdown, page.url, self.markdown_settings, digest))
        self.cache.keep(self.cache.url_key(page.url, self.markdown_settings))
        state.cached = self.cache.load_page(state.key)
        if state.cached is None:
            state.warnings = WarningCount()
            logging.getLogger("mkdocs").addHandler(state.warnings)
            page.render = functools.partial(self._render, page, state)  # type: ignore[method-assign]
            return markdown
        page.render = functools.partial(_rendered_before, page)  # type: ignore[method-assign]
        return ""

    def _render(self, page: Page, state: _State, config: MkDocsConfig, files: Files) -> None:
        state.sections = render(page, config, files, self.cache, self.markdown_settings)

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
            html = self._read_kept(self.cache.html_path(state.key), page, state)
        elif state.warnings is not None:
            logging.getLogger("mkdocs").removeHandler(state.warnings)
            if state.warnings.count:
                return html  # not kept: rendered again, and warns again, next time
            anchors = sorted(page.present_anchor_ids or ())
            self.cache.store_html(
                state.key, html, toc_to_json(page.toc), anchors, state.sections, page.url, self.markdown_settings, self.search_text(html)
            )
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
            page.content = state.shown = self._read_kept(state.path, page, state)

    def _read_kept(self, path: str, page: Page, state: _State) -> str:
        """A page's HTML as kept on disk; where its bytes were damaged there (a disk's
        fault, a tool that wrote into the cache), as it can be read, with a warning, and
        rendered again by the next build."""
        try:
            with open(path, encoding="utf-8") as handle:
                return handle.read()
        except UnicodeDecodeError:
            log.warning(f"{page.file.src_uri}: its HTML in the cache ({path}) is damaged: shown as it can be read, rendered again by the next build")
            if state.in_cache:
                self.cache.forget_page(state.key)
            with open(path, encoding="utf-8", errors="replace") as handle:
                return handle.read()

    def search_view(self, page: Page) -> None:
        """Before the search plugin reads the page: its text alone (or nothing, when
        the page is indexed here and its entries are known)."""
        state = self._states.get(page.file.src_uri)
        if state is None or not page.content:
            return
        same = state.in_cache and page.content is state.shown  # no plugin changed it
        state.full = page.content
        setting = self._indexed_here(page)
        page.content, entries = self._search_entries(page, state, same, setting)
        if setting is not None and entries is not None:
            self.spool.add(entries)
            state.search_meta, state.excluded = page.meta.get("search"), True
            page.meta["search"] = {**setting, "exclude": True}

    def _indexed_here(self, page: Page) -> dict[str, Any] | None:
        """The page's own ``search`` setting, when the page is indexed here."""
        setting = page.meta.get("search")
        setting = setting if isinstance(setting, dict) else {}
        return setting if self.spool is not None and not setting.get("exclude") else None

    def _search_entries(self, page: Page, state: _State, same: bool, setting: dict[str, Any] | None) -> tuple[str, str | None]:
        """The text the search index is given of the page (``page.content``, which
        ``same`` says is the HTML of the cache), and its entries when it is indexed
        here (``setting``); both from the cache when known."""
        spool = self.spool if setting is not None else None
        # The entries of a page indexed before, from the same text, are known.
        key = fingerprint(spool.settings, state.key, page.url, page.title, toc_to_json(page.toc), page.meta) if spool and same else None
        entries = self.cache.load_entries(key) if key else None
        text = "" if entries is not None else self.cache.load_search_text(state.key) if same else None
        if text is None:
            text = self.search_text(page.content or "")
        if spool and entries is None:
            page.content = text
            entries = spool.index(page)
            if key:
                self.cache.store_entries(key, entries)
        return text, entries

    def search_text(self, html: str) -> str:
        """What the search index is given of a page's HTML: its text, each message a
        section of its own under a heading of its title, which leads to it. A page is
        one message after another, without headings of its own: one section would
        hold all of it, and each search result would carry a whole page of text to
        the browser, which then took half a second a key to show results on a site
        of 12 MB of transcripts."""
        html = _PERMALINK.sub("", _without(html, self._unindexed)).replace(BREAK, "")  # a name stays one word
        return _TAG.sub(" ", TITLED.sub(r'<h2 id="\g<ident>">\g<title></h2>', html))

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

    def keep_outputs(self, env: Any, config: MkDocsConfig, nav: Any, files: Files, code: str) -> None:
        """Once every page is rendered, before the first is written: transcript pages
        get the template that writes them from the cache when it can. ``code``:
        ``outputs.code_digest(config)``."""
        self._site = outputs.site_digest(config, nav, files, env, code)
        outputs.templates(env)
        for src_uri, state in self._states.items():
            file = files.get_file_from_path(src_uri)
            if file is not None and file.page is not None:
                state.template = file.page.meta.get("template", "main.html")
                file.page.meta["template"] = outputs.PROXY

    def choose_template(self, context: dict[str, Any], page: Page) -> None:
        """Last of the plugins to see the context: the template's output from the
        cache, or the page's own template."""
        state = self._states.get(page.file.src_uri)
        if state is None or state.template is None or self._site is None:
            return
        content = page.content or ""
        # The HTML of the cache, as no plugin changed it, is known by its key.
        same = state.in_cache and content is state.shown
        state.shown = None
        key = outputs.page_digest(self._site, page, context, toc_to_json(page.toc), state.template, state.key if same else None)
        kept = self.cache.load_output(key)
        if kept is not None:
            before, after = kept
            page.content = before + content + after
            context[outputs.CHOICE] = outputs.KEPT
        else:
            context[outputs.CHOICE] = state.template
            state.output_key = key

    def keep_output(self, output: str, page: Page) -> bool:
        """First of the plugins to see a page's output: what the template wrote is
        kept; whether it was."""
        state = self._states.get(page.file.src_uri)
        kept = False
        if state is not None and state.output_key is not None:
            # Kept without the page's HTML, which the key holds: what comes before and
            # after it (a theme that writes something else of it is not kept).
            content = page.content or ""
            at = _find(output, content)
            if at >= 0:
                self.cache.store_output(state.output_key, output[:at], output[at + len(content) :])
                kept = True
            state.output_key = None
        return kept

    def unwritten(self, files: Files) -> list[Page]:
        """The pages whose template output is not in the cache, as far as can be told
        before the plugins see their context (see ``context_ahead``)."""
        found = []
        for src_uri, state in self._states.items():
            file = files.get_file_from_path(src_uri)
            page = file.page if file is not None else None
            if page is None or self._site is None or state.template is None or not state.in_cache:
                continue
            key = outputs.page_digest(self._site, page, {}, toc_to_json(page.toc), state.template, state.key)
            if not self.cache.has_output(key):
                found.append(page)
        return found

    def context_ahead(self, context: dict[str, Any], page: Page) -> bool:
        """A page's context as this plugin's steps leave it when the other plugins that
        see it only read it (the search plugins); whether its template's output is still
        to be kept. For writing pages ahead of MkDocs' loop, in a worker."""
        state = self._states.get(page.file.src_uri)
        if state is None:
            return False
        self.bring_back(page)
        setting = self._indexed_here(page)
        if state.shown and setting is not None:  # its search entries, for the build to find
            self._search_entries(page, state, state.in_cache, setting)
            page.content = state.shown
        self.choose_template(context, page)
        return state.output_key is not None

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
        self._site = None


def markdown_of(file: File) -> str:
    """The Markdown MkDocs hands to the plugins for a page generated with ``file``."""
    return meta.get_data(file.content_string)[0]


def _rendered_before(page: Page, config: MkDocsConfig, files: Files) -> None:
    """Stands in for ``page.render`` when the page's HTML comes from the cache."""
    del page.render  # the next build renders as usual
    page.content, page.toc, page.present_anchor_ids = "", TableOfContents([]), set()


def _find(text: str, part: str) -> int:
    """Where ``part`` is in ``text`` (-1: nowhere); found by its beginning first,
    which is much faster than looking for a long ``part`` whole."""
    at = text.find(part[:256])
    if at >= 0 and not text.startswith(part, at):
        at = text.find(part)
    return at


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
