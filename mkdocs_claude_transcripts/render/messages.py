"""How each kind of message is shown: one function per class, in ``RENDERERS``.

Every block gets a kind (its CSS class, styled by assets/claude-transcripts.css),
a title, and a permalink anchor.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from .. import model as m
from .context import PageContext
from .markdown import (
    block,
    breakable,
    bullets,
    fence,
    fields,
    image,
    inline,
    link,
    meta,
    outside_code,
    permalink,
    prose,
    web_link,
)
from .text import numbered, spent_thinking, strip_ansi
from .tools import checklist, language_of, render_call, result_extras, shown_images, text_output

# Kinds of block (CSS classes).
USER, ASSISTANT, THINKING, COMMAND = "ct-user", "ct-assistant", "ct-thinking", "ct-command"
TOOL, TOOL_ERROR, SYSTEM, WARNING, ERROR = "ct-tool", "ct-tool-error", "ct-system", "ct-warning", "ct-error"
AGENT, SUMMARY, REMINDER, BRANCH, UNKNOWN = "ct-agent", "ct-summary", "ct-reminder", "ct-branch", "ct-unknown"
INSTRUCTIONS, MEMORY, TEAMMATE, IDE = "ct-instructions", "ct-memory", "ct-teammate", "ct-ide"

Renderer = Callable[[Any, PageContext], list[str]]
_PLACEHOLDER = re.compile(r"\[Image #\d+\]")


def message_chunks(messages: list[m.AnyMessage], ctx: PageContext) -> list[tuple[m.Message, list[str]]]:
    """The blocks of ``messages``, one chunk each; a response's last part is followed
    by the response's model and usage."""
    last_part: dict[str, int] = {}
    for index, message in enumerate(messages):
        response_id = getattr(message, "response_id", None)
        if response_id:
            last_part[response_id] = index
    chunks: list[tuple[m.Message, list[str]]] = []
    for index, message in enumerate(messages):
        lines = _remembered(message, ctx)
        response_id = getattr(message, "response_id", None)
        if response_id and last_part.get(response_id) == index and ctx.options.response_usage:
            lines += _usage(ctx.responses.get(response_id))
        chunks.append((message, lines))
    return chunks


def messages_markdown(messages: list[m.AnyMessage], ctx: PageContext) -> list[str]:
    return [line for _, lines in message_chunks(messages, ctx) for line in lines]


def _remembered(message: m.Message, ctx: PageContext) -> list[str]:
    """``render_message``, from the memo when the message was rendered before (one
    that shows images is rendered again: they are files to write)."""
    if ctx.memo is None:
        return render_message(message, ctx)
    key = ctx.memo.block_key(message, ctx.memo_context)
    lines = ctx.memo.block(key)
    if lines is None:
        images = ctx.images
        lines = render_message(message, ctx)
        if ctx.images == images:
            ctx.memo.keep_block(key, lines)
    return lines


def render_message(message: m.Message, ctx: PageContext) -> list[str]:
    """A message's lines, ending in a blank one: a small line of facts (``meta``) right
    before another would be one paragraph with it, its mark shown as text."""
    renderer = RENDERERS.get(type(message))
    lines = renderer(message, ctx) if renderer else []
    return [*lines, ""] if lines and lines[-1] else lines


def _usage(response: m.Response | None) -> list[str]:
    if response is None or not (response.usage.input or response.usage.output):
        return []
    usage = response.usage
    facts = [response.model or "", f"{usage.input:,} in", f"{usage.output:,} out{spent_thinking(usage.thinking)}"]
    if usage.cache_read:
        facts.append(f"{usage.cache_read:,} cache read")
    if usage.cache_creation:
        facts.append(f"{usage.cache_creation:,} cache written")
    return meta(" · ".join(inline(f) for f in facts if f)) + [""]


def titled(ctx: PageContext, kind: str, title: str, message: m.Message, body: list[str], collapsible: str | None = None) -> list[str]:
    """A block with a permalink to ``message`` in its title."""
    return block(kind, breakable(inline(title, limit=160)) + anchor(message, ctx), body, collapsible=collapsible)


