"""A part of a session, rendered into another page as it is on the session's page.

What part: a range of message anchors (``from``, ``to``, as in the permalinks of
the session page), a range of turns (``turns: 2`` or ``2-4``, a turn being what
follows a prompt, slash command, shell command or memory of the user's, up to the
next), or the turn where a text first occurs (``search``). Without any, the whole
conversation.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Literal

from .. import model as m
from ..insights.stats import TURNS
from . import layout
from .context import PageContext, RenderOptions
from .markdown import link, meta, snippet_guard
from .messages import message_chunks

_TURNS = re.compile(r"^\s*(\d+)\s*(?:(-)\s*(\d+)?)?\s*$")


class ExcerptError(ValueError):
    """What is wrong with an excerpt's range, said for the page that asks for it."""


@dataclass(frozen=True)
class Range:
    start: str | None = None  # a message anchor
    end: str | None = None
    turns: str | None = None  # "2", "2-4", "3-"
    search: str | None = None


@dataclass(frozen=True)
class Look:
    thinking: Literal["shown", "collapsed", "hidden"] | None = None  # None: as the site's option
    tool_calls: Literal["open", "collapsed", "hidden"] | None = None
    link: bool = True  # a line linking to the full session


def select(messages: list[m.AnyMessage], chosen: Range) -> list[m.AnyMessage]:
    """The messages of ``chosen``; raises ExcerptError when it cannot be found or is empty."""
    given = [name for name, value in (("from/to", chosen.start or chosen.end), ("turns", chosen.turns), ("search", chosen.search)) if value]
    if len(given) > 1:
        raise ExcerptError(f"give one of from/to, turns or search, not {' and '.join(given)}")
    if chosen.turns:
        selected = _turns(messages, chosen.turns)
    elif chosen.search:
        selected = _search(messages, chosen.search)
    elif chosen.start or chosen.end:
        start = _index_of(messages, chosen.start) if chosen.start else 0
        end = _index_of(messages, chosen.end) if chosen.end else len(messages) - 1
        if end < start:
            raise ExcerptError(f"'{chosen.end}' comes before '{chosen.start}'")
        selected = messages[start : end + 1]
    else:
        selected = list(messages)
    if not selected:
        raise ExcerptError("the range holds no message")
    return selected


def excerpt(
    session: m.Session, chosen: Range, look: Look, options: RenderOptions, page: str, published: bool, prefix: str, agent: str | None = None
) -> list[str]:
    """The Markdown of an excerpt of ``session`` (of its subagent ``agent``, where
    given) for the page ``page``; message ids get ``prefix``, so that excerpts of
    several sessions can share a page."""
    shown = next((a for a in session.agents if a.id == agent), None) if agent else None
    selected = select(shown.messages if shown else session.messages, chosen)
    options = replace(options, thinking=look.thinking or options.thinking, tool_calls=_calls(look, options))
    if look.thinking == "hidden":
        selected = [message for message in selected if not isinstance(message, m.Thinking)]
    if look.tool_calls == "hidden":
        selected = [message for message in selected if not isinstance(message, (m.ToolCall, m.ToolResult))]
    if not selected:
        raise ExcerptError("the range holds nothing left to show")
    whole = layout.agent_page(session.source, shown.id) if shown else layout.session_page(session.source)
    ctx = PageContext(options, session, page, agent=shown, published=published, anchor_prefix=prefix)
    lines = [line for _, chunk in message_chunks(selected, ctx) for line in chunk]
    if look.link and published:
        title = ctx.agent_title(shown.id) if shown else session.title
        lines = [*meta("From " + link(title, layout.relative(whole, page)) + _described(chosen)), "", *lines]
    if options.snippets:  # (a line of a tool's output included as a file, as on the session's page)
        lines = snippet_guard("\n".join(lines)).split("\n")
    return lines


def _calls(look: Look, options: RenderOptions) -> Literal["open", "collapsed"]:
    return "open" if look.tool_calls == "open" else "collapsed" if look.tool_calls else options.tool_calls


def _described(chosen: Range) -> str:
    if chosen.turns:
        return f", turn {chosen.turns.strip()}" if chosen.turns.strip().isdigit() else f", turns {chosen.turns.strip()}"
    return ""


def _index_of(messages: list[m.AnyMessage], anchor: str) -> int:
    for index, message in enumerate(messages):
        if anchor in m.anchors_of(message):
            return index
    raise ExcerptError(f"no message has the anchor '{anchor}'")


def _turn_starts(messages: list[m.AnyMessage]) -> list[int]:
    starts = [index for index, message in enumerate(messages) if isinstance(message, TURNS)]
    if starts and starts[0] != 0:
        starts[0] = 0  # what comes before the first prompt belongs to the first turn
    return starts


def _turns(messages: list[m.AnyMessage], wanted: str) -> list[m.AnyMessage]:
    found = _TURNS.match(str(wanted))
    if not found:
        raise ExcerptError(f"turns must be a number or a range such as 2-4, not '{wanted}'")
    first = int(found[1])
    last = first if not found[2] else int(found[3]) if found[3] else None
    starts = _turn_starts(messages)
    if first < 1 or first > len(starts) or (last is not None and last < first):
        raise ExcerptError(f"the session has {len(starts)} turns; turns '{wanted}' is not among them")
    end = len(messages) if last is None or last >= len(starts) else starts[last]
    return messages[starts[first - 1] : end]


def _search(messages: list[m.AnyMessage], text: str) -> list[m.AnyMessage]:
    wanted = text.lower()
    starts = _turn_starts(messages) or [0]
    for index, message in enumerate(messages):
        if _holds(message, wanted):
            turn = max(number for number, start in enumerate(starts) if start <= index)
            end = starts[turn + 1] if turn + 1 < len(starts) else len(messages)
            return messages[starts[turn] : end]
    raise ExcerptError(f"no message holds '{text}'")


def _holds(message: m.Message, wanted: str) -> bool:
    found = False

    def look(value: str) -> str:
        nonlocal found
        found = found or wanted in value.lower()
        return value

    m.map_strings(message, look)
    return found
