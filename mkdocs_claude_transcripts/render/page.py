"""Write the Markdown pages of a session: the session page and one page per subagent."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime

from .. import model as m
from ..insights.stats import Stats
from ..memo import Memo
from . import layout
from .context import Agents, Asset, PageContext, RenderOptions
from .cut import Joint, cut, cut_at, weight
from .guard import SECTION
from .markdown import (
    block,
    bullets,
    front_matter,
    heading,
    inline,
    label,
    link,
    meta,
    part_links,
    snippet_guard,
    web_link,
)
from .messages import AGENT, WARNING, message_chunks
from .summary import subagent_links, summary
from .text import first_words


@dataclass
class Page:
    src_uri: str
    title: str  # plain text, for the nav and the browser
    markdown: str
    agent_id: str | None = None
    part: int = 1  # a long conversation is shown in parts; only part 1 is in the nav


@dataclass
class RenderedSession:
    pages: list[Page] = field(default_factory=list)
    assets: list[Asset] = field(default_factory=list)


Chunk = tuple[m.Message, list[str]]
Figures = Mapping[str | None, Stats]  # statistics by agent id; None for the session


def render_session(session: m.Session, options: RenderOptions, stats: Figures | None = None, memo: Memo | None = None) -> RenderedSession:
    """The pages of a session: its own, then its subagents', each in parts when long.

    Messages are rendered once, then grouped into parts; every page of a session is
    in the same folder, so a message renders the same on any of them. An agent's
    page links back to the part of its parent that holds the call that started it.
    With ``stats`` (by agent id, None for the session), each first page starts with
    a summary. With a ``memo``, a message rendered before is not rendered again.
    """
    assets: dict[str, Asset] = {}
    source = session.source
    # (agent id, None for the session; anchor) -> the page that holds it: anchors are
    # unique within a conversation, not across the session's.
    found: dict[tuple[str | None, str], str] = {}
    agents = Agents.of(session)
    calls = _CallAnchors(session, agents)
    main = PageContext(options, session, layout.session_page(source), assets=assets, memo=memo, agents=agents)
    pages = _pages(
        session.messages,
        main,
        title=page_title(session, options),
        tags=tags_of(session, options.tags),
        uri=lambda part: layout.session_page(source, part),
        head=lambda: _facts(session, options, brief=stats is not None) + _orphan(session) + _overview(stats, None, main, found, session),
        heading_text=session.title,
        found=found,
    )
    for agent in _parents_first(session.agents):
        ctx = PageContext(options, session, layout.agent_page(source, agent.id), agent=agent, assets=assets, memo=memo, agents=agents)
        pages += _pages(
            agent.messages,
            ctx,
            title=agent.title,
            uri=lambda part, agent_id=agent.id: layout.agent_page(source, agent_id, part),
            head=lambda agent=agent, ctx=ctx: _back_link(agent, ctx, found, calls) + _overview(stats, agent.id, ctx, found),
            heading_text=agent.title,
            found=found,
            agent_id=agent.id,
        )
    return RenderedSession(pages, list(assets.values()))


def page_title(session: m.Session, options: RenderOptions) -> str:
    date = options.local(session.started).strftime("%Y-%m-%d") if session.started else ""
    # What joins the parts is left out at the ends (no date: "{date} · " is not shown),
    # what the title itself ends with is kept (a title "x --").
    title = options.title_format.format(title=_TITLE_MARK if session.title else "", date=date, id=session.id)
    return title.strip(" ·-").replace(_TITLE_MARK, session.title) or session.title


_TITLE_MARK = "\x00title\x00"  # where the title goes, once the ends are trimmed


# ---------------------------------------------------------------- pages and parts

_ANCHOR_ID = re.compile(r"id='([^']+)'")
SECTIONS = 32  # a page is rendered in about this many sections (see _sections)

# A message cut into pieces: its lines, and the index of each piece's first line with
# its joint to the piece before.
_Cut = tuple[list[str], list[tuple[int, Joint]]]


# Messages that begin a turn of the user's: a long conversation is cut before one.
_TURN_STARTS = (m.Prompt, m.Steering, m.SlashCommand, m.ShellCommand, m.Memory, m.CompactSummary, m.Compaction)


def _pages(
    messages: list[m.AnyMessage],
    ctx: PageContext,
    *,
    title: str,
    uri: Callable[[int], str],
    head: Callable[[], list[str]],
    heading_text: str,
    found: dict[tuple[str | None, str], str],
    agent_id: str | None = None,
    tags: list[str] | None = None,
) -> list[Page]:
    # A message longer than half a page is cut into pieces (render/cut.py), so that no
    # page holds much more than page_size; the lines of its pieces are made once the
    # parts are known (_joined).
    chunks: list[Chunk] = []
    sizes: list[int] = []
    whole: dict[int, _Cut] = {}  # a cut message: its lines, where its pieces start and their joints
    for message, lines in message_chunks(messages, ctx):
        pieces = _cut(lines, ctx)
        if len(pieces) > 1:
            whole[id(message)] = (lines, [(start, joint) for start, _, joint in pieces])
        chunks += [(message, lines)] * len(pieces)
        sizes += [weight for _, weight, _ in pieces]
    # The top of the first page is weighed as it will be, but for where its links lead,
    # where the messages are enough to make parts (it is then made twice).
    limit = ctx.options.page_size
    top = weight(head()) if limit and sum(sizes) > limit // 2 else 0
    parts = _joined(split(chunks, limit, sizes, first=top), whole)
    uris = [uri(number) for number in range(1, len(parts) + 1)]
    for page_uri, part in zip(uris, parts):
        for message, lines in part:
            anchors = m.anchors_of(message)
            if id(message) in whole:  # each anchor is on the page of the piece that holds it
                held = set(_ANCHOR_ID.findall("\n".join(lines)))
                anchors = [anchor for anchor in anchors if ctx.anchor_prefix + anchor in held]
            for anchor in anchors:
                found.setdefault((agent_id, anchor), page_uri)
    pages = []
    for number, (page_uri, part) in enumerate(zip(uris, parts), 1):
        many = len(parts) > 1
        part_title = f"{title} (part {number} of {len(parts)})" if many and number > 1 else title
        lines = front_matter(part_title, tags if number == 1 else None) + [heading(heading_text), ""]
        if number == 1:
            lines += head()
        if many:
            lines += part_links(number, uris, page_uri) if number > 1 else _part_list(uris, parts, page_uri, ctx.options)
        lines += _sections(part, ctx.options.page_size // SECTIONS) or meta("This file holds no messages.")
        if many:
            lines += ["", SECTION, ""] + part_links(number, uris, page_uri)
        pages.append(Page(page_uri, part_title, _finish(lines, ctx), agent_id=agent_id, part=number))
    return pages


def _cut(lines: list[str], ctx: PageContext) -> list[tuple[int, int, Joint]]:
    """Where ``cut`` cuts a message for half a page: the index of each piece's first
    line, its weight and its joint; for a long message, from the memo when it was cut
    before."""
    limit = ctx.options.page_size // 2
    memo = ctx.memo
    if memo is None or sum(map(len, lines)) < limit // 40:  # seldom cut, and quickly weighed
        return [(start, weight, joint) for _, weight, start, joint in cut(lines, limit)]
    key = memo.cut_key(lines, limit)
    known = memo.cut(key)
    if known is None:
        known = [[start, weight, *joint] for _, weight, start, joint in cut(lines, limit)]
        memo.keep_cut(key, known)
    return [(start, weight, (closing, again)) for start, weight, closing, again in known]


def _sections(part: list[Chunk], size: int) -> list[str]:
    """The messages of a page in sections of about ``size`` characters, each after a
    ``SECTION`` line: a page whose top or last messages change (a conversation going
    on) is rendered again in those sections alone (rendering.py). Sections are made
    from the first message on, so that messages added at the end leave the others."""
    lines: list[str] = []
    filled = size
    for _, chunk in part:
        if filled >= size:
            lines += ["", SECTION, ""]
            filled = 0
        lines += chunk
        filled += sum(map(len, chunk))
    return lines


def _joined(parts: list[list[Chunk]], whole: dict[int, _Cut]) -> list[list[Chunk]]:
    """``parts`` with the lines of the pieces of each cut message, those on one page
    made one piece: a message is cut only where a page ends."""
    if not whole:
        return parts
    kept: dict[int, dict[int, Joint]] = {key: {} for key in whole}  # the cuts kept, by message
    seen: dict[int, int] = {key: 0 for key in whole}
    for part in parts:
        for index, (message, _) in enumerate(part):
            key = id(message)
            if key in whole:
                if seen[key] and (index == 0 or part[index - 1][0] is not message):
                    start, joint = whole[key][1][seen[key]]
                    kept[key][start] = joint
                seen[key] += 1
    pieces = {key: iter(cut_at(whole[key][0], kept[key])) for key in whole}
    joined: list[list[Chunk]] = []
    for part in parts:
        out: list[Chunk] = []
        for message, lines in part:
            if id(message) not in whole:
                out.append((message, lines))
            elif not out or out[-1][0] is not message:
                out.append((message, next(pieces[id(message)])))
        joined.append(out)
    return joined


def split(chunks: list[Chunk], limit: int, sizes: list[int], first: int = 0) -> list[list[Chunk]]:
    """Group messages into parts that weigh about ``limit`` (characters, highlighted
    code weighing more, see cut.py; 0: one part), cutting before a turn of the user's:
    a turn that would not fit in what is left of a part starts the next one, whole
    where it fits in a part, cut where it must where it is longer. The first part holds
    ``first`` already (the top of the first page: its summary, the list of its
    subagents), which makes it end at an earlier turn, not inside one."""
    turns = _turn_sizes(chunks, sizes)
    parts: list[list[Chunk]] = [[]]
    size = 0
    for index, (chunk, length) in enumerate(zip(chunks, sizes)):
        held = size + (first if len(parts) == 1 else 0)
        if index in turns:  # (a turn that grows, in a session still written, never goes back a page)
            full = held + turns[index] > limit
        else:
            full = size > limit  # (within a turn longer than a part)
        if limit and parts[-1] and full:
            parts.append([])
            size = 0
        parts[-1].append(chunk)
        size += length
    return parts


def _turn_sizes(chunks: list[Chunk], sizes: list[int]) -> dict[int, int]:
    """The weight of each turn of the user's, by the index of the chunk that starts it."""
    turns: dict[int, int] = {}
    start = None
    previous = None
    for index, (chunk, length) in enumerate(zip(chunks, sizes)):
        if isinstance(chunk[0], _TURN_STARTS) and chunk[0] is not previous:  # not a piece of one
            start = index
            turns[start] = 0
        if start is not None:
            turns[start] += length
        previous = chunk[0]
    return turns


