"""Write the Markdown pages of a session: the session page and one page per subagent."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime, timezone

from .. import model as m
from . import layout
from .context import Asset, PageContext, RenderOptions
from .markdown import block, fence, inline, link, prose, snippet_guard
from .tools import text_output, title_of, view_for

# Classes of the blocks, styled by assets/claude-transcripts.css.
USER, ASSISTANT, THINKING = "ct-user", "ct-assistant", "ct-thinking"
TOOL, TOOL_ERROR, SYSTEM = "ct-tool", "ct-tool-error", "ct-system"
WARNING, ERROR, AGENT, UNKNOWN = "ct-warning", "ct-error", "ct-agent", "ct-unknown"


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
    lines += [f"# {inline(session.title)}", ""]
    lines += _facts(session)
    if session.orphan_agent:
        lines += block(WARNING, "Subagent without its session", ["The session that started this subagent is not in the site."])
    lines += _agent_list(session, None, ctx)
    lines += _messages(session.messages, ctx)
    return _finish(lines, ctx)


def _agent_markdown(agent: m.Agent, ctx: PageContext) -> str:
    lines = _front_matter(agent.title)
    lines += [f"# {inline(agent.title)}", ""]
    lines += _back_link(agent, ctx)
    lines += _agent_list(ctx.session, agent.id, ctx)
    lines += _messages(agent.messages, ctx)
    return _finish(lines, ctx)


def _front_matter(title: str) -> list[str]:
    # JSON strings are YAML strings; no transcript text can end the front matter.
    return ["---", f"title: {json.dumps(title, ensure_ascii=False)}", "render_macros: false", "---", ""]


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
    if not facts:
        return []
    return [" · ".join(inline(f) for f in facts), "{ .ct-meta }", ""]


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
    return [text, "{ .ct-meta }", ""]


def _call_anchor(session: m.Session, agent: m.Agent) -> str:
    owner = session.messages if agent.parent is None else (session.agent(agent.parent) or agent).messages
    for message in owner:
        if isinstance(message, m.ToolCall) and message.id == agent.tool_use_id:
            return message.anchor
    return ""


# ---------------------------------------------------------------- messages


def _messages(messages: list[m.AnyMessage], ctx: PageContext) -> list[str]:
    lines: list[str] = []
    for message in messages:
        lines += render_message(message, ctx)
    return lines


def render_message(message: m.AnyMessage, ctx: PageContext) -> list[str]:
    match message:
        case m.Prompt():
            body = prose(message.text) + _images(message.images, ctx)
            return _block(USER, "User" + _time(message), message, body)
        case m.AssistantText():
            return _block(ASSISTANT, "Claude", message, prose(message.text))
        case m.Thinking():
            return _thinking(message, ctx)
        case m.ToolCall():
            return _tool_call(message, ctx)
        case m.ToolResult():
            body = text_output(message) + _images(message.images, ctx)
            return _block(TOOL_ERROR if message.is_error else TOOL, "Result of an earlier tool call", message, body, "closed")
        case m.SystemNote():
            kind = {"warning": WARNING, "error": ERROR}.get(message.level, SYSTEM)
            body = prose(message.text) if message.text.strip() else []
            return _block(kind, message.title or "System", message, body, None if kind != SYSTEM else "closed")
        case m.Unknown():
            body = fence(json.dumps(message.data, indent=2, ensure_ascii=False), "json")
            return _block(UNKNOWN, f"Unknown {message.type or 'entry'}", message, body, "closed")
    return []


def _thinking(message: m.Thinking, ctx: PageContext) -> list[str]:
    if message.redacted:
        body = ["*The reasoning was redacted.*"]
    elif not message.text.strip():
        body = ["*The reasoning was not recorded.*"]
    else:
        body = prose(message.text)
    return _block(THINKING, "Thinking", message, body, "open" if ctx.options.thinking == "shown" else "closed")


def _tool_call(call: m.ToolCall, ctx: PageContext) -> list[str]:
    view = view_for(call.name)
    body = view.input(call, ctx)
    result = call.result
    if result is None:
        body += [""] * bool(body) + ["*No result was recorded.*"]
    else:
        output = view.output(result, call, ctx) + _images(result.images, ctx)
        if body and output:
            body.append("")
        body += output
    failed = result is not None and result.is_error
    mode = "open" if ctx.options.tool_calls == "open" else "closed"
    return _block(TOOL_ERROR if failed else TOOL, title_of(call, ctx), call, body, mode)


def _images(images: list[m.Image], ctx: PageContext) -> list[str]:
    lines: list[str] = []
    for number, image in enumerate(images, 1):
        target = ctx.image(image)
        if target:
            lines += ["", f"![Image {number}]({target})"]
        elif image.url:
            lines += ["", f"Image {number}: {inline(image.url)}"]
        else:
            lines += ["", f"*Image {number} ({inline(image.media_type)}) could not be decoded.*"]
    return lines


def _block(kind: str, title: str, message: m.Message, body: list[str], collapsible: str | None = None) -> list[str]:
    heading = inline(title, limit=160) + _anchor(message)
    return block(kind, heading, body, collapsible=collapsible)


def _anchor(message: m.Message) -> str:
    if not message.anchor:
        return ""
    return f" <a id='{message.anchor}' class='ct-anchor' href='#{message.anchor}' title='Link to this message'></a>"


def _time(message: m.Message) -> str:
    if message.timestamp is None:
        return ""
    moment = message.timestamp
    if moment.tzinfo is not None:
        moment = moment.astimezone(timezone.utc)
    return moment.strftime(" · %H:%M")
