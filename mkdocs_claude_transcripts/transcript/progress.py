"""A subagent's conversation as its session's progress lines hold it.

Claude Code (2.x) writes each message of a running subagent into the session too, in
an ``agent_progress`` line; a session copied without its ``subagents/`` folder has
nothing else of them.
"""

from __future__ import annotations

from collections.abc import Container

from ..report import FileReport, Level
from .raw import AnyEntry, ProgressEntry
from .reader import entry_of


def agent_chains(
    lines: list[tuple[int, ProgressEntry]], filed: Container[str], report: FileReport
) -> dict[str, tuple[str | None, list[tuple[int, AnyEntry]]]]:
    """The conversations of the subagents whose own files are not here (not in
    ``filed``), from a session's progress ``lines``. By agent id: the call that
    started it, and its messages as entries of one chain, each line's number the
    progress line's."""
    chains: dict[str, tuple[str | None, list[tuple[int, AnyEntry]]]] = {}
    seen: set[tuple[str, str]] = set()
    for line, progress in lines:
        data = progress.data
        if not isinstance(data, dict) or data.get("type") != "agent_progress":
            continue
        agent_id, message = data.get("agentId"), data.get("message")
        if not isinstance(agent_id, str) or not agent_id or agent_id in filed or not isinstance(message, dict):
            continue
        uuid = message.get("uuid")
        if isinstance(uuid, str) and (agent_id, uuid) in seen:
            continue  # the same message, in a later line
        seen.add((agent_id, uuid if isinstance(uuid, str) else f"line-{line}"))
        chain = chains.setdefault(agent_id, (progress.parentToolUseID, []))[1]
        if not chain:
            report.problem(line, f"subagent {agent_id}: its file is not here; it is shown from the session's progress lines", Level.INFO)
        before = getattr(chain[-1][1], "uuid", None) if chain else None
        entry = entry_of({**message, "isSidechain": True, "agentId": agent_id, "sessionId": progress.sessionId, "parentUuid": before},
                         line, report)  # fmt: skip
        if entry is not None:
            chain.append((line, entry))
    return {agent_id: found for agent_id, found in chains.items() if found[1]}
