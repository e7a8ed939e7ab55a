"""Find each subagent's conversation and the tool call that started it.

Inline sidechains (Claude Code 1.0.x) are split into one conversation per
chain; agent files are linked to their spawning call by, in order of
reliability: the ``toolUseId`` of their meta.json, the ``agentId`` that the
Task/Agent result records, a Workflow result's ``runId``, and for inline
chains the prompt the call sent.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from .. import model as m
from ..render import layout
from ..report import Level
from ..transcript import raw
from .conversation import Conversation
from .text import named, shorten

AGENT_TOOLS = frozenset({"Task", "Agent"})
_AGENT_ID_LINE = re.compile(r"agentId:\s*([A-Za-z0-9_-]+)")


@dataclass
class Spawned:
    """An agent's conversation, before it is linked to the call that started it."""

    agent: m.Agent
    conversation: Conversation
    workflow_run: str | None = None
    prompt: str = ""
    raw_id: str = ""  # the id as the transcript writes it; ``agent.id`` is made safe for paths


def settle_ids(spawned: list[Spawned]) -> None:
    """Give each agent an id fit for a page name and unique in its session: the second
    of one id gets ``-2``, the next free number after those its id had before."""
    seen: set[str] = set()
    numbered: dict[str, int] = {}  # the last number given to each id (those below it are taken)
    for item in spawned:
        item.raw_id = item.raw_id or item.agent.id
        base = layout.agent_name(item.agent.id)
        candidate, n = base, numbered.get(base, 1)
        while candidate in seen:
            n += 1
            candidate = f"{base}-{n}"
        numbered[base] = n
        seen.add(candidate)
        item.agent.id = candidate


def split_sidechains(lines: list[tuple[int, raw.AnyEntry]]) -> list[list[tuple[int, raw.AnyEntry]]]:
    """Group inline sidechain lines into chains, each rooted at a line without a parent
    among them. Lines arrive interleaved when agents run in parallel."""
    root_of: dict[str, str] = {}
    groups: dict[str, list[tuple[int, raw.AnyEntry]]] = {}
    for line, entry in lines:
        uuid = getattr(entry, "uuid", None) or f"line-{line}"
        parent = getattr(entry, "parentUuid", None)
        root = root_of.get(parent, uuid) if parent else uuid
        root_of[uuid] = root
        groups.setdefault(root, []).append((line, entry))
    return list(groups.values())


def first_prompt(messages: list[m.AnyMessage]) -> str:
    """The first thing the user typed: a prompt, or else a slash command, or else a
    command run in bash mode (``! ls``)."""
    for message in m.walk(messages):
        if isinstance(message, m.Prompt) and message.text.strip():
            return message.text
    command = next((msg for msg in m.walk(messages) if isinstance(msg, m.SlashCommand)), None)
    if command is not None:
        return f"{command.name} {command.args}".strip()
    shell = next((msg for msg in m.walk(messages) if isinstance(msg, m.ShellCommand) and msg.command.strip()), None)
    return f"! {shell.command.strip()}" if shell else ""


