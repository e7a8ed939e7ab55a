"""Write the Markdown pages of a session: the session page and one page per subagent."""

from __future__ import annotations

import html
import json
from dataclasses import dataclass, field
from datetime import datetime, timezone

from .. import model as m
from . import layout
from .context import Asset, PageContext, RenderOptions
from .guard import MARKER
from .markdown import block, clean, heading, inline, link, meta, snippet_guard, web_link
from .messages import AGENT, WARNING, messages_markdown


@dataclass
class Page:
    src_uri: str
    title: str  # plain text, for the nav and the browser
    markdown: str
    agent_id: str | None = None


@dataclass
class RenderedSession:
    pages: list[Page] = field(default_factory=list)
    assets: list[Asset] = field(default_factory=list)


def render_session(session: m.Session, options: RenderOptions) -> RenderedSession:
    assets: dict[str, Asset] = {}
    source = session.source
    main = PageContext(options, session, layout.session_page(source), assets=assets)
    pages = [Page(main.page, page_title(session, options), _session_markdown(session, main))]
    for agent in session.agents:
        ctx = PageContext(options, session, layout.agent_page(source, agent.id), agent=agent, assets=assets)
        pages.append(Page(ctx.page, agent.title, _agent_markdown(agent, ctx), agent_id=agent.id))
    return RenderedSession(pages, list(assets.values()))


def page_title(session: m.Session, options: RenderOptions) -> str:
    date = session.started.strftime("%Y-%m-%d") if session.started else ""
    title = options.title_format.format(title=session.title, date=date, id=session.id)
    return title.strip(" ·-") or session.title


# ---------------------------------------------------------------- pages


def _session_markdown(session: m.Session, ctx: PageContext) -> str:
    lines = _front_matter(page_title(session, ctx.options))
    lines += [heading(session.title), ""]
    lines += _facts(session)
    if session.orphan_agent:
        lines += block(WARNING, "Subagent without its session", ["The session that started this subagent is not in the site."])
    lines += _agent_list(session, None, ctx)
    lines += _messages(session.messages, ctx)
    return _finish(lines, ctx)


def _messages(messages: list[m.AnyMessage], ctx: PageContext) -> list[str]:
    if not messages:
        return meta("This file holds no messages.")
    return messages_markdown(messages, ctx)


def _agent_markdown(agent: m.Agent, ctx: PageContext) -> str:
    lines = _front_matter(agent.title)
    lines += [heading(agent.title), ""]
    lines += _back_link(agent, ctx)
    lines += _agent_list(ctx.session, agent.id, ctx)
    lines += _messages(agent.messages, ctx)
    return _finish(lines, ctx)


def _front_matter(title: str) -> list[str]:
    """The page's metadata, then the marker that turns on the guard (render/guard.py).

    Themes print the title into HTML unescaped (Material's nav and ``<title>``), so
    it is HTML-escaped here; JSON strings are YAML strings, so nothing can end the
    front matter early. ``render_macros: false`` keeps mkdocs-macros away.
    """
    line = " ".join(clean(title).replace("\u2028", " ").replace("\u2029", " ").split())
    value = json.dumps(html.escape(line, quote=True), ensure_ascii=False)
    return ["---", f"title: {value}", "render_macros: false", "---", MARKER, ""]


def _finish(lines: list[str], ctx: PageContext) -> str:
    text = "\n".join(lines).rstrip() + "\n"
    return snippet_guard(text) if ctx.options.snippets else text


def _facts(session: m.Session) -> list[str]:
    facts: list[str] = []
    if session.started:
        span = _when(session.started)
        if session.ended and session.ended != session.started:
            span += " – " + (_when(session.ended)[11:] if session.ended.date() == session.started.date() else _when(session.ended))
        facts.append(span + " UTC")
    if session.versions:
        facts.append("Claude Code " + ", ".join(session.versions))
    facts += session.models
    if session.branch:
        facts.append("branch " + session.branch)
    if session.cwd:
        facts.append(session.cwd)
    if session.agent_name:
        facts.append("agent " + session.agent_name)
    lines = meta(" · ".join(inline(f) for f in facts)) + [""] if facts else []
    for url in session.pr_links:
        lines += meta("Pull request: " + web_link(url)) + [""]
    return lines


def _when(moment: datetime) -> str:
    if moment.tzinfo is not None:
        moment = moment.astimezone(timezone.utc)
    return moment.strftime("%Y-%m-%d %H:%M")


def _agent_list(session: m.Session, parent: str | None, ctx: PageContext) -> list[str]:
    children = [a for a in session.agents if a.parent == parent]
    if not children:
        return []
    items: list[str] = []
    for agent in children:
        target = ctx.agent_link(agent.id)
        items.append("- " + (link(agent.title, target) if target else inline(agent.title)))
    return block(AGENT, "Subagents", items, collapsible="closed")


def _back_link(agent: m.Agent, ctx: PageContext) -> list[str]:
    session = ctx.session
    if agent.parent is None:
        parent_page, parent_title = layout.session_page(session.source), session.title
    else:
        parent_page = layout.agent_page(session.source, agent.parent)
        parent_title = ctx.agent_title(agent.parent)
    target = layout.relative(parent_page, ctx.page)
    if agent.tool_use_id:
        anchor = _call_anchor(session, agent)
        text = f"Started by a tool call in {link(parent_title, target + ('#' + anchor if anchor else ''))}."
    else:
        text = f"Part of {link(parent_title, target)}."
    return meta(text) + [""]


def _call_anchor(session: m.Session, agent: m.Agent) -> str:
    owner = session.messages if agent.parent is None else (session.agent(agent.parent) or agent).messages
    for message in owner:
        if isinstance(message, m.ToolCall) and message.id == agent.tool_use_id:
            return message.anchor
    return ""


