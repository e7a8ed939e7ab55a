"""How each tool call is shown: a registry keyed by tool name, with a generic fallback.

A view gives the key argument for the title (``Bash · npm test``), the call's
input, and its result. Every view shows a result's text in full (folded when
long); what the view adds is the form: a console block, a diff, a checklist.
To show one more tool, subclass ``ToolView``, override what differs, register
it in ``TOOLS`` under the tool's name, and add a golden case.
"""

from __future__ import annotations

import difflib
import fnmatch
import importlib
import json
import posixpath
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from .. import model as m
from .context import SHOWN_IMAGES, PageContext, shown_kind
from .markdown import block, code, fence, image, inline, link, meta, prose, table
from .text import agent_answer, first_line, numbered, split_reminders, strip_ansi

_KEY_FIELDS = ("command", "file_path", "notebook_path", "path", "pattern", "url", "query", "subject", "description", "title", "skill", "prompt", "name", "taskId")
_PHASE = re.compile(r"""\bphase\(\s*['"]([^'"]{1,80})['"]""")


def render_call(call: m.ToolCall, ctx: PageContext) -> tuple[str, list[str]]:
    """The title and body of a tool call's block, its result inside."""
    view = view_for(call.name)
    args = m.typed_input(call.name, call.input)
    if args is None and call.name in m.INPUTS:
        view = GENERIC  # an input that does not fit its tool's shape
    key = view.key(call, args, ctx)
    label = view.label(call)
    body = view.input(call, args, ctx)
    body += _unknown_inputs(args, body) if view is not GENERIC and args is not None else []
    if call.result is None:
        body += [""] * bool(body) + ["*No result was recorded.*"]
    else:
        output = view.output(call.result, call, args, ctx) + result_extras(call.result, ctx)
        if not body:  # the output alone, from its first line
            output = output[1:] if output[:1] == [""] else output
        body += [""] * bool(body and output and output[0]) + output
    return (f"{label} · {first_line(key)}" if key.strip() else label), body


class ToolView:
    """The generic view: the key argument, the input as a table, the result as text."""

    def label(self, call: m.ToolCall) -> str:
        return call.name

    def key(self, call: m.ToolCall, args: Any, ctx: PageContext) -> str:
        for name in _KEY_FIELDS:
            value = call.input.get(name)
            if isinstance(value, str) and value.strip():
                return ctx.short_path(value) if name.endswith("path") else value
        return ""

    def input(self, call: m.ToolCall, args: Any, ctx: PageContext) -> list[str]:
        return input_table(call.input)

    def output(self, result: m.ToolResult, call: m.ToolCall, args: Any, ctx: PageContext) -> list[str]:
        return text_output(result, ctx)


def input_table(values: dict[str, Any]) -> list[str]:
    """Simple values in a table; long or structured ones after it, each in a fence."""
    rows, rest = [], []
    for key, value in values.items():
        if isinstance(value, (str, int, float, bool)) or value is None:
            text = "" if value is None else str(value)
            if "\n" not in text and len(text) <= 200:
                rows.append([key, text])
                continue
            rest += ["", f"**{inline(key)}**", ""] + fence(text)
        else:
            rest += ["", f"**{inline(key)}**", ""] + fence(json.dumps(value, indent=2, ensure_ascii=False, default=str), "json")
    return (table(["Input", "Value"], rows) if rows else []) + rest


def _unknown_inputs(args: m.ToolInput, body: list[str]) -> list[str]:
    """The inputs a tool's class does not know of (an option newer than it, a flag such
    as Grep's ``-i``, an input that is not an object; one of an item it holds, such as a
    field of MultiEdit's edits, by its path), in a table after the view's ``body``: but
    those the view showed in a table of its own (``other_inputs``)."""
    shown = "\n".join(body)
    extra = {
        name: value for name, value in m.unknown_fields(args).items()
        if value not in (None, "", [], {}) and f"| {inline(name)} |" not in shown and f"**{inline(name)}**" not in shown
    }  # fmt: skip
    return [""] * bool(body) + input_table(extra) if extra else []


