"""From files to pages: discovery, build and render, for the plugin and the command line.

This is the one public way to turn transcripts into pages; it knows nothing of
MkDocs, and holds one session in memory at a time.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime

from . import model as m
from .build import build_session
from .insights.export import export, to_json
from .insights.stats import Stats, figures_of, row_of
from .listing import NavEntry, Row
from .memo import Memo
from .redact import Redactor
from .render import layout
from .render.context import Asset, RenderOptions
from .render.layout import stylesheet
from .render.page import Page, page_title, render_session, tags_of
from .report import FileReport
from .transcript.discovery import Discovery, SessionSource, SourceFile, discover
from .transcript.reader import rewritten_lines
from .workers import aside, young_collections

__all__ = [
    "Converted",
    "NavEntry",
    "Redactor",
    "RenderOptions",
    "Row",
    "SessionSource",
    "SourceFile",
    "convert",
    "convert_session",
    "discover",
    "redacted_jsonl",
    "session_of",
    "stylesheet",
]


@dataclass
class Converted:
    source: SessionSource
    started: datetime | None
    nav: NavEntry
    pages: list[Page]
    assets: list[Asset]
    reports: list[FileReport]
    row: Row  # the session in the transcripts index
    redactions: Counter[str] = field(default_factory=Counter)


def convert_session(
    source: SessionSource, options: RenderOptions, redactor: Redactor | None = None, memo: Memo | None = None, export_aside: bool = False
) -> Converted:
    """The pages of a session and what the site shows of it; with a ``memo`` of its
    last conversion (memo.py), which this one updates. ``export_aside``: its
    ``session.json`` is made in a process of its own while its pages are (for a caller
    that leaves a core free, converting one session as the build waits)."""
    with young_collections():  # see workers.py
        return _converted(source, options, redactor, memo, export_aside)


def _converted(source: SessionSource, options: RenderOptions, redactor: Redactor | None, memo: Memo | None, export_aside: bool) -> Converted:
    if redactor is not None:
        redactor.memo = memo
    try:
        built = build_session(source, options.hidden(), redactor)
    finally:
        if redactor is not None:
            redactor.memo = None
    session = built.session
    figures = figures_of(session)
    exported: Callable[[], bytes] | None = None
    if options.export:
        orphan = source.orphan_agent.agent_id if source.orphan_agent else None
        exported = functools.partial(_exported, session, figures, orphan)
        if export_aside:
            exported = aside(exported)
    rendered = render_session(session, options, figures if options.summary else None, memo)
    assets = rendered.assets
    if exported is not None:
        assets.append(Asset(layout.export_file(session.source), exported()))
    nav = _nav(session, options)
    row = row_of(nav.page, session.title, figures.values(), len(session.agents), tags_of(session, options.tags))
    return Converted(source, session.started, nav, rendered.pages, assets, built.reports, row, built.redactions)


def _exported(session: m.Session, figures: Mapping[str | None, Stats], orphan: str | None) -> bytes:
    return to_json(export(session, figures, orphan))


def session_of(source: SessionSource, options: RenderOptions, redactor: Redactor | None = None) -> m.Session:
    """The content model of a session, as its pages show it (for excerpts of it)."""
    return build_session(source, options.hidden(), redactor).session


def convert(found: Discovery, options: RenderOptions, redactor: Redactor | None = None) -> Iterator[Converted]:
    for source in found.sessions:
        yield convert_session(source, options, redactor)


def redacted_jsonl(path: str, redactor: Redactor) -> bytes:
    """A transcript file with every string of every line redacted, for publishing it."""
    copy = rewritten_lines(path, redactor.data, redactor.text)
    redactor.take_counts()
    return copy


def _nav(session: m.Session, options: RenderOptions) -> NavEntry:
    agents = _agents_under(None, m.by_starter(session.agents), set(), session.source)
    return NavEntry(page_title(session, options), layout.session_page(session.source), agents)


# How deep the nav nests agents started by agents. Below this, an agent's whole line of
# descendants is listed under it, in the order they were started: Material's nav
# template calls itself for each level, and ran out of stack some 250 levels deep.
NAV_DEPTH = 10


def _agents_under(parent: str | None, started_by: dict[str | None, list[m.Agent]], placed: set[str], source: str, depth: int = 1) -> list[NavEntry]:
    """The nav entries of the agents ``parent`` started, each with those it started.
    (A function of its own: a closure that calls itself is a cycle, which would keep
    the session it names until the garbage collector found it.)"""
    entries = []
    for agent in started_by.get(parent, []):
        if agent.id not in placed:
            placed.add(agent.id)
            if depth < NAV_DEPTH:
                children = _agents_under(agent.id, started_by, placed, source, depth + 1)
            else:
                children = [NavEntry(a.title, layout.agent_page(source, a.id), []) for a in _descendants(agent.id, started_by, placed)]
            entries.append(NavEntry(agent.title, layout.agent_page(source, agent.id), children))
    return entries


def _descendants(parent: str, started_by: dict[str | None, list[m.Agent]], placed: set[str]) -> list[m.Agent]:
    """The agents ``parent`` started, those they started, and so on, each after its
    starter (without a call per level: lines of agents can be thousands long)."""
    found: list[m.Agent] = []
    stack = [iter(started_by.get(parent, []))]
    while stack:
        agent = next((a for a in stack[-1] if a.id not in placed), None)
        if agent is None:
            stack.pop()
            continue
        placed.add(agent.id)
        found.append(agent)
        stack.append(iter(started_by.get(agent.id, [])))
    return found