def _part_list(uris: list[str], parts: list[list[Chunk]], page: str, options: RenderOptions) -> list[str]:
    items = []
    for number, (part_uri, part) in enumerate(zip(uris, parts), 1):
        name = f"Part {number}" + _part_label(part, options)
        items.append(f"{label(name)} (this page)" if part_uri == page else link(name, layout.relative(part_uri, page)))
    return meta(f"This conversation is long: it is shown in {len(parts)} parts.") + [""] + bullets(items) + [""]


def _part_label(part: list[Chunk], options: RenderOptions) -> str:
    first = next((message for message, _ in part if isinstance(message, _TURN_STARTS)), part[0][0] if part else None)
    if first is None:
        return ""
    when = options.local(first.timestamp).strftime(" · %H:%M") if first.timestamp else ""
    words = first_words(getattr(first, "text", "") or getattr(first, "name", ""), 60)
    return when + (" · " + words if words else "")


def _parents_first(agents: list[m.Agent]) -> list[m.Agent]:
    """Agents in an order where each comes after the agent that started it: those the
    session started, then those they started, and so on, each round in the order
    given; those whose starter is not among them (or is in a loop) last."""
    started = m.by_starter(agents)
    order = {id(agent): index for index, agent in enumerate(agents)}
    placed: set[int] = set()  # the id() of each agent placed
    ordered: list[m.Agent] = []
    starters: list[str | None] = [None]  # those placed in the last round
    while len(ordered) < len(agents):
        found = {id(agent): agent for starter in starters for agent in started.get(starter, []) if id(agent) not in placed}
        ready = sorted(found.values(), key=lambda agent: order[id(agent)])
        if not ready:  # a parent that is not among them: keep the rest as they are
            ready = [agent for agent in agents if id(agent) not in placed]
        placed.update(id(agent) for agent in ready)
        ordered += ready
        starters = [agent.id for agent in ready]
    return ordered