def other_inputs(call: m.ToolCall, shown: Iterable[str]) -> list[str]:
    """The call's inputs but those ``shown`` otherwise, in a table (none: nothing)."""
    rest = {key: value for key, value in call.input.items() if key not in shown}
    return input_table(rest) if rest else []


def _then(lines: list[str], more: list[str]) -> list[str]:
    """``lines``, then ``more`` after a blank line (where both hold something)."""
    return lines + [""] * bool(lines and more) + more


def text_output(result: m.ToolResult, ctx: PageContext, lang: str = "text") -> list[str]:
    if result.text.strip():
        return ctx.output(strip_ansi(result.text), lang)
    return [] if result.images or result.documents or result.tools else ["*No output.*"]


def result_extras(result: m.ToolResult, ctx: PageContext) -> list[str]:
    """What a result holds besides its text: its images, the documents it read (a
    text document's text; a PDF by its kind and size), and the tools it made
    available (a tool search's result is only those)."""
    lines = shown_images(result.images, ctx)
    for number, doc in enumerate(result.documents, 1):
        name = inline(doc.title or f"Document {number}")
        if doc.text.strip():
            lines += ["", f"{name}:", ""] + ctx.output(doc.text)
        else:
            lines += ["", f"*{name}: {inline(doc.facts)} (not shown).*"]
    if result.tools:
        lines += ["", "Tools made available: " + ", ".join(code(name) for name in result.tools)]
    return lines


def shown_images(images: list[m.Image], ctx: PageContext, placed: frozenset[str] | set[str] = frozenset()) -> list[str]:
    """Each image (but those ``placed`` already, by label), written as a file and shown;
    one given by its address, as the address."""
    lines: list[str] = []
    for number, img in enumerate(images, 1):
        if img.label in placed:
            continue
        target = ctx.image(img)
        label = img.label or f"Image {number}"
        if target:
            lines += ["", image(label, target)]
        elif img.url:
            lines += ["", f"{inline(label)}: {inline(img.url)}"]
        elif not ctx.published:  # an excerpt of a session the site leaves out: its images are not written
            lines += ["", f"*{inline(label)} ({inline(img.media_type)}) is not shown: its session is not published.*"]
        elif not shown_kind(img.media_type) and img.decoded() is not None:
            lines += ["", f"*{inline(label)} ({inline(img.media_type)}) is not shown: a page shows {SHOWN_IMAGES} images.*"]
        else:
            lines += ["", f"*{inline(label)} ({inline(img.media_type)}) could not be decoded.*"]
    return lines


def _status(*facts: str) -> list[str]:
    shown = [inline(f) for f in facts if f]
    return meta(" · ".join(shown)) + [""] if shown else []


# ---------------------------------------------------------------- shell


class BashView(ToolView):
    """A shell command (Bash; PowerShell on Windows): the command in its language, the
    output, its exit code."""

    def __init__(self, language: str = "bash") -> None:
        self.language = language

    def key(self, call: m.ToolCall, args: m.BashInput, ctx: PageContext) -> str:
        return args.command

    def input(self, call: m.ToolCall, args: m.BashInput, ctx: PageContext) -> list[str]:
        lines = meta(inline(args.description)) + [""] if args.description else []
        if args.run_in_background:
            lines += _status("run in the background")
        return lines + fence(args.command, self.language)

    def output(self, result: m.ToolResult, call: m.ToolCall, args: m.BashInput, ctx: PageContext) -> list[str]:
        shell = result.output if isinstance(result.output, m.ShellOutput) else None
        if shell is not None and not result.text.strip() and shell.stdout.strip():
            lines = ctx.output(strip_ansi(shell.stdout))  # a result with no text, its output beside it
        else:
            lines = text_output(result, ctx)
        if shell is None:
            return lines
        facts = []
        if shell.exit_code is not None:
            facts.append(f"exit code {shell.exit_code}")
        if shell.interrupted:
            facts.append("interrupted")
        if shell.background_id:
            facts.append(f"running in the background as {shell.background_id}")
        if shell.interpretation:
            facts.append(shell.interpretation)
        if shell.stderr.strip() and shell.stderr.strip() not in result.text:
            lines += ["", "Error output:", ""] + ctx.output(strip_ansi(shell.stderr))
        return lines + ([""] + _status(*facts) if facts else [])


