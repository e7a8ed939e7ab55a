"""From files to pages: discovery, build and render, for the plugin and the command line.

This is the one public way to turn transcripts into pages; it knows nothing of
MkDocs, and holds one session in memory at a time.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime

from . import model as m
from .build import build_session
from .render import layout
from .render.context import Asset, RenderOptions
from .render.page import Page, page_title, render_session
from .report import FileReport
from .transcript.discovery import Discovery, SessionSource, SourceFile, discover

__all__ = ["Converted", "NavEntry", "SourceFile", "convert", "convert_session", "discover"]


@dataclass
class NavEntry:
    """A page and the pages nested under it in the nav: a session and its subagents."""

    title: str
    page: str
    children: list[NavEntry] = field(default_factory=list)


@dataclass
class Converted:
    source: SessionSource
    started: datetime | None
    nav: NavEntry
    pages: list[Page]
    assets: list[Asset]
    reports: list[FileReport]


def convert_session(source: SessionSource, options: RenderOptions) -> Converted:
    built = build_session(source, options.hidden())
    session = built.session
    rendered = render_session(session, options)
    return Converted(source, session.started, _nav(session, options), rendered.pages, rendered.assets, built.reports)


def convert(found: Discovery, options: RenderOptions) -> Iterator[Converted]:
    for source in found.sessions:
        yield convert_session(source, options)


def _nav(session: m.Session, options: RenderOptions) -> NavEntry:
    placed: set[str] = set()

    def agents_under(parent: str | None) -> list[NavEntry]:
        entries = []
        for agent in session.agents:
            if agent.parent == parent and agent.id not in placed:
                placed.add(agent.id)
                entries.append(NavEntry(agent.title, layout.agent_page(session.source, agent.id), agents_under(agent.id)))
        return entries

    return NavEntry(page_title(session, options), layout.session_page(session.source), agents_under(None))
