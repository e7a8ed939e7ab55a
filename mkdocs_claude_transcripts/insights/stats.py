"""Statistics of a conversation (a session's own messages, or a subagent's), read
from the content model.

Counting rules, the same everywhere they are shown or exported:

* a tool call counts once per tool-use id, wherever it sits in the conversation
  (on the main line or on a branch the user rewound from);
* a call is an error when a result for it says so (``is_error``);
* tokens count once per API response (``message.id``): a response written over
  several lines carries its usage on each, growing as it streams, and the largest
  of each figure is kept;
* a session's figures are its own; each subagent has figures of its own.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field

from .. import model as m
from ..listing import Row
from .categories import Category, category, command_of, targets

READS = frozenset({"read", "notebookread"})
EDITS = frozenset({"edit", "multiedit", "write", "notebookedit"})
TURNS = (m.Prompt, m.SlashCommand, m.ShellCommand, m.Memory)


class _Figures(BaseModel):
    model_config = ConfigDict(json_schema_serialization_defaults_required=True)  # (every field is written)


class Count(_Figures):
    calls: int = 0
    errors: int = 0


class CategoryCount(Count):
    tools: list[str] = Field(default_factory=list, description="the tools called in this category")


class Tokens(_Figures):
    input: int = 0
    output: int = 0
    cache_creation: int = 0
    cache_read: int = 0
    thinking: int = 0  # of the output, those spent thinking, where Claude Code records it (2.1.2xx)

    @property
    def total(self) -> int:
        return self.input + self.output + self.cache_creation + self.cache_read


class Verification(_Figures):
    """A shell command that tests, lints, builds or type-checks, and how it went."""

    command: str
    passed: bool | None = None  # None: no result was recorded (or not yet: a command in the background)
    exit_code: int | None = None
    anchor: str = ""


class Stats(_Figures):
    started: datetime | None = None
    ended: datetime | None = None
    duration_seconds: float | None = None
    turns: int = Field(0, description="prompts, slash commands, shell commands and memories the user typed")
    messages: int = Field(0, description="messages shown, those on rewound branches included")
    tools: dict[str, Count] = Field(default_factory=dict, description="by tool name")
    categories: dict[Category, CategoryCount] = Field(default_factory=dict, description="by tool category")
    tool_calls: int = 0
    errors: int = 0
    tokens: Tokens = Field(default_factory=Tokens)
    files_read: dict[str, int] = Field(default_factory=dict, description="path -> reads, most read first")
    files_edited: dict[str, int] = Field(default_factory=dict, description="path -> edits, most edited first")
    verifications: list[Verification] = Field(default_factory=list)
    compactions: int = 0
    subagents: int = 0


def stats_of(messages: list[m.AnyMessage], responses: dict[str, m.Response], cwd: str | None, subagents: int = 0) -> Stats:
    stats = Stats(subagents=subagents)
    calls: dict[str, m.ToolCall] = {}
    unnamed: list[m.ToolCall] = []
    failed: set[str] = set()
    finished: dict[str, tuple[bool, int | None]] = {}  # background task or its call's id -> (passed, exit code)
    times: list[datetime] = []
    for message in m.walk(messages):
        _finished(message, finished)
        if message.timestamp is not None:
            times.append(message.timestamp)
        if isinstance(message, m.Branch):
            continue
        stats.messages += 1
        if isinstance(message, TURNS):
            stats.turns += 1
        elif isinstance(message, m.Compaction):
            stats.compactions += 1
        elif isinstance(message, m.ToolCall):
            if not message.id:
                unnamed.append(message)
            elif message.id not in calls:
                calls[message.id] = message
            if message.result is not None and message.result.is_error and message.id:
                failed.add(message.id)
            if message.result is not None and message.result.timestamp is not None:
                times.append(message.result.timestamp)
        elif isinstance(message, m.ToolResult) and message.is_error and message.tool_use_id:
            failed.add(message.tool_use_id)
    _count_tools(stats, list(calls.values()) + unnamed, failed, cwd, finished)
    for response in responses.values():
        usage = response.usage
        stats.tokens.input += usage.input
        stats.tokens.output += usage.output
        stats.tokens.cache_creation += usage.cache_creation
        stats.tokens.cache_read += usage.cache_read
        stats.tokens.thinking += usage.thinking
    if times:
        stats.started, stats.ended = min(times), max(times)
        stats.duration_seconds = (stats.ended - stats.started).total_seconds()
    return stats


def figures_of(session: m.Session) -> dict[str | None, Stats]:
    """The statistics of a session's own conversation (key None) and of each of its
    subagents' (by id)."""

    started = Counter(agent.parent for agent in session.agents)  # subagents, by the agent that started them
    figures: dict[str | None, Stats] = {None: stats_of(session.messages, session.responses, session.cwd, started[None])}
    for agent in session.agents:
        figures[agent.id] = stats_of(agent.messages, agent.responses, session.cwd, started[agent.id])
    return figures


