"""A conversation as a flat stream of normalized events, in the order its lines were
written: what a prompt said, what Claude answered, each tool call (name, category,
input, targets, command) and each result (ok, exit code, text, error flag).

One message of the content model can give several events (a tool call and its
result); thinking is not an event. Events on a branch the user rewound from carry
a warning saying so.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel

from .. import model as m
from .categories import Category, category, command_of, targets


class _Camel(BaseModel):
    # (Every field is written: the schema says so.)
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, json_schema_serialization_defaults_required=True)


class EventTool(_Camel):
    name: str
    category: Category
    input: dict[str, Any] = Field(default_factory=dict)
    targets: list[str] = Field(default_factory=list)
    command: str | None = None


class EventResult(_Camel):
    ok: bool | None = None
    exit_code: int | None = None
    text: str = ""
    is_error: bool = False


EventType = Literal["user", "assistant", "tool_call", "tool_result", "system", "unknown"]


class Event(_Camel):
    seq: int
    ts: datetime | None = None
    type: EventType
    text: str | None = None
    tool: EventTool | None = None
    result: EventResult | None = None
    tool_use_id: str | None = None
    warnings: list[str] = Field(default_factory=list)


REWOUND = "on a branch the user rewound from"


def events_of(messages: list[m.AnyMessage], cwd: str | None) -> list[Event]:
    found: list[tuple[int, Event]] = []  # (line, event)
    _collect(messages, cwd, found, [])
    found.sort(key=lambda item: item[0])  # stable: events of one line keep their order
    events = [event for _, event in found]
    for seq, event in enumerate(events):
        event.seq = seq
    return events


def _collect(messages: list[m.AnyMessage], cwd: str | None, out: list[tuple[int, Event]], warnings: list[str]) -> None:
    last = out[-1][0] if out else 0
    for message in messages:
        if isinstance(message, m.Branch):
            _collect(message.messages, cwd, out, warnings + [REWOUND])
            continue
        line = message.line if message.line is not None else last
        last = line
        for event in _events(message, cwd):
            event.warnings = warnings + event.warnings
            out.append((line, event))
        if isinstance(message, m.ToolCall) and message.result is not None:
            result = message.result
            result_line = result.line if result.line is not None else line
            out.append((result_line, _result(result, message, warnings)))


def _events(message: m.AnyMessage, cwd: str | None) -> list[Event]:
    ts = message.timestamp
    match message:
        case m.Prompt() | m.Steering() | m.Memory() | m.Interruption() | m.CompactSummary() | m.Instructions():
            return [Event(seq=0, ts=ts, type="user", text=message.text)]
        case m.TeammateMessage():
            return [Event(seq=0, ts=ts, type="user", text=message.text, warnings=[f"from {message.sender}"])]
        case m.SlashCommand():
            return [Event(seq=0, ts=ts, type="user", text=f"{message.name} {message.args}".rstrip())]
        case m.ShellCommand():
            return [Event(seq=0, ts=ts, type="user", text=f"! {message.command}")]
        case m.AssistantText():
            return [Event(seq=0, ts=ts, type="assistant", text=message.text)]
        case m.Thinking():
            return []
        case m.ToolCall():
            command = command_of(message.name, message.input)
            tool = EventTool(
                name=message.name,
                category=category(message.name, command),
                input=message.input,
                targets=targets(message.input, cwd),
                command=command,
            )
            return [Event(seq=0, ts=ts, type="tool_call", tool=tool, tool_use_id=message.id or None)]
        case m.ToolResult():
            return [_result(message, None, ["no tool call for this result"])]
        case m.CommandOutput():
            return [Event(seq=0, ts=ts, type="system", text=_joined(message.stdout, message.stderr))]
        case m.TaskNotification():
            return [Event(seq=0, ts=ts, type="system", text=message.summary or message.result)]
        case m.Reminder():
            return [Event(seq=0, ts=ts, type="system", text=message.text)]
        case m.Attached():
            return [Event(seq=0, ts=ts, type="system", text=_joined(message.heading, message.content))]
        case m.Compaction():
            return [Event(seq=0, ts=ts, type="system", text="compaction" + (f" ({message.trigger})" if message.trigger else ""))]
        case m.ApiError():
            return [Event(seq=0, ts=ts, type="system", text=message.text, warnings=["API error"])]
        case m.SystemNote():
            return [Event(seq=0, ts=ts, type="system", text=_joined(message.title, message.text))]
        case m.Unknown():
            text = json.dumps(message.data, ensure_ascii=False, default=str)
            return [Event(seq=0, ts=ts, type="unknown", text=text, warnings=[f"unknown entry: {message.type}"])]
    return [Event(seq=0, ts=ts, type="unknown", warnings=[f"unexpected message: {message.kind}"])]


def _result(result: m.ToolResult, call: m.ToolCall | None, warnings: list[str]) -> Event:
    # A command's exit code: of the command run, or of a background one polled (BashOutput).
    exit_code = result.output.exit_code if isinstance(result.output, (m.ShellOutput, m.BackgroundOutput)) else None
    ok = not result.is_error and exit_code in (0, None)
    event_result = EventResult(ok=ok, exit_code=exit_code, text=result.text, is_error=result.is_error)
    return Event(
        seq=0,
        ts=result.timestamp,
        type="tool_result",
        result=event_result,
        tool_use_id=result.tool_use_id or (call.id if call else None),
        warnings=list(warnings),
    )


def _joined(*parts: str) -> str:
    return "\n".join(part for part in parts if part)