def anchor(message: m.Message, ctx: PageContext) -> str:
    if not message.anchor:
        return ""
    return permalink(*ctx.permalink(message.anchor))


def time_of(message: m.Message, ctx: PageContext) -> str:
    if message.timestamp is None:
        return ""
    return ctx.options.local(message.timestamp).strftime(" · %H:%M")


# ---------------------------------------------------------------- the user's side


def _prompt(message: m.Prompt, ctx: PageContext) -> list[str]:
    body = _with_images(message.text, message.images, ctx)
    for note in message.ide:
        body += [""] + _ide(note)
    if message.reminders and ctx.options.system_reminders != "hidden":
        for reminder in message.reminders:
            body += [""] + block(REMINDER, "System reminder", prose(reminder), collapsible="closed")
    return titled(ctx, USER, "User" + time_of(message, ctx), message, body)


def _ide(note: m.IdeNote) -> list[str]:
    title = {"opened_file": "Opened in the IDE", "selection": "Selected in the IDE", "diagnostics": "IDE diagnostics"}[note.kind]
    if note.kind == "opened_file" and "\n" not in note.text.strip():
        return meta(f"{inline(title)}: {inline(note.text)}")
    return block(IDE, title, fence(note.text), collapsible="closed")


def _with_images(text: str, images: list[m.Image], ctx: PageContext) -> list[str]:
    """Prose with each image where its ``[Image #N]`` stands, the others after it (text
    typed by a person, or a prompt for a subagent: its line breaks are kept)."""
    lines = prose(text, line_breaks=True)
    targets = {img.label: ctx.image(img) for img in images if img.label}
    placed: set[str] = set()
    if targets:
        def place(match: re.Match[str]) -> str:
            label = match.group()[1:-1]
            target = targets.get(label)
            if not target:
                return match.group()
            placed.add(label)
            return image(label, target)

        lines = outside_code(lines, _PLACEHOLDER, place)
    return lines + shown_images(images, ctx, placed)


def _steering(message: m.Steering, ctx: PageContext) -> list[str]:
    body = _with_images(message.text, message.images, ctx)
    title = "User, while Claude was working" if message.sent else "User, queued but never sent"
    return titled(ctx, USER, title + time_of(message, ctx), message, body)


def _slash_command(message: m.SlashCommand, ctx: PageContext) -> list[str]:
    body: list[str] = meta(inline(message.status)) + [""] if message.status else []
    if message.text.strip():
        body += prose(message.text)
    body += _output(message.stdout, message.stderr, ctx)
    title = f"{message.name} {message.args}".strip()
    return titled(ctx, COMMAND, title + time_of(message, ctx), message, body)


def _command_output(message: m.CommandOutput, ctx: PageContext) -> list[str]:
    return titled(ctx, COMMAND, "Command output", message, _output(message.stdout, message.stderr, ctx), "closed")


def _output(stdout: str, stderr: str, ctx: PageContext) -> list[str]:
    lines: list[str] = []
    if stdout.strip():
        lines += ctx.output(strip_ansi(stdout))
    if stderr.strip():
        lines += ["", "Error output:", ""] + ctx.output(strip_ansi(stderr))
    return lines


def _instructions(message: m.Instructions, ctx: PageContext) -> list[str]:
    title = "Caveat about local commands" if message.caveat else "Instructions added by Claude Code"
    return titled(ctx, INSTRUCTIONS, title, message, prose(message.text), "closed")


def _shell_command(message: m.ShellCommand, ctx: PageContext) -> list[str]:
    session = "\n".join(filter(None, [f"$ {message.command}", strip_ansi(message.stdout).rstrip(), strip_ansi(message.stderr).rstrip()]))
    return titled(ctx, USER, f"Bash mode · {message.command}", message, ctx.output(session, "console"))


def _memory(message: m.Memory, ctx: PageContext) -> list[str]:
    return titled(ctx, MEMORY, "Remember" + time_of(message, ctx), message, prose(message.text, line_breaks=True))


