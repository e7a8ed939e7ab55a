"""Transcript pages in Material's search index, without the index in memory.

Material's search plugin keeps every entry of the index in memory until the end of
the build, then writes them all at once: on a site of transcripts, that is most of
the build's memory, and it grows with the site. Transcript pages are indexed here
instead, with the search plugin's own code (the same sections, titles, text and
fields), one page at a time; their entries wait in a file, and are added to the
index the search plugin writes, at the end of the build. Material's plugin is told
to pass over these pages, through the page's ``search.exclude``.

Where Material's search plugin is not used, or rebuilds one page at a time
(``mkdocs serve --dirtyreload``), the search plugin indexes the pages itself.
"""

from __future__ import annotations

import json
import os
import tempfile
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.pages import Page

from .cache import package_version


def material_search(config: MkDocsConfig) -> Any | None:
    """Material's search plugin, when it is used and indexes every page."""
    try:
        from material.plugins.search.plugin import SearchPlugin
    except ImportError:
        return None
    for plugin in config.plugins.values():
        if isinstance(plugin, SearchPlugin) and plugin.config.enabled and not getattr(plugin, "is_dirty", False):
            return plugin
    return None


class Spool:
    """The search entries of transcript pages, kept in a file until the index is written."""

    def __init__(self, search: Any, folder: str) -> None:
        os.makedirs(folder, exist_ok=True)
        handle, self.path = tempfile.mkstemp(prefix="search-", suffix=".jsonl", dir=folder)
        self._out = os.fdopen(handle, "w", encoding="utf-8")
        self._index = type(search.search_index)(**search.search_index.config)
        self.count = 0
        # What decides the entries a page gives, besides the page.
        self.settings = (package_version("mkdocs-material") or "", search.search_index.config)

    def index(self, page: Page) -> str:
        """The entries of ``page`` as Material makes them, a line each; Material's
        plugin passes over the page."""
        self._index.add_entry_from_context(page)
        lines = "".join(_json(entry) + "\n" for entry in self._index.entries)
        self._index.entries.clear()
        return lines

    def add(self, entries: str) -> None:
        """Entries made by ``index``, to add to the index."""
        self._out.write(entries)
        self.count += entries.count("\n")

    def write_into(self, site_dir: str) -> None:
        """Add the entries to the index Material's plugin wrote: ``{"config":…,"docs":[…]}``."""
        self._out.close()
        index = os.path.join(site_dir, "search", "search_index.json")
        if self.count and os.path.exists(index):
            with open(index, encoding="utf-8") as handle:
                written = handle.read()
            temporary = f"{index}.{os.getpid()}.tmp"  # made as any file of the site is (not 0600)
            with open(temporary, "w", encoding="utf-8") as out, open(self.path, encoding="utf-8") as entries:
                if written.endswith("]}"):  # the docs come last: the entries are streamed in
                    head = written[:-2]
                    out.write(head)
                    separator = "" if head.endswith("[") else ","
                    for line in entries:
                        out.write(separator + line.rstrip("\n"))
                        separator = ","
                    out.write("]}")
                else:
                    data = json.loads(written)
                    data["docs"] += [json.loads(line) for line in entries]
                    out.write(_json(data))
            os.replace(temporary, index)
        self.close()

    def close(self) -> None:
        if not self._out.closed:
            self._out.close()
        if os.path.exists(self.path):
            os.unlink(self.path)


def _json(entry: dict[str, Any]) -> str:
    """An entry as Material's plugin writes it."""
    return json.dumps(entry, separators=(",", ":"), default=str)
