"""What a renderer needs to know besides the message it renders."""

from __future__ import annotations

import posixpath
from dataclasses import dataclass, field
from datetime import datetime, timezone, tzinfo
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING, Literal
from zoneinfo import ZoneInfo

from . import layout
from .markdown import folded, unsearched

if TYPE_CHECKING:  # the options are read where the content model is not loaded
    from .. import model as m
    from ..memo import Memo


@dataclass(frozen=True)
class RenderOptions:
    thinking: Literal["shown", "collapsed", "hidden"] = "collapsed"
    empty_thinking: Literal["marker", "hidden"] = "marker"
    tool_calls: Literal["open", "collapsed"] = "collapsed"
    system_reminders: Literal["collapsed", "hidden"] = "collapsed"
    fold_lines: int = 40  # tool output longer than this folds; 0 never folds
    response_usage: bool = True  # a line with the model and tokens after each response
    search_tool_output: bool = False  # tool output in Material's search index
    page_size: int = 400_000  # about the characters of HTML a page holds before a conversation goes on in parts
    snippets: bool = False  # pymdownx.snippets is on: guard its include lines
    title_format: str = "{date} · {title}"
    summary: bool = True  # a summary block at the top of each conversation's first page
    tags: tuple[str, ...] = ()  # what a session's page is tagged with (model, branch, version, project)
    export: bool = True  # session.json beside each session's page
    timezone: str = "UTC"  # the zone times are shown in (an IANA name)

    def local(self, moment: datetime) -> datetime:
        """``moment`` in the zone times are shown in (one without a zone is UTC)."""
        aware = moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)
        try:
            return aware.astimezone(zone(self.timezone))
        except OverflowError:  # at the calendar's ends (0001-01-01), where the zone cannot go: as it is
            return aware

    def hidden(self) -> frozenset[str]:
        """Kinds of message the build step leaves out for these options."""
        kinds = set()
        if self.thinking == "hidden":
            kinds.add("thinking")
        if self.empty_thinking == "hidden":
            kinds.add("empty_thinking")
        if self.system_reminders == "hidden":
            kinds.add("reminder")
        return frozenset(kinds)


@lru_cache(maxsize=8)
def zone(name: str) -> tzinfo:
    """The time zone of an IANA name (``UTC``, ``Europe/Paris``); raises on an unknown one."""
    return timezone.utc if name.upper() == "UTC" else ZoneInfo(name)


_EXTENSIONS = {"image/png": "png", "image/jpeg": "jpg", "image/gif": "gif", "image/webp": "webp"}
# (An SVG image is not among them: as a file of the site, opened alone, it would run its scripts.)
SHOWN_IMAGES = "PNG, JPEG, GIF and WebP"


def shown_kind(media_type: str) -> bool:
    """Whether a page shows an image of ``media_type`` (as a file beside it)."""
    return media_type in _EXTENSIONS


@dataclass(frozen=True)
class Asset:
    """A file that goes into the site beside the pages (an image from the transcript)."""

    src_uri: str
    content: bytes


@dataclass(frozen=True)
class Agents:
    """A session's subagents as its pages look them up: by id, by the agent that
    started them (None: the session), and their titles (a key of the memo's); made
    once for all the pages of a session, which may have thousands of subagents."""

    by_id: dict[str, m.Agent]
    started_by: dict[str | None, list[m.Agent]]
    titles: str

    @classmethod
    def of(cls, session: m.Session) -> Agents:
        from .. import model  # at run time: the options here are read without the content model

        by_id = {agent.id: agent for agent in session.agents}
        return cls(by_id, model.by_starter(session.agents), repr({agent.id: agent.title for agent in session.agents}))


@dataclass
class PageContext:
    options: RenderOptions
    session: m.Session
    page: str  # the page being written, relative to the docs root
    agent: m.Agent | None = None  # the agent whose page this is, if any
    assets: dict[str, Asset] = field(default_factory=dict)  # shared by the pages of a session
    published: bool = True  # the session's pages are in the site (False: an excerpt of one that is not)
    anchor_prefix: str = ""  # before each message id (excerpts of several sessions share a page)
    memo: Memo | None = None  # the Markdown of messages rendered before (memo.py)
    images: int = 0  # how many images were written
    agents: Agents | None = None  # the session's (None: looked up here, for this page alone)

    def __post_init__(self) -> None:
        if self.agents is None:
            self.agents = Agents.of(self.session)

    @property
    def _agents(self) -> Agents:
        assert self.agents is not None
        return self.agents

    @cached_property
    def memo_context(self) -> str:
        """What a message's Markdown depends on besides the message (for ``memo``)."""
        agent = self.agent.id if self.agent else None
        facts = (repr(self.options), self.session.source, self.session.cwd, self._agents.titles, self.page, agent)
        return repr((*facts, self.published, self.anchor_prefix))

    def output(self, text: str, lang: str = "text", first_line: int | None = None, fold: int = 1) -> list[str]:
        """Tool output: folded when long, and out of the search index unless configured."""
        limit = self.options.fold_lines * fold
        searchable = self.options.search_tool_output
        lines = folded(text, lang, limit, first_line, searchable=searchable)
        return lines if searchable else unsearched(lines)

    @property
    def responses(self) -> dict[str, m.Response]:
        return self.agent.responses if self.agent else self.session.responses

    def permalink(self, anchor: str) -> tuple[str, str]:
        """The id a message with ``anchor`` gets on this page, and its permalink."""
        ident = self.anchor_prefix + anchor
        return ident, f"#{ident}"

    def agent_link(self, agent_id: str) -> str | None:
        if agent_id not in self._agents.by_id or not self.published:
            return None
        return layout.relative(layout.agent_page(self.session.source, agent_id), self.page)

    def agent_title(self, agent_id: str) -> str:
        agent = self._agents.by_id.get(agent_id)
        return agent.title if agent else agent_id

    def started_by(self, agent_id: str | None) -> list[m.Agent]:
        """The subagents that the agent ``agent_id`` (None: the session) started."""
        return self._agents.started_by.get(agent_id, [])

    def short_path(self, path: str) -> str:
        """A file path as the reader wants it: relative to the session's folder when inside it."""
        cwd = self.session.cwd
        if cwd and path.startswith(cwd.rstrip("/") + "/"):
            return posixpath.relpath(path, cwd)
        return path

    def image(self, image: m.Image) -> str | None:
        """A link to ``image`` written as a file of the site, or None if it cannot be decoded.

        Images become files, not inline data: inline base64 would bloat the page
        and the search index.
        """
        self.images += 1
        if image.url or not self.published:
            return None
        extension = _EXTENSIONS.get(image.media_type)
        content = image.decoded()
        if extension is None or content is None:
            return None
        src_uri = layout.base(self.session.source) + f"/images/{layout.image_name(content, extension)}"
        self.assets.setdefault(src_uri, Asset(src_uri, content))
        return layout.relative(src_uri, self.page)