def _task_notification(message: m.TaskNotification, ctx: PageContext) -> list[str]:
    facts = {"task": message.task_id, "tool call": message.tool_use_id, "status": message.status}
    facts |= {"output file": message.output_file, **message.details}
    body = fields(facts)
    for agent_id in message.agents:
        target = ctx.agent_link(agent_id)
        if target:
            body += ["", f"Subagent: {link(ctx.agent_title(agent_id), target)}"]
    if message.result.strip():
        body += [""] + prose(message.result)
    if message.note.strip():
        body += [""] + prose(message.note)
    title = message.summary or f"Task {message.status or 'notification'}"
    return titled(ctx, AGENT, title, message, body, "closed")


def _interruption(message: m.Interruption, ctx: PageContext) -> list[str]:
    return titled(ctx, WARNING, message.text.strip("[]") or "Interrupted by the user", message, [])


def _teammate(message: m.TeammateMessage, ctx: PageContext) -> list[str]:
    return titled(ctx, TEAMMATE, f"Message from {message.sender or 'a teammate'}", message, prose(message.text))


def _reminder(message: m.Reminder, ctx: PageContext) -> list[str]:
    tasks = checklist((task.content, task.status) for task in message.tasks)
    body = tasks + ([""] if tasks and message.text.strip() else []) + (prose(message.text) if message.text.strip() else [])
    return titled(ctx, REMINDER, "System reminder", message, body, "closed")


# The title of each kind of file or text Claude Code attached (model.Attached).
_ATTACHED = {
    "file": "Attached",
    "edited_text_file": "Edited outside Claude Code",
    "selected_lines_in_ide": "Selected in the IDE",
    "opened_file_in_ide": "Opened in the IDE",
    "nested_memory": "Memory file",
    "plan_file_reference": "Plan",
    "directory": "Folder",
    "compact_file_reference": "Kept in context after the compaction",
    "already_read_file": "Already read",
    "diagnostics": "IDE diagnostics",
    "document": "Document",
    "plan_mode": "In plan mode",
    "plan_mode_exit": "Out of plan mode",
    "plan_mode_reentry": "Back in plan mode",
}


def _attached(message: m.Attached, ctx: PageContext) -> list[str]:
    """A file or text Claude Code attached, in a closed block: its text in the file's
    language, with the file's line numbers when known (a memory file or a plan, as
    Markdown; an image, shown); a path alone, a small line."""
    path, text = message.label, message.content
    title = _ATTACHED.get(message.what) or m.kind_title(message.what)
    if path:
        title += f" · {ctx.short_path(path)}"
    if message.images:
        return titled(ctx, REMINDER, title, message, shown_images(message.images, ctx)[1:], "closed")
    if not text.strip():
        return meta(inline(title) + anchor(message, ctx))
    if message.what in _READ_AS_MARKDOWN:
        return titled(ctx, REMINDER, title, message, prose(text), "closed")
    text, start = (text, message.start_line) if message.start_line else numbered(text)
    lang = "text" if message.what in _ABOUT_A_FILE else language_of(message.path) or "text"
    return titled(ctx, REMINDER, title, message, ctx.output(text, lang, start), "closed")


# Instructions and plans are read as Markdown (as a plan Claude proposed is); files, as
# they are, in their language; what is said about a file (a folder's listing, the IDE's
# diagnostics), as text.
_READ_AS_MARKDOWN = frozenset({"nested_memory", "plan_file_reference"})
_ABOUT_A_FILE = frozenset({"directory", "diagnostics", "document"})


def _compact_summary(message: m.CompactSummary, ctx: PageContext) -> list[str]:
    return titled(ctx, SUMMARY, "Summary of the conversation so far", message, prose(message.text), "closed")


def _compaction(message: m.Compaction, ctx: PageContext) -> list[str]:
    facts = ["Old tool results cleared" if message.micro else "Conversation compacted"]
    if message.trigger:
        facts.append(message.trigger)
    if message.tokens_before is not None:
        facts.append(f"{message.tokens_before:,} tokens before")
    if message.tokens_after is not None:
        facts.append(f"{message.tokens_after:,} after")
    return titled(ctx, SUMMARY, " · ".join(facts), message, [])


# ---------------------------------------------------------------- Claude's side


