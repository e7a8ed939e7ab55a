"""The content model: what a session says, independent of JSONL and of Markdown.

The build step fills it from raw entries; the renderer, the statistics and the
JSON export all read it. Every message kind is its own class with a ``kind``
tag, so that a ``match`` on the class, or a registry keyed by ``kind``, can
dispatch without string conventions.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field


class Node(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Image(Node):
    media_type: str = "image/png"
    data: str = ""  # base64, as in the transcript
    url: str | None = None


class Usage(Node):
    input: int = 0
    output: int = 0
    cache_creation: int = 0
    cache_read: int = 0

    def add(self, other: Usage) -> None:
        self.input += other.input
        self.output += other.output
        self.cache_creation += other.cache_creation
        self.cache_read += other.cache_read


class Message(Node):
    """What every message carries: where it came from and where it can be linked to."""

    uuid: str | None = None
    timestamp: datetime | None = None
    line: int | None = None  # line number in the source file
    anchor: str = ""  # stable, unique within the page it renders on


class Prompt(Message):
    """Text the user typed (or pasted), with any images pasted with it."""

    kind: Literal["prompt"] = "prompt"
    text: str = ""
    images: list[Image] = Field(default_factory=list)


class AssistantText(Message):
    kind: Literal["assistant_text"] = "assistant_text"
    text: str = ""
    model: str | None = None


class Thinking(Message):
    kind: Literal["thinking"] = "thinking"
    text: str = ""
    redacted: bool = False


class ToolResult(Message):
    kind: Literal["tool_result"] = "tool_result"
    tool_use_id: str = ""
    text: str = ""
    images: list[Image] = Field(default_factory=list)
    is_error: bool = False
    data: Any = None  # the structured result Claude Code recorded beside it (toolUseResult)


class ToolCall(Message):
    kind: Literal["tool_call"] = "tool_call"
    id: str = ""
    name: str = ""
    input: dict[str, Any] = Field(default_factory=dict)
    result: ToolResult | None = None
    agents: list[str] = Field(default_factory=list)  # ids of the subagents this call started


class SystemNote(Message):
    kind: Literal["system"] = "system"
    level: str = "info"  # info, warning, error
    subtype: str | None = None
    title: str = ""
    text: str = ""


class Unknown(Message):
    """An entry or block of a type this version does not know, kept whole."""

    kind: Literal["unknown"] = "unknown"
    type: str = ""
    data: dict[str, Any] = Field(default_factory=dict)


AnyMessage = Annotated[
    Union[Prompt, AssistantText, Thinking, ToolCall, ToolResult, SystemNote, Unknown],
    Field(discriminator="kind"),
]


class Agent(Node):
    """A subagent: a conversation of its own, started by a tool call."""

    id: str
    agent_type: str | None = None
    description: str | None = None
    parent: str | None = None  # id of the agent that started it; None for the session itself
    tool_use_id: str | None = None  # the Task/Agent call that started it
    source: str | None = None  # src_uri of its file; None for lines inside the session file
    messages: list[AnyMessage] = Field(default_factory=list)

    @property
    def title(self) -> str:
        label = self.agent_type or "Agent"
        return f"{label} · {self.description}" if self.description else f"{label} {self.id}"


class Session(Node):
    id: str
    source: str  # src_uri of the session file
    title: str = ""
    started: datetime | None = None
    ended: datetime | None = None
    cwd: str | None = None
    branch: str | None = None
    versions: list[str] = Field(default_factory=list)
    models: list[str] = Field(default_factory=list)
    messages: list[AnyMessage] = Field(default_factory=list)
    agents: list[Agent] = Field(default_factory=list)
    orphan_agent: bool = False  # this is an agent file whose session was not found

    def agent(self, agent_id: str) -> Agent | None:
        return next((a for a in self.agents if a.id == agent_id), None)