class BackgroundView(ToolView):
    """BashOutput, TaskOutput, KillShell/KillBash and TaskStop: a background task by its id."""

    def key(self, call: m.ToolCall, args: m.ShellIdInput, ctx: PageContext) -> str:
        return args.bash_id or args.shell_id or args.task_id

    def input(self, call: m.ToolCall, args: m.ShellIdInput, ctx: PageContext) -> list[str]:
        return _status(f"filter {args.filter}") if args.filter else []

    def output(self, result: m.ToolResult, call: m.ToolCall, args: m.ShellIdInput, ctx: PageContext) -> list[str]:
        task = result.output if isinstance(result.output, m.BackgroundOutput) else None
        lines = []
        if task is not None:
            exit_code = f"exit code {task.exit_code}" if task.exit_code is not None else ""
            lines += _status(task.command, task.status, exit_code)
        return lines + text_output(result, ctx)


# ---------------------------------------------------------------- files


class ReadView(ToolView):
    def key(self, call: m.ToolCall, args: m.ReadInput, ctx: PageContext) -> str:
        path = ctx.short_path(args.file_path)
        if args.pages:  # of a PDF, read by its pages
            return f"{path} (pages {args.pages})"
        result = call.result
        file = result.output if result and isinstance(result.output, m.FileOutput) else None
        start = file.start_line if file else (args.offset or None)
        count = file.num_lines if file else args.limit
        if file and file.total_lines and count and count >= file.total_lines:
            return path
        if start and count:
            return f"{path} (lines {start}–{start + count - 1})"
        if start and start > 1:
            return f"{path} (from line {start})"
        return path

    def input(self, call: m.ToolCall, args: m.ReadInput, ctx: PageContext) -> list[str]:
        return []

    def output(self, result: m.ToolResult, call: m.ToolCall, args: m.ReadInput, ctx: PageContext) -> list[str]:
        if result.is_error or not result.text.strip():
            return text_output(result, ctx)
        text, reminders = split_reminders(result.text)
        code, start = numbered(text)
        lang = language_of(args.file_path) or ("text" if start else "")
        lines = ctx.output(code, lang, start)
        if ctx.options.system_reminders != "hidden":
            for reminder in reminders:
                lines += [""] + block("ct-reminder", "System reminder", prose(reminder), collapsible="closed")
        return lines


class WriteView(ToolView):
    def key(self, call: m.ToolCall, args: m.WriteInput, ctx: PageContext) -> str:
        return ctx.short_path(args.file_path)

    def input(self, call: m.ToolCall, args: m.WriteInput, ctx: PageContext) -> list[str]:
        return ctx.output(args.content, language_of(args.file_path))


class EditView(ToolView):
    """Edit and MultiEdit: a diff, with the file's line numbers when Claude Code recorded them."""

    def key(self, call: m.ToolCall, args: Any, ctx: PageContext) -> str:
        return ctx.short_path(args.file_path)

    def input(self, call: m.ToolCall, args: Any, ctx: PageContext) -> list[str]:
        result = call.result
        patch = result.output if result and isinstance(result.output, m.PatchOutput) else None
        edits = args.edits if isinstance(args, m.MultiEditInput) else [args]
        if patch is not None and patch.hunks:
            text = "\n".join(
                f"@@ -{h.old_start},{h.old_lines} +{h.new_start},{h.new_lines} @@\n" + "\n".join(h.lines) for h in patch.hunks
            )
            every = any(edit.replace_all for edit in edits)
            return ctx.output(text, "diff", fold=2) + ([""] + _status("every occurrence replaced") if every else [])
        lines: list[str] = []
        for edit in edits:
            lines += ctx.output(diff(edit.old_string, edit.new_string), "diff", fold=2) + [""]
            if edit.replace_all:
                lines += _status("every occurrence replaced")
        return lines


