"""Place sessions in MkDocs' navigation: one entry per session, its subagents under it.

Two cases. With no ``nav:`` in mkdocs.yml, MkDocs makes a section of each
session's folder of pages; ``restructure`` turns that section into the
session's own entry and puts sessions in date order. With an explicit ``nav:``,
``rewrite_config`` replaces each transcript path listed there (``.jsonl``) by
the session's pages before MkDocs reads it.

A folder of hundreds of sessions, or a session of hundreds of subagents, would be a
list of hundreds of entries in the nav, which Material writes into every page under
it, even with ``navigation.prune``: the pages would grow with the square of their
number. Past ``group`` entries (option ``nav_group_size``), such a list is put in
groups of that many, oldest first, each a section of the nav: a page then carries
its own group and the groups' titles.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from datetime import datetime, timezone
from typing import Any

from mkdocs.structure.nav import Navigation, Section
from mkdocs.structure.pages import Page

from .listing import NavEntry


def rewrite_config(items: Any, entries: dict[str, NavEntry], group: int = 0) -> Any:
    """Return a copy of a ``nav:`` config with ``.jsonl`` references expanded."""
    if isinstance(items, list):
        return [rewrite_config(item, entries, group) for item in items]
    if isinstance(items, str):
        entry = entries.get(items.lstrip("/"))
        return _config_entry(entry, None, group) if entry else items
    if isinstance(items, dict) and len(items) == 1:
        ((title, value),) = items.items()
        if isinstance(value, str) and value.lstrip("/") in entries:
            return _config_entry(entries[value.lstrip("/")], title, group)
        return {title: rewrite_config(value, entries, group)}
    return items


def _config_entry(entry: NavEntry, title: str | None, group: int) -> Any:
    if not entry.children:
        return {title: entry.page} if title else entry.page
    children = [_config_entry(child, None, group) for child in entry.children]
    grouped = _grouped(children, group, _numbered("Subagents"), lambda name, members: {name: members})
    return {title or _escaped(entry.title): [entry.page, *grouped]}


def _grouped(items: list[Any], size: int, name: Callable[[list[Any], int], str], make: Callable[[str, list[Any]], Any]) -> list[Any]:
    """``items`` in groups of ``size`` (``make`` given each group's name and items;
    ``name`` given the items and the index of the first), or as they are when there are
    no more than ``size`` of them (or ``size`` is 0, or less)."""
    if size < 1 or len(items) <= size:
        return items
    groups, seen = [], set()
    for start in range(0, len(items), size):
        members = items[start : start + size]
        title = name(members, start)
        if title in seen:  # two groups of one day
            title = f"{title} ({_numbers(members, start)})"
        seen.add(title)
        groups.append(make(title, members))
    return groups


def _numbered(kind: str) -> Callable[[list[Any], int], str]:
    return lambda members, start: f"{kind} {_numbers(members, start)}"


def _numbers(members: list[Any], start: int) -> str:
    return f"{start + 1}" + (f"–{start + len(members)}" if len(members) > 1 else "")


def _escaped(title: str) -> str:
    """Themes print nav titles as HTML: a session's title, from its transcript, is escaped."""
    return html.escape(title, quote=True)


def restructure(
    nav: Navigation,
    entries: dict[str, NavEntry],
    started: dict[str, datetime | None],
    group: int = 0,
    local: Callable[[datetime], datetime] = lambda moment: moment,
) -> Navigation:
    """Turn the sections MkDocs made of session folders into session entries (auto
    nav); lists longer than ``group`` in groups, sessions' named by their dates as
    ``local`` gives them."""
    pages = {page.file.src_uri: page for page in nav.pages}
    items = _Walk(entries, started, pages, group, local).items(nav.items)
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


class _Walk:
    """The nav's items, each section MkDocs made of a session's folder turned into the
    session's entry."""

    def __init__(
        self, entries: dict[str, NavEntry], started: dict[str, datetime | None], pages: dict[str, Page], group: int,
        local: Callable[[datetime], datetime],
    ) -> None:  # fmt: skip
        self.entries, self.started, self.pages, self.group, self.local = entries, started, pages, group, local
        self.ours = set().union(*map(_owned, entries.values()))

    def items(self, items: list[Any]) -> list[Any]:
        out: list[Any] = []
        dates: dict[int, datetime] = {}
        sessions: dict[int, datetime | None] = {}  # by the id() of each session's item, its start
        for item in items:
            if isinstance(item, Section):
                session = next((c.file.src_uri for c in item.children if isinstance(c, Page) and c.file.src_uri in self.entries), None)
                if session is not None:
                    built = self._session(item, session)
                    if built is None:
                        continue
                    when = self.started.get(session)
                    when = None if when is None else when if when.tzinfo else when.replace(tzinfo=timezone.utc)
                    if when is not None:
                        dates[len(out)] = when
                    sessions[id(built)] = when
                    out.append(built)
                    continue
                item.children = self.items(item.children)
                if any(page.file.src_uri in self.ours for page in _pages(item.children)):
                    # The name of a folder of transcripts, which MkDocs made a title of:
                    # themes print it as HTML.
                    item.title = _escaped(item.title)
            out.append(item)
        return self._sessions_grouped(_by_date(out, dates), sessions)

    def _session(self, item: Section, session: str) -> Any:
        """The session's entry, its subagents under it, and what else its folder holds."""
        ours = _owned(self.entries[session])
        rest = [c for c in item.children if not (isinstance(c, Page) and c.file.src_uri in ours)]
        built = self._entry(self.entries[session])
        if built is not None and rest:
            if isinstance(built, Section):
                built.children += self.items(rest)
            else:
                built = Section(_escaped(self.entries[session].title), [built, *self.items(rest)])
        return built

    def _entry(self, entry: NavEntry) -> Any:
        page = self.pages.get(entry.page)
        if not entry.children:
            return page
        agents = [built for built in (self._entry(child) for child in entry.children) if built is not None]
        agents = _grouped(agents, self.group, _numbered("Subagents"), Section)
        return Section(_escaped(entry.title), [page, *agents] if page is not None else agents)

    def _sessions_grouped(self, items: list[Any], sessions: dict[int, datetime | None]) -> list[Any]:
        """The sessions among ``items`` in groups, in the place of the first."""
        found = [item for item in items if id(item) in sessions]
        grouped = _grouped(found, self.group, lambda members, start: self._span(members, sessions, start), Section)
        if grouped is found:
            return items
        first = next(index for index, item in enumerate(items) if id(item) in sessions)
        rest = [item for item in items if id(item) not in sessions]
        return rest[:first] + grouped + rest[first:]

    def _span(self, members: list[Any], sessions: dict[int, datetime | None], start: int) -> str:
        """A group of sessions named by the days they started on."""
        days = sorted(self.local(when).strftime("%Y-%m-%d") for when in (sessions[id(m)] for m in members) if when is not None)
        if not days:
            return _numbered("Sessions")(members, start)
        return days[0] if days[0] == days[-1] else f"{days[0]} – {days[-1]}"


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
