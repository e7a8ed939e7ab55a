"""How each tool call is shown: a registry keyed by tool name, with a generic fallback.

A view gives three things: the key argument for the title (``Bash · npm test``),
the call's input, and its result. To show one more tool, subclass ``ToolView``,
override what differs, and register it under the tool's name.
"""

from __future__ import annotations

import difflib
import json
import posixpath
from functools import lru_cache
from .. import model as m
from .context import PageContext
from .markdown import block, fence, inline, link, prose

_KEY_FIELDS = ("command", "file_path", "notebook_path", "path", "pattern", "url", "query", "description", "skill", "prompt")


class ToolView:
    """The generic view: input as JSON, result as text."""

    def key(self, call: m.ToolCall, ctx: PageContext) -> str:
        for name in _KEY_FIELDS:
            value = call.input.get(name)
            if isinstance(value, str) and value.strip():
                return ctx.short_path(value) if name.endswith("path") else value
        return ""

    def input(self, call: m.ToolCall, ctx: PageContext) -> list[str]:
        if not call.input:
            return []
        return fence(json.dumps(call.input, indent=2, ensure_ascii=False, default=str), "json")

    def output(self, result: m.ToolResult, call: m.ToolCall, ctx: PageContext) -> list[str]:
        return text_output(result)


def text_output(result: m.ToolResult, lang: str = "text") -> list[str]:
    lines: list[str] = []
    if result.text.strip():
        lines += fence(result.text, lang)
    elif not result.images:
        lines.append("*No output.*")
    return lines


def _string(call: m.ToolCall, name: str) -> str:
    value = call.input.get(name)
    return value if isinstance(value, str) else ""


class BashView(ToolView):
    def key(self, call: m.ToolCall, ctx: PageContext) -> str:
        return _string(call, "command")

    def input(self, call: m.ToolCall, ctx: PageContext) -> list[str]:
        lines: list[str] = []
        if _string(call, "description"):
            lines += [inline(_string(call, "description")), ""]
        return lines + fence(_string(call, "command"), "bash")


class FileView(ToolView):
    """Read, and other tools whose input is a file path."""

    def key(self, call: m.ToolCall, ctx: PageContext) -> str:
        path = _string(call, "file_path") or _string(call, "notebook_path") or _string(call, "path")
        return ctx.short_path(path)

    def input(self, call: m.ToolCall, ctx: PageContext) -> list[str]:
        return []

    def output(self, result: m.ToolResult, call: m.ToolCall, ctx: PageContext) -> list[str]:
        return text_output(result, "text" if result.is_error else language_of(self.key(call, ctx)))


class WriteView(FileView):
    def input(self, call: m.ToolCall, ctx: PageContext) -> list[str]:
        return fence(_string(call, "content"), language_of(self.key(call, ctx)))


class EditView(FileView):
    def input(self, call: m.ToolCall, ctx: PageContext) -> list[str]:
        edits = call.input.get("edits")
        if not isinstance(edits, list):
            edits = [call.input]
        lines: list[str] = []
        for edit in edits:
            if isinstance(edit, dict):
                lines += fence(diff(str(edit.get("old_string") or ""), str(edit.get("new_string") or "")), "diff")
                lines.append("")
        return lines

    def output(self, result: m.ToolResult, call: m.ToolCall, ctx: PageContext) -> list[str]:
        return text_output(result)


class SearchView(ToolView):
    """Glob and Grep: a pattern, where it was looked for, and what matched."""

    def key(self, call: m.ToolCall, ctx: PageContext) -> str:
        where = _string(call, "path")
        pattern = _string(call, "pattern")
        return f"{pattern} in {ctx.short_path(where)}" if where else pattern

    def input(self, call: m.ToolCall, ctx: PageContext) -> list[str]:
        return []


class AgentView(ToolView):
    """Task (later Agent): the subagent's brief, a link to its page, and its final answer."""

    def key(self, call: m.ToolCall, ctx: PageContext) -> str:
        return _string(call, "description") or _string(call, "subagent_type")

    def input(self, call: m.ToolCall, ctx: PageContext) -> list[str]:
        lines: list[str] = []
        if _string(call, "subagent_type"):
            lines += [f"Agent type: **{inline(_string(call, 'subagent_type'))}**", ""]
        lines += agent_links(call, ctx)
        if _string(call, "prompt"):
            lines += block("ct-user", "Prompt", prose(_string(call, "prompt")), collapsible="closed")
        return lines

    def output(self, result: m.ToolResult, call: m.ToolCall, ctx: PageContext) -> list[str]:
        if result.is_error:
            return text_output(result)
        return prose(result.text)


def agent_links(call: m.ToolCall, ctx: PageContext) -> list[str]:
    lines: list[str] = []
    for agent_id in call.agents:
        target = ctx.agent_link(agent_id)
        if target:
            lines += [f"Subagent: {link(ctx.agent_title(agent_id), target)}", ""]
    return lines


class WorkflowView(ToolView):
    def key(self, call: m.ToolCall, ctx: PageContext) -> str:
        return _string(call, "description") or _string(call, "name")

    def input(self, call: m.ToolCall, ctx: PageContext) -> list[str]:
        return agent_links(call, ctx) + super().input(call, ctx)


def diff(old: str, new: str) -> str:
    lines = difflib.unified_diff(old.splitlines(), new.splitlines(), lineterm="", n=3)
    return "\n".join(line for line in lines if not line.startswith(("---", "+++")))


@lru_cache(maxsize=512)
def language_of(path: str) -> str:
    """The highlighting language for a file name, as Pygments knows it ("" when unknown)."""
    from pygments.lexers import find_lexer_class_for_filename

    try:
        lexer = find_lexer_class_for_filename(posixpath.basename(path) or "x")
    except Exception:  # Pygments raises on some odd names; no highlighting then
        return ""
    return lexer.aliases[0] if lexer and lexer.aliases else ""


GENERIC = ToolView()
TOOLS: dict[str, ToolView] = {
    "Bash": BashView(),
    "Read": FileView(),
    "NotebookRead": FileView(),
    "Write": WriteView(),
    "Edit": EditView(),
    "MultiEdit": EditView(),
    "Glob": SearchView(),
    "Grep": SearchView(),
    "Task": AgentView(),
    "Agent": AgentView(),
    "Workflow": WorkflowView(),
}


def view_for(name: str) -> ToolView:
    return TOOLS.get(name, GENERIC)


def title_of(call: m.ToolCall, ctx: PageContext) -> str:
    key = view_for(call.name).key(call, ctx)
    return f"{call.name} · {key}" if key else call.name