class NotebookReadView(ToolView):
    """A notebook's path and cell in the title, the cells read (NotebookRead, of Claude
    Code 1.0; Read reads notebooks since)."""

    def key(self, call: m.ToolCall, args: m.NotebookReadInput, ctx: PageContext) -> str:
        path = ctx.short_path(args.notebook_path)
        return f"{path} (cell {args.cell_id})" if args.cell_id else path

    def input(self, call: m.ToolCall, args: m.NotebookReadInput, ctx: PageContext) -> list[str]:
        return []


class NotebookEditView(NotebookReadView):
    def input(self, call: m.ToolCall, args: m.NotebookEditInput, ctx: PageContext) -> list[str]:
        lang = "markdown" if args.cell_type == "markdown" else "python"
        return _status(args.edit_mode, args.cell_type) + ctx.output(args.new_source, lang)


class SearchView(ToolView):
    """Glob, Grep and LS: a pattern, where it was looked for, and what matched."""

    def key(self, call: m.ToolCall, args: Any, ctx: PageContext) -> str:
        where = ctx.short_path(getattr(args, "path", "") or "")
        pattern = getattr(args, "pattern", "")
        if pattern and where:
            return f"{pattern} in {where}"
        return pattern or where

    def input(self, call: m.ToolCall, args: Any, ctx: PageContext) -> list[str]:
        facts = [f"{name} {value}" for name in ("glob", "type", "output_mode") if (value := getattr(args, name, ""))]
        if getattr(args, "ignore", None):
            facts.append("ignoring " + ", ".join(args.ignore))
        return _status(*facts)

    def output(self, result: m.ToolResult, call: m.ToolCall, args: Any, ctx: PageContext) -> list[str]:
        found = result.output if isinstance(result.output, m.MatchOutput) else None
        lines = text_output(result, ctx)
        if found is not None and found.count is not None:
            lines += [""] + _status(f"{found.count:,} found", "truncated" if found.truncated else "")
        return lines


# ---------------------------------------------------------------- agents and plans


class AgentView(ToolView):
    """Task (later Agent): the brief, a link to the subagent's page, and its final answer."""

    def key(self, call: m.ToolCall, args: m.TaskInput, ctx: PageContext) -> str:
        return args.description or args.subagent_type

    def input(self, call: m.ToolCall, args: m.TaskInput, ctx: PageContext) -> list[str]:
        facts = [args.subagent_type and f"agent type {args.subagent_type}", args.model and f"model {args.model}"]
        if args.run_in_background:
            facts.append("in the background")
        lines = _status(*facts) + agent_links(call, ctx)
        if args.prompt:
            lines += block("ct-user", "Prompt", prose(args.prompt, line_breaks=True), collapsible="closed")
        return lines

    def output(self, result: m.ToolResult, call: m.ToolCall, args: m.TaskInput, ctx: PageContext) -> list[str]:
        if result.is_error:
            return text_output(result, ctx)
        answer = agent_answer(result.text)
        lines = prose(answer)
        footer = result.text[len(answer) :].strip()
        if footer:
            lines += [""] + meta(inline(footer, limit=400))
        stats = result.output if isinstance(result.output, m.AgentOutput) else None
        if stats is not None:
            lines += [""] + _status(
                stats.status,
                f"{stats.tool_uses} tool uses" if stats.tool_uses is not None else "",
                f"{stats.tokens:,} tokens" if stats.tokens is not None else "",
                f"{stats.duration_ms / 1000:.0f} s" if stats.duration_ms is not None else "",
            )
        return lines


def agent_links(call: m.ToolCall, ctx: PageContext) -> list[str]:
    lines: list[str] = []
    for agent_id in call.agents:
        target = ctx.agent_link(agent_id)
        if target:
            lines += [f"Subagent: {link(ctx.agent_title(agent_id), target)}", ""]
    return lines


