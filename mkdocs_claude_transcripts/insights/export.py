"""A session as JSON, in the shape of a transcript API: the session's messages with
typed content blocks, its subagents with theirs, its event stream and its
statistics. Made from the content model after redaction, like the pages.

Messages are those of the content model: a response streamed over several lines is
one message, and a tool call and its result are two (an assistant message holding a
``ToolUseBlock``, then a user message holding a ``ToolResultBlock``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from datetime import datetime
from functools import lru_cache
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter
from pydantic.alias_generators import to_camel

from .. import __version__
from .. import model as m
from .events import Event, events_of
from .stats import Stats

SCHEMA_VERSION = 1
GENERATOR = "mkdocs-claude-transcripts"  # what every session.json's "generator" starts with, whatever the version
# How a session.json this package wrote starts, of any version (its fields in order, as ``to_json`` writes them).
_WRITTEN_START = re.compile(rb'^\{"schemaVersion":[0-9]+,"generator":"' + re.escape(GENERATOR.encode()) + rb' ')


class _Camel(BaseModel):
    # (Every field is written: the schema says so.)
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, json_schema_serialization_defaults_required=True)


class Source(_Camel):
    title: str = ""
    url: str = ""
    cited_text: str = ""


class TextBlock(_Camel):
    typename: Literal["TextBlock"] = Field("TextBlock", alias="__typename")
    text: str
    sources: list[Source] = Field(default_factory=list, description="the sources an answer cites (web pages, parts of documents)")


class ToolUseBlock(_Camel):
    typename: Literal["ToolUseBlock"] = Field("ToolUseBlock", alias="__typename")
    id: str
    name: str
    input: dict[str, Any] = Field(default_factory=dict)


class Document(_Camel):
    media_type: str = ""
    title: str = ""
    size: int = Field(0, description="bytes")
    text: str = Field("", description="a text document's text; a PDF's bytes are not exported")


class ToolResultBlock(_Camel):
    typename: Literal["ToolResultBlock"] = Field("ToolResultBlock", alias="__typename")
    tool_use_id: str
    content: str
    is_error: bool = False
    tool_references: list[str] = Field(default_factory=list, description="the tools it made available (a tool search)")
    documents: list[Document] = Field(default_factory=list, description="the documents it read")


class ThinkingBlock(_Camel):
    typename: Literal["ThinkingBlock"] = Field("ThinkingBlock", alias="__typename")
    thinking: str = Field("", description="empty when Claude Code did not record it")


ContentBlock = Annotated[TextBlock | ToolUseBlock | ToolResultBlock | ThinkingBlock, Field(discriminator="typename")]


class TranscriptMessage(_Camel):
    type: str = Field(description="user, assistant, system, or the type of an entry this version does not know")
    kind: str = Field(description="the kind of message in the plugin's content model (prompt, tool_call, ...)")
    role: Literal["user", "assistant"] | None = None
    uuid: str | None = None
    parent_uuid: str | None = None
    timestamp: datetime | None = None
    content: str = Field("", description="the text of the message; JSON of its blocks when it holds no text")
    is_sidechain: bool = False
    rewound: bool = Field(False, description="on a branch the user rewound from")
    content_blocks: list[ContentBlock] = Field(default_factory=list)


class Subagent(_Camel):
    id: str
    agent_type: str | None = None
    description: str | None = None
    parent: str | None = Field(None, description="id of the subagent that started it; null for the session")
    tool_use_id: str | None = None
    messages: list[TranscriptMessage] = Field(default_factory=list)
    events: list[Event] = Field(default_factory=list)
    stats: Stats


class SessionExport(_Camel):
    schema_version: int = SCHEMA_VERSION
    generator: str = f"{GENERATOR} {__version__}"
    id: str
    title: str
    cwd: str | None = None
    git_branch: str | None = None
    versions: list[str] = Field(default_factory=list)
    models: list[str] = Field(default_factory=list)
    messages: list[TranscriptMessage] = Field(default_factory=list, description="the session's own messages")
    subagents: list[Subagent] = Field(default_factory=list)
    events: list[Event] = Field(default_factory=list)
    stats: Stats = Field(description="the session's own messages; each subagent has its own")


def export(session: m.Session, figures: Mapping[str | None, Stats], orphan_id: str | None = None) -> SessionExport:
    """The export of ``session``, with the statistics of its conversation (``None``)
    and of its subagents (by id). A subagent whose session is not in the site
    (``orphan_id``) is exported as the only subagent of a session with no messages."""
    subagents = [_subagent(session, agent, figures[agent.id]) for agent in session.agents]
    own, own_stats = session.messages, figures[None]
    if session.orphan_agent:
        orphan = m.Agent(id=orphan_id or session.id, messages=session.messages, responses=session.responses)
        subagents.insert(0, _subagent(session, orphan, own_stats))
        own, own_stats = [], Stats()
    return SessionExport(
        id=session.id,
        title=session.title,
        cwd=session.cwd,
        git_branch=session.branch,
        versions=session.versions,
        models=session.models,
        messages=messages_of(own, sidechain=False),
        subagents=subagents,
        events=events_of(own, session.cwd),
        stats=own_stats,
    )


def to_json(exported: SessionExport) -> bytes:
    return _exports().dump_json(exported, by_alias=True)


def written_here(start: bytes) -> bool:
    """Whether a file whose first bytes are ``start`` is a session.json this package
    wrote (of any version)."""
    return _WRITTEN_START.match(start) is not None


@lru_cache(maxsize=1)
def _exports() -> TypeAdapter[SessionExport]:
    return TypeAdapter(SessionExport)


def schema() -> str:
    """The JSON Schema of ``session.json``."""
    data = SessionExport.model_json_schema(by_alias=True, mode="serialization")
    data = {"$schema": "https://json-schema.org/draft/2020-12/schema", **data, "title": "session.json"}
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def _subagent(session: m.Session, agent: m.Agent, stats: Stats) -> Subagent:
    return Subagent(
        id=agent.id,
        agent_type=agent.agent_type,
        description=agent.description,
        parent=agent.parent,
        tool_use_id=agent.tool_use_id,
        messages=messages_of(agent.messages, sidechain=True),
        events=events_of(agent.messages, session.cwd),
        stats=stats,
    )


# ---------------------------------------------------------------- messages

_USER = (m.Prompt, m.Steering, m.SlashCommand, m.Instructions, m.ShellCommand, m.Memory, m.Interruption,
         m.TeammateMessage, m.CompactSummary)  # fmt: skip


def messages_of(messages: list[m.AnyMessage], sidechain: bool, rewound: bool = False) -> list[TranscriptMessage]:
    out: list[TranscriptMessage] = []
    for message in messages:
        if isinstance(message, m.Branch):
            out += messages_of(message.messages, sidechain, rewound=True)
            continue
        out += _transcript_messages(message, sidechain, rewound)
    return out


def _transcript_messages(message: m.AnyMessage, sidechain: bool, rewound: bool) -> list[TranscriptMessage]:
    def made(type_: str, role: str | None, blocks: list[Any], text: str = "", of: m.Message = message) -> TranscriptMessage:
        content = text or (json.dumps([b.model_dump(by_alias=True) for b in blocks], ensure_ascii=False) if blocks else "")
        return TranscriptMessage(
            type=type_,
            kind=of.kind,  # type: ignore[attr-defined]
            role=role,  # type: ignore[arg-type]
            uuid=of.uuid,
            parent_uuid=of.parent_uuid,
            timestamp=of.timestamp,
            content=content,
            is_sidechain=sidechain,
            rewound=rewound,
            content_blocks=blocks,
        )

    if isinstance(message, _USER):
        text = _user_text(message)
        # What the IDE told Claude with a prompt, each note a block of its own, as in the transcript.
        notes = [note.text for note in message.ide if note.text] if isinstance(message, m.Prompt) else []
        texts = [part for part in (text, *notes) if part]
        return [made("user", "user", [TextBlock(text=part) for part in texts], "\n\n".join(texts))]
    if isinstance(message, m.AssistantText):
        sources = [Source(title=s.title, url=s.url, cited_text=s.cited_text) for s in message.sources]
        return [made("assistant", "assistant", [TextBlock(text=message.text, sources=sources)], message.text)]
    if isinstance(message, m.Thinking):
        return [made("assistant", "assistant", [ThinkingBlock(thinking=message.text)])]
    if isinstance(message, m.ToolCall):
        out = [made("assistant", "assistant", [ToolUseBlock(id=message.id, name=message.name, input=message.input)])]
        if message.result is not None:
            out.append(_result(made, message.result, message.id))
        return out
    if isinstance(message, m.ToolResult):
        return [_result(made, message, message.tool_use_id)]
    if isinstance(message, m.Unknown):
        return [made(message.type or "unknown", None, [], json.dumps(message.data, ensure_ascii=False, default=str))]
    return [made("system", None, [], _system_text(message))]


def _result(made: Any, result: m.ToolResult, tool_use_id: str) -> TranscriptMessage:
    documents = [Document(media_type=d.media_type, title=d.title, size=d.size, text=d.text) for d in result.documents]
    block = ToolResultBlock(tool_use_id=tool_use_id, content=result.text, is_error=result.is_error, tool_references=result.tools, documents=documents)
    return made("user", "user", [block], of=result)


def _user_text(message: m.AnyMessage) -> str:
    if isinstance(message, m.SlashCommand):
        return "\n\n".join(part for part in (f"{message.name} {message.args}".rstrip(), message.status, message.text, message.stdout, message.stderr) if part)
    if isinstance(message, m.ShellCommand):
        return "\n\n".join(part for part in (f"! {message.command}", message.stdout, message.stderr) if part)
    if isinstance(message, m.TeammateMessage):
        return message.text
    return getattr(message, "text", "")


def _system_text(message: m.AnyMessage) -> str:
    if isinstance(message, m.CommandOutput):
        return "\n".join(part for part in (message.stdout, message.stderr) if part)
    if isinstance(message, m.TaskNotification):
        facts = {"task": message.task_id, "tool call": message.tool_use_id, "status": message.status, "output file": message.output_file}
        return "\n\n".join(part for part in (message.summary, _facts(facts | message.details), message.result, message.note) if part)
    if isinstance(message, m.Compaction):
        return "Conversation compacted" + (f" ({message.trigger})" if message.trigger else "")
    if isinstance(message, m.SystemNote):  # its details too: a hook's commands, the fields of a kind not known
        return "\n\n".join(part for part in (message.title, message.text, _facts(message.details)) if part)
    if isinstance(message, m.Attached):
        return "\n\n".join(part for part in (message.heading, message.content) if part)
    if isinstance(message, m.Reminder):  # its tasks, a line each: the task and its status
        return "\n\n".join(part for part in ("\n".join(f"{task.content} ({task.status})" for task in message.tasks), message.text) if part)
    return getattr(message, "text", "")


def _facts(facts: Mapping[str, Any]) -> str:
    """Named facts, a line each (``status: completed``), those with a value."""
    return "\n".join(f"{name}: {value}" for name, value in facts.items() if value not in (None, ""))
