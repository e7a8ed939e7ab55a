"""The transcripts index: one row per session, newest first, and the site's totals;
in parts, each linked to the others, when its rows weigh more than a page."""

from __future__ import annotations

from datetime import datetime, timezone

from ..listing import Row
from . import layout
from .context import RenderOptions
from .cut import weights
from .markdown import front_matter, heading, inline, link, meta, part_links, table
from .text import duration, plural

TITLE = "Transcripts"
HEADER = ["date", "session", "duration", "messages", "tool calls", "errors", "subagents", "tokens"]


def index_pages(rows: list[Row], page: str, options: RenderOptions, title: str = TITLE) -> list[tuple[str, str]]:
    """The Markdown of the index page at ``page`` (relative to the docs root), with
    its path; then, when its rows weigh more than a page (``page_size``), the parts
    it goes on in, beside it (``layout.index_part``)."""
    ordered = sorted(rows, key=lambda row: _when(row.started), reverse=True)
    if not ordered:
        lines = front_matter(title) + [heading(title), ""] + meta("No sessions are published.")
        return [(page, "\n".join(lines) + "\n")]
    seconds = sum(row.duration_seconds or 0 for row in rows)
    figures = [
        plural(len(rows), "session"),
        duration(seconds) + " in all",
        plural(sum(r.messages for r in rows), "message"),
        plural(sum(r.tool_calls for r in rows), "tool call"),
        plural(sum(r.errors for r in rows), "error"),
        plural(sum(r.subagents for r in rows), "subagent"),
        f"{sum(r.tokens for r in rows):,} tokens",
    ]
    total = [
        "total", f"{len(rows):,} sessions", duration(seconds), f"{sum(r.messages for r in rows):,}",
        f"{sum(r.tool_calls for r in rows):,}", f"{sum(r.errors for r in rows):,}",
        f"{sum(r.subagents for r in rows):,}", f"{sum(r.tokens for r in rows):,}",
    ]  # fmt: skip
    # The table made once, its rows shared out among the parts, each under the header;
    # the total row ends the last.
    whole = table(HEADER, [_row(row, page, options) for row in ordered] + [total])
    head, total_row = whole[:2], whole[-1]
    parts = _parts(whole[2:-1], options.page_size)
    uris = [layout.index_part(page, number) for number in range(1, len(parts) + 1)]
    pages = []
    for number, (uri, body) in enumerate(zip(uris, parts), 1):
        last = number == len(parts)
        named = title if number == 1 else f"{title} (part {number} of {len(parts)})"
        # The site's totals atop every part (the stylesheet knows the index's table by them).
        lines = front_matter(named) + [heading(named), ""] + meta(inline(" · ".join(figures)), "ct-totals") + [""]
        if len(parts) > 1:
            lines += part_links(number, uris, uri)
        lines += head + body + ([total_row] if last else []) + [""]
        if last:
            lines += meta("A session's figures include those of its subagents; tokens are input, output and cache tokens, once per response.")
        pages.append((uri, "\n".join(lines) + "\n"))
    return pages


def contents(rows: list[Row], options: RenderOptions) -> str:
    """The sessions one file holds one after another (the command line's single file):
    a line each, in that order, so that all are named even where the file is cut."""
    items = []
    for row in rows:
        date = options.local(row.started).strftime("%Y-%m-%d") if row.started else ""
        facts = [date, plural(row.messages, "message"), plural(row.tool_calls, "tool call")]
        items.append(f"- {inline(row.title)} · " + " · ".join(fact for fact in facts if fact))
    return "\n".join([f"**{plural(len(rows), 'session')}**, one after another below:", "", *items, ""])


def _parts(rows: list[str], limit: int) -> list[list[str]]:
    """The rows of the index's table in parts that weigh about ``limit`` (as pages
    are weighed, cut.py; 0: one part)."""
    parts: list[list[str]] = [[]]
    size = 0
    for row, weight in zip(rows, weights(rows)):
        if limit and parts[-1] and size + weight > limit:
            parts.append([])
            size = 0
        parts[-1].append(row)
        size += weight
    return parts


def _row(row: Row, page: str, options: RenderOptions) -> list[str]:
    date = options.local(row.started).strftime("%Y-%m-%d") if row.started else ""
    return [
        date,
        link(row.title, layout.relative(row.page, page)),
        duration(row.duration_seconds) if row.duration_seconds is not None else "",
        f"{row.messages:,}",
        f"{row.tool_calls:,}",
        f"{row.errors:,}" if row.errors else "",
        f"{row.subagents:,}" if row.subagents else "",
        f"{row.tokens:,}",
    ]


def _when(moment: datetime | None) -> datetime:
    if moment is None:
        return datetime.min.replace(tzinfo=timezone.utc)
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)