def _orphan(session: m.Session) -> list[str]:
    if not session.orphan_agent:
        return []
    return block(WARNING, "Subagent without its session", ["The session that started this subagent is not in the site."])


def tags_of(session: m.Session, wanted: tuple[str, ...]) -> list[str]:
    """The tags of a session's page, for Material's tags plugin: of each kind wanted,
    ``model`` (each model's name), ``branch``, ``version`` and ``project`` (the
    working directory's name)."""
    tags: list[str] = []
    for kind in wanted:
        if kind == "model":
            tags += [name for name in session.models if not name.startswith("<")]
        elif kind == "branch" and session.branch:
            tags.append(f"branch: {session.branch}")
        elif kind == "version":
            tags += [f"Claude Code {version}" for version in session.versions]
        elif kind == "project" and session.cwd:
            tags.append(session.cwd.replace("\\", "/").rstrip("/").rsplit("/", 1)[-1])
    return list(dict.fromkeys(tag for tag in tags if tag.strip()))


def _finish(lines: list[str], ctx: PageContext) -> str:
    text = "\n".join(lines).rstrip() + "\n"
    return snippet_guard(text) if ctx.options.snippets else text


def _facts(session: m.Session, options: RenderOptions, brief: bool = False) -> list[str]:
    """A line of facts about the session (``brief``: only its pull requests, the
    summary holding the rest)."""
    facts: list[str] = []
    if session.started:
        start, end = _when(session.started, options), _when(session.ended or session.started, options)
        span = start + (" – " + (end[11:] if end[:10] == start[:10] else end) if end != start else "")
        facts.append(f"{span} {options.timezone}")
    if session.versions:
        facts.append("Claude Code " + ", ".join(session.versions))
    facts += session.models
    if session.branch:
        facts.append("branch " + session.branch)
    if session.cwd:
        facts.append(session.cwd)
    if session.agent_name:
        facts.append("agent " + session.agent_name)
    if brief:
        facts = []
    lines = meta(" · ".join(inline(f) for f in facts)) + [""] if facts else []
    for url in session.pr_links:
        lines += meta("Pull request: " + web_link(url)) + [""]
    return lines