class WorkflowView(ToolView):
    """A dynamic workflow: its phases, its agents (each with a page), and its script."""

    def key(self, call: m.ToolCall, args: m.WorkflowInput, ctx: PageContext) -> str:
        return args.description or args.name or args.scriptPath

    def input(self, call: m.ToolCall, args: m.WorkflowInput, ctx: PageContext) -> list[str]:
        lines: list[str] = []
        phases = list(dict.fromkeys(_PHASE.findall(args.script)))
        if phases:
            lines += ["Phases:", ""] + [f"{n}. {inline(p)}" for n, p in enumerate(phases, 1)] + [""]
        if call.agents:
            lines += ["Agents:", ""]
            for agent_id in call.agents:
                target = ctx.agent_link(agent_id)
                lines.append("- " + (link(ctx.agent_title(agent_id), target) if target else inline(agent_id)))
            lines.append("")
        if args.script:
            lines += block("ct-more", "Script", fence(args.script, "javascript"), collapsible="closed")
        # Its name and script's path where the title shows its description, its other inputs.
        titled = next((name for name in ("description", "name", "scriptPath") if getattr(args, name) == self.key(call, args, ctx)), "")
        return _then(lines, other_inputs(call, ("script", titled)))


# A task's status as a checklist's mark (TodoWrite, TaskCreate and TaskUpdate, and the
# reminders of the list Claude Code gives the model).
_MARKS = {"completed": "☑", "in_progress": "◐", "pending": "☐"}


def checklist(tasks: Iterable[tuple[str, str]]) -> list[str]:
    """A list of tasks, each ``(text, status)``: its mark, the one in progress in bold,
    a status of another name after it."""
    lines = []
    for content, status in tasks:
        text = inline(content)
        after = "" if status in _MARKS else f" ({inline(status)})"
        lines.append(f"- {_MARKS.get(status, '☐')} " + (f"**{text}**" if status == "in_progress" else text) + after)
    return lines


class TodoView(ToolView):

    def key(self, call: m.ToolCall, args: m.TodoWriteInput, ctx: PageContext) -> str:
        done = sum(1 for todo in args.todos if todo.status == "completed")
        return f"{done} of {len(args.todos)} done"

    def input(self, call: m.ToolCall, args: m.TodoWriteInput, ctx: PageContext) -> list[str]:
        return checklist((todo.content, todo.status) for todo in args.todos)


class TaskListView(ToolView):
    """TaskCreate and TaskUpdate (2.1's task list, where TodoWrite was): the task as an
    item of a checklist, marked as TodoWrite's are."""

    def key(self, call: m.ToolCall, args: Any, ctx: PageContext) -> str:
        if isinstance(args, m.TaskUpdateInput):
            task = " → ".join(part for part in (f"#{args.taskId}" if str(args.taskId) else "", args.status.replace("_", " ")) if part)
            return " · ".join(part for part in (task, args.subject) if part)
        return args.subject

    def input(self, call: m.ToolCall, args: Any, ctx: PageContext) -> list[str]:
        mark = _MARKS.get(args.status if isinstance(args, m.TaskUpdateInput) else "pending", "☐")
        lines = [f"- {mark} {inline(args.subject)}"] if args.subject else []
        if args.description.strip():
            lines = _then(lines, prose(args.description))
        # (activeForm: "Writing the docs", what the spinner says meanwhile)
        return _then(lines, other_inputs(call, ("taskId", "status", "subject", "description", "activeForm")))


class TaskGetView(ToolView):
    """TaskGet: the task it reads, by its number."""

    def key(self, call: m.ToolCall, args: Any, ctx: PageContext) -> str:
        task = call.input.get("taskId")
        return f"#{task}" if isinstance(task, (str, int)) and not isinstance(task, bool) and str(task).strip() else ""

    def input(self, call: m.ToolCall, args: Any, ctx: PageContext) -> list[str]:
        return other_inputs(call, ("taskId",) if self.key(call, args, ctx) else ())


class ToolSearchView(ToolView):
    """ToolSearch: the query in the title, the other inputs below; its result names the
    tools it made available (``result_extras``)."""

    def key(self, call: m.ToolCall, args: Any, ctx: PageContext) -> str:
        query = call.input.get("query")
        return query if isinstance(query, str) else ""

    def input(self, call: m.ToolCall, args: Any, ctx: PageContext) -> list[str]:
        return other_inputs(call, ("query",))


