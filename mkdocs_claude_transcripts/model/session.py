"""A session and its subagents: the top of the content model."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field

from .messages import AnyMessage, Branch, Image, Message, Node, Response, ToolCall, kind_title
from .tools import Hunk

# Fields that name or tie things together rather than say anything: a message's kind
# (the tag its class is known by) and anchor, the ids that tie calls, results,
# responses and agents together, the file a session or agent comes from (where its
# pages go), the type of an image. Their strings are left as they are; models in
# them are not.
_IDENTIFIERS = frozenset(
    {"kind", "anchor", "id", "uuid", "parent_uuid", "parent", "tool_use_id", "response_id", "agent_id", "agents", "source", "media_type"}
)


# A media type as Claude Code writes it (``image/png``): an identifier. Anything else
# given as one is text, which is shown ("could not be decoded", a document's kind).
_MEDIA_TYPE = re.compile(r"[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}")


def map_strings(
    node: Any,
    change: Callable[[str], str],
    named: Callable[[str, Any], Any] | None = None,
    diff: Callable[[list[str]], list[str]] | None = None,
) -> Any:
    """Replace, in place, every string of the transcript held by ``node`` (a model, a
    list or a dict of them) with ``change(string)``, or, given to a key of a dict or a
    field a model does not declare (the transcript's own names, a tool's input), with
    ``named(key, value)`` where given, a number too, and each item of a list given to
    it; the keys of dicts of data too (a dict of models is keyed by their ids); the
    lines of a hunk of a diff all together, with ``diff(lines)`` where given. Image
    data and identifiers (``_IDENTIFIERS``) are left alone. Returns ``node``."""
    return _Mapping(change, named, diff).node(node)


@dataclass
class _Mapping:
    change: Callable[[str], str]
    named: Callable[[str, Any], Any] | None
    diff: Callable[[list[str]], list[str]] | None

    def node(self, node: Any) -> Any:
        if isinstance(node, BaseModel):
            self._model(node)
        elif isinstance(node, list):
            for index, value in enumerate(node):
                node[index] = self.change(value) if isinstance(value, str) else self.node(value)
        elif isinstance(node, dict):
            items = [
                (key if isinstance(value, BaseModel) or not isinstance(key, str) else self.change(key), self._given(key, value, self.named))
                for key, value in node.items()
            ]
            if any(new != old for (new, _), old in zip(items, node)):
                node.clear()
            node.update(items)
        return node

    def _model(self, node: BaseModel) -> None:
        image = isinstance(node, Image)
        hunk = self.diff is not None and isinstance(node, Hunk)
        # Straight into the model's fields: the values are strings already checked.
        for fields, identifiers, by_name in ((node.__dict__, _IDENTIFIERS, None), (node.__pydantic_extra__ or {}, frozenset(), self.named)):
            for name, value in fields.items():
                if name in identifiers and not (name == "media_type" and isinstance(value, str) and not _MEDIA_TYPE.fullmatch(value)):
                    for item in value if isinstance(value, list) else ():  # ids of agents, or a session's agents
                        if isinstance(item, BaseModel):
                            self.node(item)
                elif hunk and name == "lines":
                    fields[name] = self.diff(value)  # type: ignore[misc]
                elif by_name is not None:
                    fields[name] = self._given(name, value, by_name)
                elif isinstance(value, str):
                    if not (image and name == "data"):
                        fields[name] = self.change(value)
                elif value is not None and not isinstance(value, (int, float, bool, datetime)):
                    self.node(value)

    def _given(self, key: Any, value: Any, named: Callable[[str, Any], Any] | None) -> Any:
        """``value``, given to ``key`` in data, mapped."""
        if named is None or not isinstance(key, str):
            return self.change(value) if isinstance(value, str) else self.node(value)
        if isinstance(value, list):
            return [self._given(key, item, named) for item in value]
        if isinstance(value, (str, int, float)) and not isinstance(value, bool):
            return named(key, value)
        return self.node(value)


# An agent Claude Code runs on its own, rather than one a tool call starts, is known by
# its id: ``a``, what it does, ``-`` and a number (``aprompt_suggestion-0e2fb6``); what
# it does holds a letter past ``f``, which the number of another agent does not.
_OWN_AGENT = re.compile(r"a((?=[a-z_]*[g-z])[a-z]+(?:_[a-z]+)*)-[0-9a-f]+")
_OWN_AGENTS = {"prompt_suggestion": "Prompt suggestion", "compact": "Compaction"}


def own_agent(agent_id: str) -> str | None:
    """What an agent Claude Code runs on its own does, from its id (``Prompt
    suggestion``, ``Compaction``); None for an agent a tool call starts."""
    found = _OWN_AGENT.fullmatch(agent_id)
    return (_OWN_AGENTS.get(found[1]) or kind_title(found[1])) if found else None


def by_starter(agents: Iterable[Agent]) -> dict[str | None, list[Agent]]:
    """Agents by the id of the agent that started them (None: the session), each list
    in the order given."""
    started: dict[str | None, list[Agent]] = {}
    for agent in agents:
        started.setdefault(agent.parent, []).append(agent)
    return started


def walk(messages: Iterable[Message]) -> Iterator[Message]:
    """Every message, those inside branches included, in order."""
    for message in messages:
        yield message
        if isinstance(message, Branch):
            yield from walk(message.messages)


def anchors_of(message: Message) -> list[str]:
    """The anchors a message holds: its own, its tool result's, those of a branch's messages."""
    found = [message.anchor] if message.anchor else []
    if isinstance(message, ToolCall) and message.result is not None and message.result.anchor:
        found.append(message.result.anchor)
    if isinstance(message, Branch):
        for inner in message.messages:
            found += anchors_of(inner)
    return found


class Agent(Node):
    """A subagent: a conversation of its own, started by a tool call."""

    id: str
    agent_type: str | None = None
    description: str | None = None
    name: str | None = None  # the name Claude Code gave it (agent-name entries)
    parent: str | None = None  # id of the agent that started it; None for the session itself
    tool_use_id: str | None = None  # the Task/Agent call that started it
    source: str | None = None  # src_uri of its file; None for lines inside the session file
    messages: list[AnyMessage] = Field(default_factory=list)
    responses: dict[str, Response] = Field(default_factory=dict)  # by message id

    @property
    def title(self) -> str:
        label = self.agent_type or self.name or own_agent(self.id) or "Agent"
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
    pr_links: list[str] = Field(default_factory=list)
    agent_name: str | None = None
    messages: list[AnyMessage] = Field(default_factory=list)
    responses: dict[str, Response] = Field(default_factory=dict)  # by message id
    agents: list[Agent] = Field(default_factory=list)
    orphan_agent: bool = False  # this is an agent file whose session was not found
