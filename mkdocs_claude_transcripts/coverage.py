"""Which kinds of entry, block, system note, attachment and tool the transcripts
hold, and which renderer shows each: the coverage report.

``CATALOGUE`` lists the kinds the reference catalogue and the format notes name.
A kind seen in the transcripts and named there must have a form of its own; the
report's last line counts the occurrences of named kinds that fell to the
generic form (an entry that did not match its type's shape, a tool input that
did not match its tool's, an attachment carrying a file whose fields did not).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

from . import model as m
from .build.conversation import (
    ATTACHED,
    ATTACHMENT_TYPES,
    CONTEXT_KINDS,
    NOTICE,
    SYSTEM_SUBTYPES,
    attached_of,
    odd_reminder,
)
from .inputs import UsageError, files_under
from .redact import Redactor
from .render.tools import GENERIC, view_for
from .report import FileReport, Level, Problem, condensed
from .transcript.census import Census
from .transcript.discovery import sniff_file
from .transcript.reader import read_entries
from .transcript.types import KNOWN_TYPES, METADATA_TYPES

CATALOGUE: dict[str, frozenset[str]] = {
    "entry": KNOWN_TYPES,
    "block": frozenset({"text", "thinking", "redacted_thinking", "tool_use", "tool_result", "image", "document", "tool_reference"}),
    "system": frozenset(SYSTEM_SUBTYPES) | {NOTICE},
    "attachment": frozenset(
        {"queued_command", "hook_success", "hook_system_message", "hook_additional_context", "task_reminder", "skill_listing", *ATTACHED, *CONTEXT_KINDS}
    ),
    "tool": frozenset(
        {
            "Bash", "Read", "Write", "Edit", "MultiEdit", "Glob", "Grep", "LS", "Task", "Agent", "TodoWrite",
            "WebFetch", "WebSearch", "NotebookEdit", "BashOutput", "KillBash", "KillShell", "TaskOutput",
            "TaskStop", "AskUserQuestion", "ExitPlanMode", "EnterPlanMode", "Skill", "SlashCommand",
            "Workflow", "StructuredOutput", "Artifact", "Monitor", "TaskCreate", "TaskUpdate", "PowerShell", "ToolSearch",
        }
    ),  # fmt: skip
}

_ENTRY_FORMS = {
    "user": "prompts, tool results and notes in the user's name",
    "assistant": "answers, thinking and tool calls",
    "system": "system notes",
    "attachment": "attachments",
    "queue-operation": "steering (once per prompt)",
    "summary": "page title",
    "ai-title": "page title",
    "custom-title": "page title",
    "progress": "metadata (counted)",
    "marble-origami-commit": "a closed note, Context collapsed",
}
_BLOCK_FORMS = {
    "text": "text",
    "thinking": "Thinking",
    "redacted_thinking": "Thinking (redacted)",
    "tool_use": "ToolCall",
    "server_tool_use": "ToolCall",
    "tool_result": "ToolResult, inside its call",
    "image": "Image, written as a file",
    "document": "with its prompt or in its ToolResult: its kind and size (a text document, its text)",
    "tool_reference": "ToolResult, the tools it made available",
}


@dataclass
class Line:
    category: str
    name: str
    count: int
    shown_by: str | None  # None: the generic form
    generic: int = 0  # occurrences shown generically (odd shape), even when the kind has a form


@dataclass
class Coverage:
    lines: list[Line] = field(default_factory=list)
    files: int = 0
    # What could not be read as written (a line not JSON, a field of an unexpected
    # type): what such a line holds is not all on the page, whatever its kind's form.
    problems: list[Problem] = field(default_factory=list)

    @property
    def known_generic(self) -> int:
        total = 0
        for line in self.lines:
            named = line.name in CATALOGUE[line.category] or (line.category == "tool" and line.name.startswith("mcp__"))
            if named:
                total += line.count if line.shown_by is None else line.generic
        return total

    def text(self) -> str:
        rows = [f"{'kind':<11}{'name':<42}{'count':>8}  shown by"]
        for line in self.lines:
            form = line.shown_by or "generic"
            if line.shown_by and line.generic:
                form += f" ({line.generic} generic: odd shape)"
            rows.append(f"{line.category:<11}{line.name:<42}{line.count:>8}  {form}")
        rows.append(f"files: {self.files}")
        rows.append(f"problems: {len(self.problems)}")
        rows += [f"  {problem}" for problem in condensed(self.problems, "convert --report")]
        rows.append(f"known shown generically: {self.known_generic}")
        return "\n".join(rows)


def coverage(paths: Iterable[str]) -> Coverage:
    census = Census(fits=_fits, attachment_fits=_attachment_fits)
    redactor = Redactor()
    result = Coverage()
    for path in transcript_files(paths):
        result.files += 1
        report = FileReport(path)
        for _, entry in read_entries(path, report):
            census.add(entry)
        # (A problem may quote what it could not read: redacted, as the build's log has it.)
        result.problems += [replace(p, message=redactor.text(p.message)) for p in report.problems if p.level is Level.WARNING]
    for name, count in census.entries.most_common():
        form = _ENTRY_FORMS.get(name) or ("metadata (counted)" if name in METADATA_TYPES else None)
        result.lines.append(Line("entry", name, count, form, census.unreadable_entries[name] if form else 0))
    for name, count in census.blocks.most_common():
        form = _BLOCK_FORMS.get(name)
        result.lines.append(Line("block", name, count, form, census.loose_blocks[name] if form else 0))
    for name, count in census.systems.most_common():
        handler = SYSTEM_SUBTYPES.get(name)
        result.lines.append(Line("system", name, count, handler.strip("_") if handler else None))
    for name, count in census.attachments.most_common():
        handler = ATTACHMENT_TYPES.get(name) or ("_hook" if name.startswith("hook_") else None)
        result.lines.append(Line("attachment", name, count, handler.strip("_") if handler else None, census.odd_attachments[name] if handler else 0))
    for name, count in census.tools.most_common():
        view = view_for(name)
        form = None if view is GENERIC else type(view).__name__
        result.lines.append(Line("tool", name, count, form, census.odd_inputs[name] if form else 0))
    return result


def transcript_files(paths: Iterable[str]) -> Iterator[str]:
    for path in paths:
        if not os.path.exists(path):
            raise UsageError(f"no such file or folder: {path}")
        candidates = [path] if os.path.isfile(path) else [item for _, item in files_under(Path(path))]
        for candidate in candidates:
            # (a pipe named as a transcript would be waited on for ever)
            if candidate.endswith(".jsonl") and os.path.isfile(candidate) and sniff_file(candidate) is not None:
                yield candidate


def _attachment_fits(kind: str, data: dict) -> bool:
    """Whether an attachment that carries a file (or lines of one, or a path), or a
    reminder, has the fields Claude Code writes: one that has not is shown with its
    fields, generically."""
    return (kind not in ATTACHED or attached_of(data) is not None) and not odd_reminder(data)


def _fits(name: str, value: object) -> bool:
    if name not in m.INPUTS:
        return True
    return isinstance(value, dict) and m.typed_input(name, value) is not None