class PlanView(ToolView):
    """ExitPlanMode: the plan, and whether the user approved it."""

    def key(self, call: m.ToolCall, args: m.PlanInput, ctx: PageContext) -> str:
        plan = call.result.output if call.result and isinstance(call.result.output, m.PlanOutput) else None
        if plan is None or plan.approved is None:
            return "plan"
        return "plan approved" if plan.approved else "plan not approved"

    def input(self, call: m.ToolCall, args: m.PlanInput, ctx: PageContext) -> list[str]:
        return block("ct-assistant", "Plan", prose(args.plan)) if args.plan.strip() else []


class QuestionView(ToolView):
    """AskUserQuestion: the questions, their options, and the answers given."""

    def key(self, call: m.ToolCall, args: m.AskUserQuestionInput, ctx: PageContext) -> str:
        return args.questions[0].question if args.questions else ""

    def input(self, call: m.ToolCall, args: m.AskUserQuestionInput, ctx: PageContext) -> list[str]:
        answers = call.result.output.answers if call.result and isinstance(call.result.output, m.AnswerOutput) else {}
        lines: list[str] = []
        for question in args.questions:
            heading = f"**{inline(question.header)}**: " if question.header else ""
            lines += [heading + inline(question.question), ""]
            for option in question.options:
                description = f" — {inline(option.description)}" if option.description else ""
                lines.append(f"- {inline(option.label)}{description}")
            if question.multiSelect:
                lines += ["", *meta("more than one answer allowed")]
            answer = answers.get(question.question)
            lines += ["", f"Answer: **{inline(answer)}**" if answer else "", ""]
        return lines


# ---------------------------------------------------------------- the web


class WebFetchView(ToolView):
    def key(self, call: m.ToolCall, args: m.WebFetchInput, ctx: PageContext) -> str:
        return args.url

    def input(self, call: m.ToolCall, args: m.WebFetchInput, ctx: PageContext) -> list[str]:
        return meta("Asked: " + inline(args.prompt, limit=600)) + [""] if args.prompt else []

    def output(self, result: m.ToolResult, call: m.ToolCall, args: m.WebFetchInput, ctx: PageContext) -> list[str]:
        if result.is_error:
            return text_output(result, ctx)
        web = result.output if isinstance(result.output, m.WebOutput) else None
        lines = []
        if web is not None:
            code = f"HTTP {web.status_code} {web.status_text}".strip() if web.status_code else ""
            lines += _status(code, f"{web.size:,} bytes" if web.size else "")
        return lines + prose(result.text)


class WebSearchView(ToolView):
    def key(self, call: m.ToolCall, args: m.WebSearchInput, ctx: PageContext) -> str:
        return args.query

    def input(self, call: m.ToolCall, args: m.WebSearchInput, ctx: PageContext) -> list[str]:
        facts = []
        if args.allowed_domains:
            facts.append("only " + ", ".join(args.allowed_domains))
        if args.blocked_domains:
            facts.append("not " + ", ".join(args.blocked_domains))
        return _status(*facts)

    def output(self, result: m.ToolResult, call: m.ToolCall, args: m.WebSearchInput, ctx: PageContext) -> list[str]:
        return text_output(result, ctx) if result.is_error else prose(result.text)


# ---------------------------------------------------------------- others


class SkillView(ToolView):
    def key(self, call: m.ToolCall, args: m.SkillInput, ctx: PageContext) -> str:
        name = args.skill or args.command
        return f"{name} {args.args}".strip()

    def input(self, call: m.ToolCall, args: m.SkillInput, ctx: PageContext) -> list[str]:
        return []


class SlashCommandView(ToolView):
    def key(self, call: m.ToolCall, args: m.SlashCommandInput, ctx: PageContext) -> str:
        return args.command

    def input(self, call: m.ToolCall, args: m.SlashCommandInput, ctx: PageContext) -> list[str]:
        return []