def link(owners: list[tuple[str | None, Conversation]], spawned: list[Spawned], clean: Callable[[str], str] = str) -> None:
    """Set each agent's parent and spawning call, and record the agent on the call;
    an agent with no description takes the start of its prompt, ``clean``ed (redacted)
    before it is cut. Agent ids must be settled first (``settle_ids``)."""
    calls: dict[str, tuple[str | None, m.ToolCall]] = {}
    for owner, conversation in owners:
        for call in conversation.calls.values():
            calls[call.id] = (owner, call)
    by_agent_id: dict[str, str] = {}
    resumed: dict[str, list[str]] = {}  # the later calls that name an agent: those that resumed it
    by_run: dict[str, list[str]] = {}
    prompts: dict[str, list[str]] = {}
    for call_id, (_, call) in calls.items():
        if call.name in AGENT_TOOLS:
            prompt = str(call.input.get("prompt") or "").strip()
            prompts.setdefault(prompt, []).append(call_id)
            if call.result is not None:
                for agent_id in _agent_ids_of(call.result):
                    if by_agent_id.setdefault(agent_id, call_id) != call_id:
                        resumed.setdefault(agent_id, []).append(call_id)
        elif call.name == "Workflow" and call.result is not None and isinstance(call.result.output, m.BackgroundOutput):
            run = call.result.output.run_id
            if run:
                by_run.setdefault(run, []).append(call_id)

    unnamed = []  # agents no call names
    for item in spawned:
        agent = item.agent
        call_id = agent.tool_use_id if agent.tool_use_id in calls else None
        call_id = call_id or by_agent_id.get(item.raw_id or agent.id)
        if call_id is None and item.workflow_run:
            call_id = next(iter(by_run.get(item.workflow_run, [])), None)
        if call_id is None:
            agent.tool_use_id = None
            unnamed.append(item)
        else:
            _started_by(agent, call_id, calls)
    # Then by their prompt, once every call has the agents it names: an agent of the
    # conversation's own lines (1.0), or one of its own file whose call names no agent
    # (a call the user rejected, whose agent ran all the same).
    named_by = set(by_agent_id.values())
    for item in unnamed:
        candidates = prompts.get(item.prompt.strip(), [])
        free = [c for c in candidates if not calls[c][1].agents and (item.agent.source is None or c not in named_by)]
        # Calls sent the same prompt (in parallel, their agents' lines interleaved): the
        # one whose result is the agent's last answer.
        answer = _last_answer(item.agent.messages) if len(free) > 1 else ""
        call_id = next((c for c in free if answer and answer in _result_text(calls[c][1])), None) or next(iter(free), None)
        if call_id is not None:
            _started_by(item.agent, call_id, calls)
    # A call that resumed an agent (``resume``) leads to it too; the agent stays under
    # the call that started it.
    for item in spawned:
        for call_id in resumed.get(item.raw_id, []) if item.agent.tool_use_id else []:
            owner, call = calls[call_id]
            if owner != item.agent.id and item.agent.id not in call.agents:
                call.agents.append(item.agent.id)
    for item in spawned:
        if not item.agent.description and item.prompt:
            item.agent.description = shorten(clean(item.prompt), 60)
        # (its page's title, in the nav of every page)
        for name in ("description", "agent_type", "name"):
            if value := getattr(item.agent, name):
                setattr(item.agent, name, named(value, clean))
    _break_cycles([item.agent for item in spawned])
    _link_notifications(owners, calls, {item.raw_id: item.agent.id for item in spawned})
    _report_missing(owners, by_agent_id, {item.raw_id for item in spawned})


def _started_by(agent: m.Agent, call_id: str, calls: dict[str, tuple[str | None, m.ToolCall]]) -> None:
    owner, call = calls[call_id]
    if owner == agent.id:
        return
    agent.tool_use_id = call_id
    agent.parent = owner
    call.agents.append(agent.id)
    if call.name in AGENT_TOOLS:
        agent.agent_type = agent.agent_type or _str(call.input.get("subagent_type"))
        agent.description = agent.description or _str(call.input.get("description"))


def _report_missing(owners: list[tuple[str | None, Conversation]], named: dict[str, str], present: set[str]) -> None:
    """A Task/Agent call that names an agent whose transcript is not among the files."""
    for agent_id, call_id in named.items():
        if agent_id in present:
            continue
        for _, conversation in owners:
            call = conversation.calls.get(call_id)
            if call is not None:
                line = call.result.line if call.result else call.line
                conversation.report.problem(line, f"the {call.name} call names agent {agent_id}, whose transcript is not here", Level.INFO)
                break


def _link_notifications(
    owners: list[tuple[str | None, Conversation]], calls: dict[str, tuple[str | None, m.ToolCall]], agents: dict[str, str]
) -> None:
    """A task notification names the call that started its task, or the task itself."""
    for _, conversation in owners:
        for message in m.walk(conversation.messages):
            if not isinstance(message, m.TaskNotification):
                continue
            if message.tool_use_id in calls:
                message.agents = list(calls[message.tool_use_id][1].agents)
            elif message.task_id in agents:
                message.agents = [agents[message.task_id]]


def _break_cycles(agents: list[m.Agent]) -> None:
    """Damaged files could make two agents each other's parent; such agents go under the session."""
    parents = {agent.id: agent.parent for agent in agents}
    for agent in agents:
        seen = {agent.id}
        parent = agent.parent
        while parent is not None:
            if parent in seen:
                agent.parent = None
                parents[agent.id] = None
                break
            seen.add(parent)
            parent = parents.get(parent)


def _agent_ids_of(result: m.ToolResult) -> list[str]:
    found: list[str] = []
    if isinstance(result.output, m.AgentOutput) and result.output.agent_id:
        found.append(result.output.agent_id)
    found.extend(_AGENT_ID_LINE.findall(result.text))
    return found


def _last_answer(messages: list[m.AnyMessage]) -> str:
    answer = ""
    for message in m.walk(messages):
        if isinstance(message, m.AssistantText) and message.text.strip():
            answer = message.text.strip()
    return answer


def _result_text(call: m.ToolCall) -> str:
    return call.result.text if call.result is not None else ""


def _str(value: object) -> str | None:
    return value if isinstance(value, str) and value.strip() else None
