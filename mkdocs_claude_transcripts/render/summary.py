"""The summary at the top of a session's page (and of each subagent's): when, with
what, how much, and what was touched, in one closed block."""

from __future__ import annotations

from collections.abc import Callable

from .. import model as m
from ..insights.stats import Stats, Verification
from .context import PageContext, RenderOptions
from .markdown import Made, block, breakable, bullets, code, fields, inline, label, link, table
from .text import duration, plural, spent_thinking

OVERVIEW = "ct-overview"
LISTED = 10  # files shown per list; the rest are counted
AGENTS_LISTED = 100  # subagents linked from the top of a page; the rest are counted


def summary(stats: Stats, ctx: PageContext, target: Callable[[str], str], session: m.Session | None = None) -> list[str]:
    """The summary block; ``target`` makes the link to a message's anchor, and
    ``session`` adds what only a session has (versions, models...)."""
    body: list[str] = []
    facts = {"When": _span(stats, ctx.options)}
    if session is not None:
        facts |= {
            "Claude Code": ", ".join(session.versions),
            "Models": ", ".join(session.models),
            "Branch": session.branch or "",
            "Working directory": session.cwd or "",
            "Agent": session.agent_name or "",
        }
    facts |= {
        "Prompts": _number(stats.turns),
        "Messages": _number(stats.messages),
        "Compactions": _number(stats.compactions) if stats.compactions else "",
    }
    body += fields(facts) + [""]
    if stats.categories:
        rows = [
            [kind, _tool_names(count.tools), _number(count.calls), _number(count.errors) if count.errors else ""]
            for kind, count in stats.categories.items()
        ]
        body += [label("Tool calls"), ""] + table(["category", "tools", "calls", "errors"], rows) + [""]
    if stats.verifications:
        body += [label("Checks run"), ""] + bullets(_check(v, target) for v in stats.verifications) + [""]
    body += _files("Files edited", stats.files_edited) + _files("Files read", stats.files_read)
    agents = subagent_links(ctx)
    if agents:
        body += [label("Subagents"), ""] + bullets(agents) + [""]
    tokens = stats.tokens
    if tokens.total:
        body += [label("Tokens"), ""]
        body += table(
            ["input", "output", "cache creation", "cache read"],
            [[_number(tokens.input), _number(tokens.output) + spent_thinking(tokens.thinking), _number(tokens.cache_creation), _number(tokens.cache_read)]],
        )
        body += [""]
    return block(OVERVIEW, inline(title(stats, ctx.options)), body, collapsible="closed")


def _tool_names(tools: list[str]) -> Made:
    """The names of a category's tools, in a cell of the table: a long one (an MCP
    tool's, ``mcp__github__create_pull_request``) may break after its separators, as
    in a block's title, not in the middle of a word."""
    return Made(breakable(inline(", ".join(tools), limit=300)))


def title(stats: Stats, options: RenderOptions) -> str:
    parts = ["Summary"]
    if stats.started is not None:
        parts.append(options.local(stats.started).strftime("%Y-%m-%d %H:%M ") + options.timezone)
    if stats.duration_seconds is not None:
        parts.append(duration(stats.duration_seconds))
    parts.append(plural(stats.turns, "prompt"))
    calls = plural(stats.tool_calls, "tool call")
    parts.append(calls + (f" ({plural(stats.errors, 'error')})" if stats.errors else ""))
    if stats.subagents:
        parts.append(plural(stats.subagents, "subagent"))
    return " · ".join(parts)


def _span(stats: Stats, options: RenderOptions) -> str:
    if stats.started is None or stats.ended is None:
        return ""
    start, end = options.local(stats.started), options.local(stats.ended)
    text = start.strftime("%Y-%m-%d %H:%M")
    until = end.strftime("%H:%M" if end.date() == start.date() else "%Y-%m-%d %H:%M")
    if until != text[-5:]:
        text += " – " + until
    return f"{text} {options.timezone} ({duration(stats.duration_seconds or 0)})"


def _check(verification: Verification, target: Callable[[str], str]) -> str:
    mark = {True: "passed", False: "failed", None: "no result"}[verification.passed]
    if verification.passed is False and verification.exit_code not in (None, 0):
        mark += f" (exit code {verification.exit_code})"
    command = code(verification.command, limit=160)
    result = link(mark, target(verification.anchor)) if verification.anchor else inline(mark)
    return f"{command}: {result}"


def _files(title: str, counts: dict[str, int]) -> list[str]:
    if not counts:
        return []
    items = [code(path) + (f" × {count}" if count > 1 else "") for path, count in list(counts.items())[:LISTED]]
    if len(counts) > LISTED:
        items.append(inline("and " + plural(len(counts) - LISTED, "more file")))
    return [f"{label(title)} ({_number(len(counts))})", "", *bullets(items), ""]


def subagent_links(ctx: PageContext) -> list[str]:
    """The subagents the page's conversation started, each linked to its page; past
    ``AGENTS_LISTED``, the others counted, so that a session of thousands of subagents
    does not make a page of megabytes."""
    parent = ctx.agent.id if ctx.agent else None
    started = ctx.started_by(parent)
    items = []
    for agent in started[:AGENTS_LISTED]:
        target = ctx.agent_link(agent.id)
        items.append(link(agent.title, target) if target else inline(agent.title))
    if len(started) > AGENTS_LISTED:
        items.append(inline("and " + plural(len(started) - AGENTS_LISTED, "more subagent")))
    return items


def _number(n: int) -> str:
    return f"{n:,}"