def _count_tools(
    stats: Stats, calls: list[m.ToolCall], failed: set[str], cwd: str | None, finished: dict[str, tuple[bool, int | None]]
) -> None:
    tools: dict[str, Count] = {}
    kinds: dict[str, CategoryCount] = {}
    reads: Counter[str] = Counter()
    edits: Counter[str] = Counter()
    for call in calls:
        error = bool(call.id) and call.id in failed or (call.result is not None and call.result.is_error)
        command = command_of(call.name, call.input)
        kind = category(call.name, command)
        count = tools.setdefault(call.name, Count())
        count.calls += 1
        count.errors += error
        group = kinds.setdefault(kind, CategoryCount())
        group.calls += 1
        group.errors += error
        if call.name not in group.tools:
            group.tools.append(call.name)
        name = call.name.lower()
        if name in READS:
            reads.update(targets(call.input, cwd))
        elif name in EDITS:
            edits.update(targets(call.input, cwd))
        if kind == "verify" and command:
            stats.verifications.append(_verification(call, command, error, finished))
    stats.tools = dict(sorted(tools.items(), key=lambda item: (-item[1].calls, item[0])))
    stats.categories = dict(sorted(kinds.items(), key=lambda item: (-item[1].calls, item[0])))
    stats.tool_calls = sum(c.calls for c in tools.values())
    stats.errors = sum(c.errors for c in tools.values())
    stats.files_read = _most_first(reads)
    stats.files_edited = _most_first(edits)


def _verification(call: m.ToolCall, command: str, error: bool, finished: dict[str, tuple[bool, int | None]]) -> Verification:
    result = call.result
    output = result.output if result is not None else None
    exit_code = output.exit_code if isinstance(output, m.ShellOutput) else None
    passed = None if result is None else not error and exit_code in (0, None)
    # A command sent to the background has not finished when its result is written: its
    # outcome is that of a later notice or poll (BashOutput, TaskOutput), if any.
    background = output.background_id if isinstance(output, m.ShellOutput) else None
    if not error and (background or call.input.get("run_in_background") is True):
        passed, exit_code = finished.get(call.id) or finished.get(background or "") or (None, None)
    return Verification(command=command, passed=passed, exit_code=exit_code, anchor=call.anchor)


_EXIT_CODE = re.compile(r"exit code (-?\d+)", re.IGNORECASE)
_DONE = {"completed": True, "failed": False, "killed": False}


def _finished(message: m.AnyMessage, out: dict[str, tuple[bool, int | None]]) -> None:
    """Record how a background task ended, from Claude Code's notice or from a poll of it."""
    if isinstance(message, m.TaskNotification):
        found = _EXIT_CODE.search(message.summary)
        status, exit_code = message.status, int(found.group(1)) if found else None
        keys = [message.task_id, message.tool_use_id]
    elif isinstance(message, m.ToolCall) and message.result is not None and isinstance(message.result.output, m.BackgroundOutput):
        status, exit_code = message.result.output.status, message.result.output.exit_code
        keys = [message.result.output.task_id]
    else:
        return
    if exit_code is None and status not in _DONE:
        return  # still running
    passed = exit_code == 0 if exit_code is not None else _DONE[status]
    for key in keys:
        if key:
            out[key] = (passed, exit_code)


def _most_first(counts: Counter[str]) -> dict[str, int]:
    return dict(sorted(counts.items(), key=lambda item: (-item[1], item[0])))


def total(stats: Iterable[Stats]) -> Stats:
    """The sum of several conversations' figures (for a site's totals)."""
    out = Stats()
    for one in stats:
        out.turns += one.turns
        out.messages += one.messages
        out.tool_calls += one.tool_calls
        out.errors += one.errors
        out.compactions += one.compactions
        out.subagents += one.subagents
        for field in ("input", "output", "cache_creation", "cache_read"):
            setattr(out.tokens, field, getattr(out.tokens, field) + getattr(one.tokens, field))
        if one.duration_seconds is not None:
            out.duration_seconds = (out.duration_seconds or 0) + one.duration_seconds
        if one.started is not None and (out.started is None or one.started < out.started):
            out.started = one.started
        if one.ended is not None and (out.ended is None or one.ended > out.ended):
            out.ended = one.ended
    return out


def row_of(page: str, title: str, figures: Iterable[Stats], subagents: int, tags: list[str]) -> Row:
    figures = list(figures)
    whole = total(figures)
    own = figures[0] if figures else Stats()
    return Row(
        page=page,
        title=title,
        started=own.started or whole.started,
        duration_seconds=own.duration_seconds,
        messages=whole.messages,
        tool_calls=whole.tool_calls,
        errors=whole.errors,
        subagents=subagents,
        tokens=whole.tokens.total,
        tags=tags,
    )