def _when(moment: datetime, options: RenderOptions) -> str:
    return options.local(moment).strftime("%Y-%m-%d %H:%M")


def _overview(
    stats: Figures | None, agent_id: str | None, ctx: PageContext, found: dict[tuple[str | None, str], str], session: m.Session | None = None
) -> list[str]:
    """The summary of the page's conversation, or without statistics the list of its subagents."""
    figures = stats.get(agent_id) if stats is not None else None
    if figures is None:
        return _agent_list(ctx)

    def target(anchor: str) -> str:
        page = found.get((agent_id, anchor), ctx.page)
        return ("" if page == ctx.page else layout.relative(page, ctx.page)) + "#" + anchor

    return summary(figures, ctx, target, session)


def _agent_list(ctx: PageContext) -> list[str]:
    items = subagent_links(ctx)
    return block(AGENT, "Subagents", bullets(items), collapsible="closed") if items else []


def _back_link(agent: m.Agent, ctx: PageContext, found: dict[tuple[str | None, str], str], calls: _CallAnchors) -> list[str]:
    session = ctx.session
    if agent.parent is None:
        parent_page, parent_title = layout.session_page(session.source), session.title
    else:
        parent_page = layout.agent_page(session.source, agent.parent)
        parent_title = ctx.agent_title(agent.parent)
    anchor = calls.of(agent) if agent.tool_use_id else ""
    if anchor:
        target = layout.relative(found.get((agent.parent, anchor), parent_page), ctx.page) + "#" + anchor
        return meta(f"Started by a tool call in {link(parent_title, target)}.") + [""]
    return meta(f"Part of {link(parent_title, layout.relative(parent_page, ctx.page))}.") + [""]


class _CallAnchors:
    """The anchor of the tool call that started an agent, in the conversation of the
    agent (or session) that made it: each conversation is looked through once."""

    def __init__(self, session: m.Session, agents: Agents) -> None:
        self._session = session
        self._agents = agents
        self._found: dict[int, dict[str, str]] = {}  # by the id() of the conversation's list of messages

    def of(self, agent: m.Agent) -> str:
        parent = self._agents.by_id.get(agent.parent) if agent.parent is not None else None
        owner = self._session.messages if agent.parent is None else (parent or agent).messages
        anchors = self._found.get(id(owner))
        if anchors is None:
            anchors = {}
            for message in m.walk(owner):
                if isinstance(message, m.ToolCall):
                    anchors.setdefault(message.id, message.anchor)
            self._found[id(owner)] = anchors
        return anchors.get(agent.tool_use_id or "", "")