class MonitorView(ToolView):
    """Monitor: a watcher started in the background, whose events come back as messages."""

    def key(self, call: m.ToolCall, args: Any, ctx: PageContext) -> str:
        for name in ("description", "command", "task_id", "shell_id"):
            value = call.input.get(name)
            if isinstance(value, str) and value.strip():
                return value
        return ""

    def input(self, call: m.ToolCall, args: Any, ctx: PageContext) -> list[str]:
        command = call.input.get("command")
        lines = fence(command, "bash") if isinstance(command, str) and command.strip() else []
        return _then(lines, other_inputs(call, ("command", "description")))


class MessageView(ToolView):
    """A message Claude writes to another agent (SendMessage, to a teammate or an agent
    it started; SubagentHandback, an agent's report to the session that started it):
    its text as Markdown, as an answer is shown."""

    def key(self, call: m.ToolCall, args: Any, ctx: PageContext) -> str:
        to = call.input.get("to") or call.input.get("recipient")
        return f"to {to}" if isinstance(to, str) and to.strip() else ""

    def input(self, call: m.ToolCall, args: Any, ctx: PageContext) -> list[str]:
        message = call.input.get("message")
        if not isinstance(message, str) or not message.strip():
            return input_table(call.input)
        return _then(prose(message), other_inputs(call, ("message", "to", "recipient")))


class NoInputView(ToolView):
    """Tools called without arguments worth showing (EnterPlanMode)."""

    def input(self, call: m.ToolCall, args: Any, ctx: PageContext) -> list[str]:
        return input_table(call.input) if call.input else []


class StructuredOutputView(ToolView):
    """An agent's final answer given as structured data."""

    def key(self, call: m.ToolCall, args: Any, ctx: PageContext) -> str:
        return ""

    def input(self, call: m.ToolCall, args: Any, ctx: PageContext) -> list[str]:
        return fence(json.dumps(call.input, indent=2, ensure_ascii=False, default=str), "json")


class ArtifactView(ToolView):
    def key(self, call: m.ToolCall, args: m.ArtifactInput, ctx: PageContext) -> str:
        return args.title or args.path

    def input(self, call: m.ToolCall, args: m.ArtifactInput, ctx: PageContext) -> list[str]:
        lang = language_of(args.path) or {"html": "html", "markdown": "markdown", "md": "markdown"}.get(args.type, "text")
        return other_inputs(call, ("content", "title")) + [""] + ctx.output(args.content, lang)


class McpView(ToolView):
    """A tool of an MCP server, ``mcp__<server>__<tool>``: named as server and tool."""

    def label(self, call: m.ToolCall) -> str:
        server, tool = mcp_name(call.name)
        return f"{tool} (MCP {server})"


def mcp_name(name: str) -> tuple[str, str]:
    """``mcp__server__tool`` as ``(server, tool)``."""
    parts = name.split("__", 2)
    return (parts[1], parts[2]) if len(parts) == 3 else (name, name)


def diff(old: str, new: str) -> str:
    """The lines ``new`` changes in ``old``, as a unified diff; texts too long to compare
    line by line in good time (difflib's time grows with the product of their lengths)
    as replaced whole."""
    before, after = _lines(old), _lines(new)
    if len(before) * len(after) > _COMPARED_AT_MOST:
        return "\n".join([f"@@ -1,{len(before)} +1,{len(after)} @@", *("-" + line for line in before), *("+" + line for line in after)])
    lines = difflib.unified_diff(before, after, lineterm="", n=3)
    return "\n".join(line for line in lines if not line.startswith(("---", "+++")))


_COMPARED_AT_MOST = 4000 * 4000  # lines of the old text times lines of the new


def _lines(text: str) -> list[str]:
    """The lines of a file's text, as an editor counts them: between newlines (a form
    feed or U+2028 is a character of its line, not the end of it)."""
    lines = text.replace("\r\n", "\n").split("\n")
    return lines[:-1] if lines and not lines[-1] else lines