def _assistant_text(message: m.AssistantText, ctx: PageContext) -> list[str]:
    body = prose(message.text) if message.text.strip() else []
    if message.sources:
        body += ([""] if body else []) + meta("Sources:") + [""] + bullets(_source(source) for source in message.sources)
    return titled(ctx, ASSISTANT, "Claude", message, body)


def _source(source: m.Source) -> str:
    """A source a text cites: its title, its address (a link when it is a web address),
    the words cited."""
    where = " · ".join(part for part in (inline(source.title) if source.title else "", web_link(source.url) if source.url else "") if part)
    return where + (f": “{inline(source.cited_text)}”" if source.cited_text else "")


def _thinking(message: m.Thinking, ctx: PageContext) -> list[str]:
    if message.redacted:
        return meta("Thinking (redacted)" + anchor(message, ctx))
    if not message.text.strip():
        return meta("Thinking (not recorded)" + anchor(message, ctx))
    return titled(ctx, THINKING, "Thinking", message, prose(message.text), "open" if ctx.options.thinking == "shown" else "closed")


def _api_error(message: m.ApiError, ctx: PageContext) -> list[str]:
    title = "API error" + (f" {message.status}" if message.status else "") + (f" · {message.retry}" if message.retry else "")
    return titled(ctx, ERROR, title, message, fence(message.text) if message.text.strip() else [])


def _tool_call(call: m.ToolCall, ctx: PageContext) -> list[str]:
    title, body = render_call(call, ctx)
    failed = call.result is not None and call.result.is_error
    mode = "open" if ctx.options.tool_calls == "open" else "closed"
    return titled(ctx, TOOL_ERROR if failed else TOOL, title, call, body, mode)


def _tool_result(message: m.ToolResult, ctx: PageContext) -> list[str]:
    body = text_output(message, ctx) + result_extras(message, ctx)
    kind = TOOL_ERROR if message.is_error else TOOL
    title = "Another result of a tool call shown before" if message.again else "Result of a tool call made before this part of the transcript"
    return titled(ctx, kind, title, message, body, "closed")


# ---------------------------------------------------------------- system


def _system(message: m.SystemNote, ctx: PageContext) -> list[str]:
    if message.subtype == "turn_duration":
        return meta(inline(message.title) + anchor(message, ctx))
    kind = {"warning": WARNING, "error": ERROR}.get(message.level, SYSTEM)
    body = prose(strip_ansi(message.text)) if message.text.strip() else []
    if message.details:
        body += [""] * bool(body) + fields(message.details)
    return titled(ctx, kind, message.title or "System", message, body, "closed" if kind == SYSTEM else None)


def _unknown(message: m.Unknown, ctx: PageContext) -> list[str]:
    body = fence(json.dumps(message.data, indent=2, ensure_ascii=False, default=str), "json")
    return titled(ctx, UNKNOWN, f"Unknown {message.type or 'entry'}", message, body, "closed")


def _branch(message: m.Branch, ctx: PageContext) -> list[str]:
    count = len(message.messages)
    title = f"A branch left by a rewind ({count} message{'s' * (count != 1)})"
    return titled(ctx, BRANCH, title, message, messages_markdown(message.messages, ctx), "closed")


RENDERERS: dict[type, Renderer] = {
    m.Prompt: _prompt,
    m.Steering: _steering,
    m.SlashCommand: _slash_command,
    m.CommandOutput: _command_output,
    m.Instructions: _instructions,
    m.ShellCommand: _shell_command,
    m.Memory: _memory,
    m.TaskNotification: _task_notification,
    m.Interruption: _interruption,
    m.TeammateMessage: _teammate,
    m.Reminder: _reminder,
    m.Attached: _attached,
    m.CompactSummary: _compact_summary,
    m.Compaction: _compaction,
    m.AssistantText: _assistant_text,
    m.Thinking: _thinking,
    m.ApiError: _api_error,
    m.ToolCall: _tool_call,
    m.ToolResult: _tool_result,
    m.SystemNote: _system,
    m.Unknown: _unknown,
    m.Branch: _branch,
}
