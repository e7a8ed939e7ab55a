"""Every kind of message a session holds, each its own class with a ``kind`` tag."""

from __future__ import annotations

import base64
import binascii
import re
from datetime import datetime
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field

from .tools import AnyOutput, Todo


def kind_title(kind: str) -> str:
    """A kind of thing (a system entry's subtype, an attachment's type) as the title of
    its block: its words, the first capitalized (``api_error``: "Api error"). A kind
    that is not words of letters joined by ``_`` is kept as written: the redaction
    that follows finds a secret by its letters (``sk_live_...``,
    ``aws_secret_access_key=...``), which spaces or a capital would hide from it."""
    if not _KIND_WORDS.fullmatch(kind):
        return kind
    words = kind.replace("_", " ")
    return words[:1].upper() + words[1:]


_KIND_WORDS = re.compile(r"[a-z]+(?:_[a-z]+)*")


class Node(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Image(Node):
    media_type: str = "image/png"
    data: str = ""  # base64, as in the transcript
    url: str | None = None
    label: str = ""  # "Image #2" when the text refers to it by that name

    def decoded(self) -> bytes | None:
        """The image's bytes; None where its data is not base64 (or there is none)."""
        try:
            return base64.b64decode(self.data, validate=True) or None
        except (binascii.Error, ValueError):
            return None


class Document(Node):
    """A document a tool read (a PDF): its kind and size; a text document's text."""

    media_type: str = ""
    title: str = ""
    size: int = 0  # bytes
    text: str = ""  # a text document's; a PDF's bytes are not kept

    @property
    def facts(self) -> str:
        """Its kind and size: ``application/pdf, 1,234 bytes``."""
        return f"{self.media_type or 'a document'}, {self.size:,} bytes"


class Usage(Node):
    input: int = 0
    output: int = 0
    cache_creation: int = 0
    cache_read: int = 0
    thinking: int = 0  # of the output, where Claude Code records it (2.1.2xx)

    def add(self, other: Usage) -> None:
        self.input += other.input
        self.output += other.output
        self.cache_creation += other.cache_creation
        self.cache_read += other.cache_read
        self.thinking += other.thinking


class Message(Node):
    """What every message carries: where it came from and where it can be linked to."""

    uuid: str | None = None
    parent_uuid: str | None = None
    timestamp: datetime | None = None
    line: int | None = None  # line number in the source file
    anchor: str = ""  # stable, unique within the session


# ---------------------------------------------------------------- the user's side


class IdeNote(Node):
    """What the IDE told Claude alongside a prompt."""

    kind: Literal["opened_file", "selection", "diagnostics"]
    text: str = ""


class Prompt(Message):
    """Text the user typed (or pasted), with any images pasted with it, and the
    notes Claude Code attached to it (IDE context, system reminders)."""

    kind: Literal["prompt"] = "prompt"
    text: str = ""
    images: list[Image] = Field(default_factory=list)
    ide: list[IdeNote] = Field(default_factory=list)
    reminders: list[str] = Field(default_factory=list)


class Steering(Message):
    """A prompt typed while Claude was working, delivered mid-turn."""

    kind: Literal["steering"] = "steering"
    text: str = ""
    images: list[Image] = Field(default_factory=list)
    sent: bool = True  # False: queued, and the session ended before it was sent


class Response(Node):
    """One API response, which may be written over several lines and shown as
    several messages (text, thinking, tool calls) sharing its id."""

    model: str | None = None
    usage: Usage = Field(default_factory=Usage)


class SlashCommand(Message):
    """A slash command as the user typed it: ``/model opus``."""

    kind: Literal["slash_command"] = "slash_command"
    name: str = ""
    args: str = ""
    status: str = ""  # what Claude Code showed while it ran ("init is analyzing…")
    text: str = ""  # what the command put in the conversation, if anything
    stdout: str = ""  # what it printed, when its output follows it
    stderr: str = ""


class CommandOutput(Message):
    """What a local command (a slash command run by Claude Code itself) printed."""

    kind: Literal["command_output"] = "command_output"
    stdout: str = ""
    stderr: str = ""


class Instructions(Message):
    """Text Claude Code added in the user's name: a slash command's expanded prompt,
    a skill's body, a caveat about local commands."""

    kind: Literal["instructions"] = "instructions"
    text: str = ""
    caveat: bool = False


class ShellCommand(Message):
    """Bash mode: a command the user ran with ``!``, and what it printed."""

    kind: Literal["shell_command"] = "shell_command"
    command: str = ""
    stdout: str = ""
    stderr: str = ""


class Memory(Message):
    """A note the user asked Claude to remember (``#``)."""

    kind: Literal["memory"] = "memory"
    text: str = ""


class TaskNotification(Message):
    """Claude Code's notice that a background task (an agent, a shell) finished."""

    kind: Literal["task_notification"] = "task_notification"
    task_id: str = ""
    tool_use_id: str = ""
    status: str = ""
    summary: str = ""
    result: str = ""
    output_file: str = ""
    details: dict[str, str] = Field(default_factory=dict)  # other fields, such as usage
    note: str = ""  # text Claude Code wrote after the notification
    agents: list[str] = Field(default_factory=list)  # the subagents it is about, when known


class Interruption(Message):
    kind: Literal["interruption"] = "interruption"
    text: str = ""


class TeammateMessage(Message):
    """A message from another agent of a team."""

    kind: Literal["teammate"] = "teammate"
    sender: str = ""
    text: str = ""


class Reminder(Message):
    """A ``<system-reminder>`` Claude Code sent on its own, not attached to a prompt;
    the tasks of a reminder of the todo or task list."""

    kind: Literal["reminder"] = "reminder"
    text: str = ""
    tasks: list[Todo] = Field(default_factory=list)


class Attached(Message):
    """What Claude Code attached to the conversation on its own (an ``attachment``
    entry): a file the user mentioned with ``@``, one edited outside Claude Code, lines
    selected or a file opened in the IDE, a memory file (CLAUDE.md, a rule), a plan, a
    folder's listing; the file's path and, when recorded, its text."""

    kind: Literal["attached"] = "attached"
    what: str = ""  # the attachment's type: file, edited_text_file, nested_memory, ...
    path: str = ""
    text: str = ""
    start_line: int | None = None  # the line of the file ``text`` starts at, when known
    images: list[Image] = Field(default_factory=list)  # an image mentioned
    document: Document | None = None  # a document given with a prompt (its text, if any, is its own)

    @property
    def label(self) -> str:
        """What it is attached as: its path; a document, by its title, kind and size."""
        doc = self.document
        if doc is None:
            return self.path
        facts = doc.facts + ("" if doc.text else ", not shown")
        return f"{doc.title} ({facts})" if doc.title else facts

    @property
    def content(self) -> str:
        """Its text, or its document's."""
        return self.document.text if self.document is not None else self.text

    @property
    def heading(self) -> str:
        """What it is, and what it is attached as: ``file src/app.py``."""
        return f"{self.what} {self.label}".strip()


class CompactSummary(Message):
    """The summary that stands for the conversation before a compaction."""

    kind: Literal["compact_summary"] = "compact_summary"
    text: str = ""


class Compaction(Message):
    """Where the conversation was compacted."""

    kind: Literal["compaction"] = "compaction"
    trigger: str = ""
    tokens_before: int | None = None
    tokens_after: int | None = None
    micro: bool = False  # a microcompaction: old tool results cleared, nothing summarised


# ---------------------------------------------------------------- Claude's side


class Source(Node):
    """A source a text cites (``citations``): a web page, or a part of a document."""

    title: str = ""
    url: str = ""
    cited_text: str = ""


class AssistantText(Message):
    kind: Literal["assistant_text"] = "assistant_text"
    text: str = ""
    response_id: str | None = None
    sources: list[Source] = Field(default_factory=list)


class Thinking(Message):
    kind: Literal["thinking"] = "thinking"
    text: str = ""
    redacted: bool = False
    response_id: str | None = None


class ApiError(Message):
    kind: Literal["api_error"] = "api_error"
    text: str = ""
    status: int | None = None
    retry: str = ""  # "attempt 2 of 10", when Claude Code retried


class ToolResult(Message):
    kind: Literal["tool_result"] = "tool_result"
    tool_use_id: str = ""
    text: str = ""
    images: list[Image] = Field(default_factory=list)
    tools: list[str] = Field(default_factory=list)  # the tools it made available (a tool search)
    documents: list[Document] = Field(default_factory=list)
    is_error: bool = False
    output: AnyOutput | None = None  # what Claude Code recorded about the result, typed
    full: bool = False  # text comes from <session>/tool-results/, not the truncated preview
    again: bool = False  # a further result of a call shown before it, which says something else


class ToolCall(Message):
    kind: Literal["tool_call"] = "tool_call"
    id: str = ""
    name: str = ""
    input: dict[str, Any] = Field(default_factory=dict)
    result: ToolResult | None = None
    agents: list[str] = Field(default_factory=list)  # ids of the subagents this call started
    response_id: str | None = None


# ---------------------------------------------------------------- system


class SystemNote(Message):
    """A notice from Claude Code: by level, or of a known subtype (hooks, recaps,
    local commands, timings)."""

    kind: Literal["system"] = "system"
    level: str = "info"  # info, warning, error
    subtype: str | None = None
    title: str = ""
    text: str = ""
    details: dict[str, Any] = Field(default_factory=dict)  # structured extras, shown as a table


class Unknown(Message):
    """An entry or block of a type this version does not know, kept whole."""

    kind: Literal["unknown"] = "unknown"
    type: str = ""
    data: dict[str, Any] = Field(default_factory=dict)


class Branch(Message):
    """Messages left behind when the user rewound the conversation and went on
    from an earlier point: shown where they happened, apart from the main line."""

    kind: Literal["branch"] = "branch"
    messages: list[AnyMessage] = Field(default_factory=list)


AnyMessage = Annotated[
    Union[
        Prompt,
        Steering,
        SlashCommand,
        CommandOutput,
        Instructions,
        ShellCommand,
        Memory,
        TaskNotification,
        Interruption,
        TeammateMessage,
        Reminder,
        Attached,
        CompactSummary,
        Compaction,
        AssistantText,
        Thinking,
        ApiError,
        ToolCall,
        ToolResult,
        SystemNote,
        Unknown,
        Branch,
    ],
    Field(discriminator="kind"),
]

Branch.model_rebuild()