@lru_cache(maxsize=512)
def language_of(path: str) -> str:
    """The highlighting language for a file name, as Pygments knows it ("" when unknown):
    the lexer whose file name pattern matches, the best rated when several do, as
    Pygments chooses, without trying each of its patterns on each name."""
    name = posixpath.basename(path) or "x"
    known = _known_names()
    extension = name.rsplit(".", 1)[1] if "." in name else None
    candidates = [(lexer, "*." + extension) for lexer in known.by_extension.get(extension or "", ())]
    if known.others.match(name):
        candidates += [(lexer, pattern) for lexer, pattern, regex in known.patterns if re.match(regex, name)]
    if not candidates:
        return ""
    if len({lexer for lexer, _ in candidates}) > 1:
        candidates.sort(key=_rating)
    return known.aliases[candidates[-1][0]]


@dataclass(frozen=True)
class _KnownNames:
    by_extension: dict[str, list[str]]  # "py" -> lexers with the pattern "*.py"
    patterns: list[tuple[str, str, str]]  # every other pattern: lexer, pattern, its regular expression
    others: re.Pattern[str]  # matches the names any of those could match
    aliases: dict[str, str]  # lexer -> its first alias


@lru_cache(maxsize=1)
def _known_names() -> _KnownNames:
    from pygments.lexers._mapping import LEXERS

    by_extension: dict[str, list[str]] = {}
    patterns: list[tuple[str, str, str]] = []
    for lexer, (_module, _name, aliases, filenames, _mimetypes) in LEXERS.items():
        for pattern in filenames:
            extension = pattern[2:]
            if pattern.startswith("*.") and extension and not any(c in extension for c in "*?[]."):
                by_extension.setdefault(extension, []).append(lexer)
            else:
                patterns.append((lexer, pattern, fnmatch.translate(pattern)))
    others = re.compile("|".join(regex for _, _, regex in patterns) or "(?!)")
    aliases = {lexer: entry[2][0] if entry[2] else "" for lexer, entry in LEXERS.items()}
    return _KnownNames(by_extension, patterns, others, aliases)


def _rating(candidate: tuple[str, str]) -> tuple[float, str]:
    """Pygments' rating of a lexer for a name it matched: its priority, and a bonus
    for a pattern that is a whole name rather than a wildcard."""
    from pygments.lexers._mapping import LEXERS

    lexer, pattern = candidate
    found = getattr(importlib.import_module(LEXERS[lexer][0]), lexer)
    return found.priority + (0.5 if "*" not in pattern else 0), found.__name__


GENERIC = ToolView()
MCP = McpView()
_SEARCH, _BACKGROUND, _EDIT, _AGENT, _TASKS = SearchView(), BackgroundView(), EditView(), AgentView(), TaskListView()
TOOLS: dict[str, ToolView] = {
    "Bash": BashView(),
    "PowerShell": BashView("powershell"),
    "BashOutput": _BACKGROUND,
    "TaskOutput": _BACKGROUND,
    "KillShell": _BACKGROUND,
    "KillBash": _BACKGROUND,
    "TaskStop": _BACKGROUND,
    "Monitor": MonitorView(),
    "SendMessage": MessageView(),
    "SubagentHandback": MessageView(),
    "ListAgents": NoInputView(),
    "Read": ReadView(),
    "NotebookRead": NotebookReadView(),
    "Write": WriteView(),
    "Edit": _EDIT,
    "MultiEdit": _EDIT,
    "NotebookEdit": NotebookEditView(),
    "Glob": _SEARCH,
    "Grep": _SEARCH,
    "LS": _SEARCH,
    "Task": _AGENT,
    "Agent": _AGENT,
    "Workflow": WorkflowView(),
    "TodoWrite": TodoView(),
    "ToolSearch": ToolSearchView(),
    "TaskCreate": _TASKS,
    "TaskUpdate": _TASKS,
    "TaskGet": TaskGetView(),
    "TaskList": NoInputView(),
    "ExitPlanMode": PlanView(),
    "EnterPlanMode": NoInputView(),
    "AskUserQuestion": QuestionView(),
    "WebFetch": WebFetchView(),
    "WebSearch": WebSearchView(),
    "Skill": SkillView(),
    "SlashCommand": SlashCommandView(),
    "StructuredOutput": StructuredOutputView(),
    "Artifact": ArtifactView(),
}


def view_for(name: str) -> ToolView:
    if name.startswith("mcp__"):
        return MCP
    return TOOLS.get(name, GENERIC)
