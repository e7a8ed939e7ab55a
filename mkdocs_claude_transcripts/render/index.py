"""The transcripts index: one row per session, newest first, and the site's totals."""

from __future__ import annotations

from datetime import datetime, timezone

from ..listing import Row
from . import layout
from .context import RenderOptions
from .markdown import front_matter, heading, inline, link, meta, table
from .text import duration, plural

TITLE = "Transcripts"
HEADER = ["date", "session", "duration", "messages", "tool calls", "errors", "subagents", "tokens"]


def index_page(rows: list[Row], page: str, options: RenderOptions, title: str = TITLE) -> str:
    """The Markdown of the index page at ``page`` (relative to the docs root)."""
    ordered = sorted(rows, key=lambda row: _when(row.started), reverse=True)
    lines = front_matter(title) + [heading(title), ""]
    if not ordered:
        return "\n".join(lines + meta("No sessions are published.")) + "\n"
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
    lines += meta(inline(" · ".join(figures)), "ct-totals") + [""]
    body = [_row(row, page, options) for row in ordered]
    total = [
        "total", f"{len(rows):,} sessions", duration(seconds), f"{sum(r.messages for r in rows):,}",
        f"{sum(r.tool_calls for r in rows):,}", f"{sum(r.errors for r in rows):,}",
        f"{sum(r.subagents for r in rows):,}", f"{sum(r.tokens for r in rows):,}",
    ]  # fmt: skip
    lines += table(HEADER, body + [total]) + [""]
    lines += meta("A session's figures include those of its subagents; tokens are input, output and cache tokens, once per response.")
    return "\n".join(lines) + "\n"


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
