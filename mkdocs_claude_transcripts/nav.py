"""Place sessions in MkDocs' navigation: one entry per session, its subagents under it.

Two cases. With no ``nav:`` in mkdocs.yml, MkDocs makes a section of each
session's folder of pages; ``restructure`` turns that section into the
session's own entry and puts sessions in date order. With an explicit ``nav:``,
``rewrite_config`` replaces each transcript path listed there (``.jsonl``) by
the session's pages before MkDocs reads it.
"""

from __future__ import annotations

import html
from datetime import datetime, timezone
from typing import Any

from mkdocs.structure.nav import Navigation, Section
from mkdocs.structure.pages import Page

from .listing import NavEntry


def rewrite_config(items: Any, entries: dict[str, NavEntry]) -> Any:
    """Return a copy of a ``nav:`` config with ``.jsonl`` references expanded."""
    if isinstance(items, list):
        return [rewrite_config(item, entries) for item in items]
    if isinstance(items, str):
        entry = entries.get(items.lstrip("/"))
        return _config_entry(entry, None) if entry else items
    if isinstance(items, dict) and len(items) == 1:
        ((title, value),) = items.items()
        if isinstance(value, str) and value.lstrip("/") in entries:
            return _config_entry(entries[value.lstrip("/")], title)
        return {title: rewrite_config(value, entries)}
    return items


def _config_entry(entry: NavEntry, title: str | None) -> Any:
    if not entry.children:
        return {title: entry.page} if title else entry.page
    return {title or _escaped(entry.title): [entry.page] + [_config_entry(child, None) for child in entry.children]}


def _escaped(title: str) -> str:
    """Themes print nav titles as HTML: a session's title, from its transcript, is escaped."""
    return html.escape(title, quote=True)


def restructure(nav: Navigation, entries: dict[str, NavEntry], started: dict[str, datetime | None]) -> Navigation:
    """Turn the sections MkDocs made of session folders into session entries (auto nav)."""
    pages = {page.file.src_uri: page for page in nav.pages}
    items = _walk(nav.items, entries, started, pages)
    _link(items, None)
    ordered = list(_pages(items))
    for previous, current in zip([None, *ordered], ordered):
        current.previous_page = previous
        if previous is not None:
            previous.next_page = current
    if ordered:
        ordered[-1].next_page = None
    nav.items, nav.pages = items, ordered
    return nav


def _walk(items: list[Any], entries: dict[str, NavEntry], started: dict[str, datetime | None], pages: dict[str, Page]) -> list[Any]:
    out: list[Any] = []
    dates: dict[int, datetime] = {}
    for item in items:
        if isinstance(item, Section):
            session = next((c.file.src_uri for c in item.children if isinstance(c, Page) and c.file.src_uri in entries), None)
            if session is not None:
                ours = _owned(entries[session])
                rest = [c for c in item.children if not (isinstance(c, Page) and c.file.src_uri in ours)]
                built = _item(entries[session], pages)
                if built is None:
                    continue
                if rest and isinstance(built, Section):
                    built.children += _walk(rest, entries, started, pages)
                elif rest:
                    built = Section(_escaped(entries[session].title), [built, *_walk(rest, entries, started, pages)])
                when = started.get(session)
                if when is not None:
                    dates[len(out)] = when if when.tzinfo else when.replace(tzinfo=timezone.utc)
                out.append(built)
                continue
            item.children = _walk(item.children, entries, started, pages)
        out.append(item)
    return _by_date(out, dates)


def _by_date(items: list[Any], dates: dict[int, datetime]) -> list[Any]:
    """Put the sessions among ``items`` in date order, in the slots they already hold."""
    slots = sorted(dates)
    ordered = sorted(slots, key=lambda i: dates[i])
    result = list(items)
    for slot, source in zip(slots, ordered):
        result[slot] = items[source]
    return result


def _owned(entry: NavEntry) -> set[str]:
    return {entry.page}.union(*(_owned(child) for child in entry.children))


def _item(entry: NavEntry, pages: dict[str, Page]) -> Any:
    page = pages.get(entry.page)
    if not entry.children:
        return page
    children = [page] + [_item(child, pages) for child in entry.children]
    return Section(_escaped(entry.title), [c for c in children if c is not None])


def _link(items: list[Any], parent: Section | None) -> None:
    for item in items:
        item.parent = parent
        if isinstance(item, Section):
            _link(item.children, item)


def _pages(items: list[Any]):
    for item in items:
        if isinstance(item, Page):
            yield item
        elif isinstance(item, Section):
            yield from _pages(item.children)
